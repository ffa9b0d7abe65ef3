package dev.breakwater.lsm.manager;

import java.util.ArrayList;
import java.util.List;

/**
 * A bounded ring of (time, used, capacity) samples of the write-memory pool: pool utilization over
 * time, for reports and plots. Older samples are thinned by half when the ring fills, so a long run
 * keeps its whole span at a coarser resolution.
 *
 * <p>Thread safety: safe (synchronized; touched once per manager tick).
 */
public final class UtilizationHistory {

    /** One sample. */
    public record Sample(long nanoTime, long usedBytes, long capacityBytes) {
    }

    private final int capacity;
    private final List<Sample> samples = new ArrayList<>();
    private long minSpacingNanos = 10_000_000L;

    UtilizationHistory(int capacity) {
        this.capacity = capacity;
    }

    synchronized void record(long now, long used, long cap) {
        if (!samples.isEmpty() && now - samples.get(samples.size() - 1).nanoTime() < minSpacingNanos) {
            return;
        }
        samples.add(new Sample(now, used, cap));
        if (samples.size() >= capacity) {
            List<Sample> thinned = new ArrayList<>(capacity / 2 + 1);
            for (int i = 0; i < samples.size(); i += 2) {
                thinned.add(samples.get(i));
            }
            samples.clear();
            samples.addAll(thinned);
            minSpacingNanos *= 2;
        }
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }
}
