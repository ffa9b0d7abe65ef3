package dev.breakwater.tpcc;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Counters and a latency histogram of one transaction type. "Total" counters cover the whole run
 * (warm-up included, for the time series); "measured" counters and the histogram only transactions
 * that completed inside the measurement window.
 *
 * <p>Thread safety: safe; terminals record concurrently, the reporter reads.
 */
final class TypeMetrics {

    /** Latencies in microseconds, up to one minute, three significant digits. */
    final Histogram latencyMicros = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(1), 3);
    final LongAdder totalCommitted = new LongAdder();
    final LongAdder committed = new LongAdder();
    final LongAdder rollbacks = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder failures = new LongAdder();

    void record(TxExecutor.Outcome o, long nanos, boolean measured) {
        if (o.committed()) {
            totalCommitted.increment();
        }
        if (!measured) {
            return;
        }
        if (o.committed()) {
            committed.increment();
        } else {
            rollbacks.increment();
        }
        retries.add(o.retries());
        latencyMicros.recordValue(Math.min(latencyMicros.getHighestTrackableValue(), Math.max(1, nanos / 1000)));
    }

    void recordFailure(boolean measured) {
        if (measured) {
            failures.increment();
        }
    }
}
