package dev.breakwater.lsm.memory;

/**
 * Settings of {@link MemoryMergePicker}.
 *
 * @param sizeRatio      T, the size ratio between adjacent memory levels (paper 000 §4.1: 10; default
 *                       {@link #DEFAULT_SIZE_RATIO})
 * @param baseBytes      the size of the active component M0 (DESIGN.md §4: 32 MB by default); memory
 *                       level {@code i} (1-based) targets {@code baseBytes * T^i}
 * @param firstLevelRuns how many sorted runs M1 may hold (default {@link #DEFAULT_FIRST_LEVEL_RUNS}):
 *                       a seal that overlaps M1 while M1 holds fewer runs adds M0 as a new run without
 *                       copying M1; the seal that finds M1 full merges M0 with all of M1 into one run.
 *                       1 is the paper's leveled M1 (every overlapping seal rewrites what it overlaps)
 */
public record MemoryMergeSettings(double sizeRatio, long baseBytes, int firstLevelRuns) {

    /**
     * The paper's size ratio (paper 000 §6.1: 10): what the number of memory levels is chosen with
     * (a tree gets the levels that ratio 10 would need for its write memory).
     */
    public static final double PAPER_SIZE_RATIO = 10;

    /**
     * The size ratio the memory merge picker sizes levels with: 8, not the paper's 10. Measured on
     * Figure 8 (docs/benchmarks-memory.md: 200k records of 1 KB, Zipfian updates, M0 = 4 MiB, 2
     * memory levels), bytes the memory levels read per byte ingested. With a leveled M1 (one run)
     * every seal rereads and rewrites all of M1 (M0's keys span the key space), so the seal alone moves
     * about {@code T} bytes per byte ingested, and merges from M1 down less (they choose the table with
     * the least overlap below): 14.4 at T = 10, 12.4 at 7, 11.8 at 5, 12.9 at 3, so 5 was the default
     * until M1 could hold several runs. With {@link #DEFAULT_FIRST_LEVEL_RUNS} runs M1 is rewritten once
     * per that many seals, so a larger M1 costs the seals little and makes each merge into M2 cheaper:
     * 11.7 at (1 run, T = 5), 10.0 at (4, 5), 7.5 at (4, 8), 6.8 at (8, 10), 8.0 at (3, 8)
     * (docs/benchmarks-memory.md, "2026-11-27 (session 9)").
     */
    public static final double DEFAULT_SIZE_RATIO = 8;

    /**
     * How many sorted runs M1 holds by default: 4. Each run is one more place a point lookup probes (a
     * table search and a Bloom filter) before the level below, so more runs trade reads for writes;
     * the bytes above flatten out past 4 (6.8 at 8 runs against 7.5 at 4).
     */
    public static final int DEFAULT_FIRST_LEVEL_RUNS = 4;

    public MemoryMergeSettings {
        if (!(sizeRatio > 1)) {
            throw new IllegalArgumentException("memory level size ratio must be > 1, got " + sizeRatio);
        }
        if (baseBytes <= 0) {
            throw new IllegalArgumentException("M0 size must be > 0, got " + baseBytes);
        }
        if (firstLevelRuns < 1) {
            throw new IllegalArgumentException("M1 must allow at least one run, got " + firstLevelRuns);
        }
    }

    /** A leveled M1 (one run): the paper's memory levels. */
    public MemoryMergeSettings(double sizeRatio, long baseBytes) {
        this(sizeRatio, baseBytes, 1);
    }

    /** The defaults over an M0 of {@code m0Bytes}. */
    public static MemoryMergeSettings withBase(long m0Bytes) {
        return new MemoryMergeSettings(DEFAULT_SIZE_RATIO, m0Bytes, DEFAULT_FIRST_LEVEL_RUNS);
    }

    /** Target size of memory level {@code level} (1-based, not the last level): {@code M0 * T^level}. */
    public double target(int level) {
        return baseBytes * Math.pow(sizeRatio, level);
    }
}
