package dev.breakwater.buffercache;

import dev.breakwater.common.stats.IoPurpose;

/**
 * A point-in-time copy of a {@link BufferCache}'s statistics. Pins are hits plus misses.
 *
 * @param capacityBytes          current size of the cache
 * @param frames                 current number of frames
 * @param pinnedFrames           frames pinned when the snapshot was taken
 * @param simulatedCapacityPages page ids the ghost list can hold
 * @param hits                   pins served from the cache, by {@link IoPurpose} ordinal
 * @param misses                 pins that read from disk, by purpose ordinal
 * @param saved                  misses whose page was in the ghost list, by purpose ordinal
 * @param evictions              pages evicted (including by shrinks)
 * @param pinTimeouts            pins that failed because every frame stayed pinned
 */
public record BufferCacheSnapshot(long capacityBytes, int frames, int pinnedFrames, long simulatedCapacityPages,
                                  long[] hits, long[] misses, long[] saved, long evictions, long pinTimeouts) {

    public long hits(IoPurpose p) {
        return hits[p.ordinal()];
    }

    public long misses(IoPurpose p) {
        return misses[p.ordinal()];
    }

    /** Misses that a cache larger by the simulated size would have saved ({@code saved_q}, {@code saved_m}). */
    public long saved(IoPurpose p) {
        return saved[p.ordinal()];
    }

    public long pins(IoPurpose p) {
        return hits(p) + misses(p);
    }

    public long totalHits() {
        long s = 0;
        for (long h : hits) {
            s += h;
        }
        return s;
    }

    public long totalMisses() {
        long s = 0;
        for (long m : misses) {
            s += m;
        }
        return s;
    }
}
