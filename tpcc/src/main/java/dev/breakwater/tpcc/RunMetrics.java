package dev.breakwater.tpcc;

import java.util.EnumMap;
import java.util.Map;

/**
 * The driver's counters: one {@link TypeMetrics} per transaction type, and the measurement window
 * (nanoTime bounds) that decides which transactions count.
 *
 * <p>Thread safety: safe. The window bounds are volatile; set them before terminals start.
 */
final class RunMetrics {

    private final Map<TxType, TypeMetrics> byType = new EnumMap<>(TxType.class);
    volatile long measureFromNanos;
    volatile long measureToNanos;

    RunMetrics() {
        for (TxType t : TxType.values()) {
            byType.put(t, new TypeMetrics());
        }
    }

    TypeMetrics of(TxType t) {
        return byType.get(t);
    }

    boolean inWindow(long endNanos) {
        return endNanos >= measureFromNanos && endNanos <= measureToNanos;
    }

    long totalCommitted() {
        long s = 0;
        for (TypeMetrics m : byType.values()) {
            s += m.totalCommitted.sum();
        }
        return s;
    }

    long measuredCommitted() {
        long s = 0;
        for (TypeMetrics m : byType.values()) {
            s += m.committed.sum();
        }
        return s;
    }

    long measuredRollbacks() {
        long s = 0;
        for (TypeMetrics m : byType.values()) {
            s += m.rollbacks.sum();
        }
        return s;
    }

    long measuredRetries() {
        long s = 0;
        for (TypeMetrics m : byType.values()) {
            s += m.retries.sum();
        }
        return s;
    }

    long measuredFailures() {
        long s = 0;
        for (TypeMetrics m : byType.values()) {
            s += m.failures.sum();
        }
        return s;
    }
}
