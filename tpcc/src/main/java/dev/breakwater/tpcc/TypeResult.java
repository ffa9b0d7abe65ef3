package dev.breakwater.tpcc;

import org.HdrHistogram.Histogram;

/**
 * Measured figures of one transaction type: counts, rate, and latency percentiles in milliseconds.
 *
 * @param rollbacks transactions rolled back as the specification requires (New-Order's unused item)
 * @param retries   engine aborts (deadlock victims, lock timeouts) that were retried
 * @param failures  transactions given up after retrying for 10 s
 */
public record TypeResult(String type, long committed, long rollbacks, long retries, long failures, double perSecond,
                         double meanMs, double p50Ms, double p90Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs) {

    static TypeResult of(TxType type, TypeMetrics m, double seconds) {
        Histogram h = m.latencyMicros;
        boolean empty = h.getTotalCount() == 0;
        return new TypeResult(type.label(), m.committed.sum(), m.rollbacks.sum(), m.retries.sum(), m.failures.sum(),
                m.committed.sum() / seconds, empty ? 0 : h.getMean() / 1000, pct(h, 50), pct(h, 90), pct(h, 95), pct(h, 99),
                pct(h, 99.9), empty ? 0 : h.getMaxValue() / 1000.0);
    }

    private static double pct(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1000.0;
    }
}
