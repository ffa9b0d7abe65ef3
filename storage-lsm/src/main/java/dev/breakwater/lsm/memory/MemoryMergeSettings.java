package dev.breakwater.lsm.memory;

/**
 * Settings of {@link MemoryMergePicker}.
 *
 * @param sizeRatio T, the size ratio between adjacent memory levels (paper 000 §4.1: 10; default
 *                  {@link #DEFAULT_SIZE_RATIO})
 * @param baseBytes the size of the active component M0 (DESIGN.md §4: 32 MB by default); memory
 *                  level {@code i} (1-based) targets {@code baseBytes * T^i}
 */
public record MemoryMergeSettings(double sizeRatio, long baseBytes) {

    /**
     * The paper's size ratio (paper 000 §6.1: 10): what the number of memory levels is chosen with
     * (a tree gets the levels that ratio 10 would need for its write memory).
     */
    public static final double PAPER_SIZE_RATIO = 10;

    /**
     * The size ratio the memory merge picker sizes levels with: 5, not the paper's 10. A seal merges
     * M0 with every overlapping M1 table, and M0's keys usually span the whole key space, so each
     * seal rereads and rewrites all of M1, which merges keep just under its target: the seal alone
     * moves about {@code T} bytes per byte ingested. Merges from M1 down choose the table with the
     * least overlap below, so under skew they move less than {@code T}. A smaller ratio trades the
     * first for the second. Measured on Figure 8 (docs/benchmarks-memory.md: 200k records of 1 KB,
     * Zipfian updates, M0 = 4 MiB, 2 memory levels), bytes the memory levels read per byte ingested:
     * 14.4 at T = 10, 12.4 at 7, 11.8 at 5, 12.9 at 3; and the memory levels held the same data in
     * 235 MiB instead of 256 MiB (M1, smaller, duplicates fewer keys of M2).
     */
    public static final double DEFAULT_SIZE_RATIO = 5;

    public MemoryMergeSettings {
        if (!(sizeRatio > 1)) {
            throw new IllegalArgumentException("memory level size ratio must be > 1, got " + sizeRatio);
        }
        if (baseBytes <= 0) {
            throw new IllegalArgumentException("M0 size must be > 0, got " + baseBytes);
        }
    }

    /** {@link #DEFAULT_SIZE_RATIO} over an M0 of {@code m0Bytes}. */
    public static MemoryMergeSettings withBase(long m0Bytes) {
        return new MemoryMergeSettings(DEFAULT_SIZE_RATIO, m0Bytes);
    }

    /** Target size of memory level {@code level} (1-based, not the last level): {@code M0 * T^level}. */
    public double target(int level) {
        return baseBytes * Math.pow(sizeRatio, level);
    }
}
