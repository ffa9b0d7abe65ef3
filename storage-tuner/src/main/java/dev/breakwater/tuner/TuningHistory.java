package dev.breakwater.tuner;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@code capacity} tuning cycles, oldest first.
 *
 * <p>Invariant: holds at most {@code capacity} cycles; adding to a full history drops the oldest.
 *
 * <p>Thread safety: safe from any thread (the tuner adds, statistics readers copy); every method
 * holds the instance's monitor for O(capacity) at most.
 */
public final class TuningHistory {

    private final int capacity;
    /** Guarded by {@code this}. */
    private final ArrayDeque<TuningCycle> cycles;
    /** Guarded by {@code this}. */
    private long total;

    public TuningHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("tuner history capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.cycles = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    public synchronized void add(TuningCycle cycle) {
        if (cycles.size() == capacity) {
            cycles.removeFirst();
        }
        cycles.addLast(cycle);
        total++;
    }

    /** A copy of the retained cycles, oldest first. */
    public synchronized List<TuningCycle> cycles() {
        return new ArrayList<>(cycles);
    }

    /** Cycles ever added, including those dropped. */
    public synchronized long totalCycles() {
        return total;
    }
}
