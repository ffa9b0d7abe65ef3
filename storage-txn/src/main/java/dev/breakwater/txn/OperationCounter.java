package dev.breakwater.txn;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the operations users run ({@code op} of paper 000, Table 2): the tuner's cost is I/O per
 * operation. A point read is one {@code get}, a scan is one cursor opened, a record write is one
 * record of a committed transaction (a transaction writing five records counts five; secondary
 * index entries are not counted separately).
 *
 * <p>Thread safety: safe from any thread; the counters are striped ({@link LongAdder}), so counting
 * takes no lock and, past the first contention, allocates nothing.
 */
final class OperationCounter {

    private final LongAdder pointReads = new LongAdder();
    private final LongAdder scans = new LongAdder();
    private final LongAdder recordWrites = new LongAdder();

    void pointRead() {
        pointReads.increment();
    }

    void scan() {
        scans.increment();
    }

    void recordWrites(int records) {
        if (records > 0) {
            recordWrites.add(records);
        }
    }

    OperationCounts snapshot() {
        return new OperationCounts(pointReads.sum(), scans.sum(), recordWrites.sum());
    }
}
