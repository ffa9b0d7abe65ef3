package dev.breakwater.txn;

/**
 * Operations counted since the engine opened (see {@code OperationCounter}).
 *
 * @param pointReads   {@code get} calls, in and outside transactions
 * @param scans        cursors opened on a primary or secondary index
 * @param recordWrites records written by committed transactions (inserts, upserts, deletes)
 */
public record OperationCounts(long pointReads, long scans, long recordWrites) {

    /** All operations: the {@code op} the tuner divides I/O by. */
    public long total() {
        return pointReads + scans + recordWrites;
    }

    /** The counts between {@code earlier} and this. */
    public OperationCounts minus(OperationCounts earlier) {
        return new OperationCounts(pointReads - earlier.pointReads, scans - earlier.scans, recordWrites - earlier.recordWrites);
    }
}
