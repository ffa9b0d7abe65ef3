package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.merge.GarneringPicker;
import dev.breakwater.lsm.merge.LevelingPicker;
import dev.breakwater.lsm.merge.MergePicker;
import dev.breakwater.lsm.merge.MergeSettings;
import dev.breakwater.lsm.merge.RunsPerLevelPicker;
import dev.breakwater.lsm.merge.TieringPicker;
import dev.breakwater.lsm.sstable.Compression;
import dev.breakwater.lsm.sstable.SSTableOptions;
import java.time.Duration;

/**
 * Per-tree settings.
 *
 * @param pageSize             disk page size (must equal the buffer cache's)
 * @param memoryTableBytes     the active memory table is sealed and flushed once it holds this much
 * @param maxImmutables        sealed tables waiting for flush before writers stall
 * @param targetTableBytes     flush and merge outputs are cut into SSTables of about this size
 * @param sizeRatio            T
 * @param l0MergeGroups        L0 groups at which an L0 merge is due
 * @param l0SlowdownGroups     L0 groups at which each flush is delayed (and the stall counted); leveling's
 *                             amortized L0 merges wait for at most two groups fewer ({@code l0MaxGroups()})
 * @param l0StopGroups         L0 groups at which flushes wait for merges
 * @param policy               merge policy
 * @param bloomBitsPerKey      Bloom filter bits per key (10 gives about 1% false positives), for every
 *                             level not listed in {@code bloomBitsPerLevel}
 * @param bloomBitsPerLevel    optional per-level override, index = level (Monkey-style sizing gives
 *                             upper levels more bits); empty for none
 * @param compression          leaf-page compression
 * @param directIo             read and write SSTables with O_DIRECT
 * @param stallTimeout         longest a writer waits for memory before failing
 * @param manifestRotateBytes  start a new manifest beyond this size
 * @param memoryLevels         0 for a monolithic memory component (flushed whole to disk); otherwise
 *                             the number of memory levels M1..Mk of a partitioned memory component
 *                             (paper 000 section 4.1), whose M0 is sealed at {@code memoryTableBytes}
 * @param runsPerLevel         K for {@link Policy#RUNS_PER_LEVEL} (ignored by the other policies)
 * @param garneringScale       Garnering's scaling factor c in (0, 1] (used by {@link Policy#GARNERING} only)
 * @param bloomAllocation      how filter bits per key are spread over the levels
 * @param l0MergeTables        L0 tables at which an L0 merge is due whatever the group count (leveling; 0: off)
 */
public record LsmTreeOptions(int pageSize, long memoryTableBytes, int maxImmutables, long targetTableBytes, int sizeRatio,
                             int l0MergeGroups, int l0SlowdownGroups, int l0StopGroups, Policy policy,
                             double bloomBitsPerKey, double[] bloomBitsPerLevel, Compression compression, boolean directIo,
                             Duration stallTimeout, long manifestRotateBytes, int memoryLevels, int runsPerLevel,
                             double garneringScale, BloomAllocation bloomAllocation, int l0MergeTables) {

    /**
     * Merge policies. {@code LEVELING_BATCHED_L0} is leveling whose L0 merges move batches of
     * {@code l0MergeGroups} groups and whose level sizes start from that batch ({@link LevelingPicker#batched()}).
     */
    public enum Policy {
        LEVELING, TIERING,
        /** Up to {@code runsPerLevel} runs per level ({@link RunsPerLevelPicker}, paper 003's K). */
        RUNS_PER_LEVEL,
        /** Garnering (paper 004), {@link GarneringPicker}. */
        GARNERING,
        /** Leveling with batched L0 merges ({@link LevelingPicker#batched()}). */
        LEVELING_BATCHED_L0
    }

    /**
     * How Bloom filter bits per key are chosen per level: UNIFORM gives every level
     * {@link #bloomBitsFor(int)}; MONKEY spends the same total filter memory so as to minimise the sum
     * of false-positive rates over all runs ({@link dev.breakwater.lsm.sstable.MonkeyAllocation}).
     */
    public enum BloomAllocation {
        UNIFORM, MONKEY
    }

    /** Garnering's default scaling factor c. */
    public static final double DEFAULT_GARNERING_SCALE = 0.8;

    /** The merge picker of {@link #policy()}. */
    MergePicker picker() {
        return switch (policy) {
            case LEVELING -> new LevelingPicker();
            case TIERING -> new TieringPicker();
            case RUNS_PER_LEVEL -> new RunsPerLevelPicker(runsPerLevel);
            case GARNERING -> new GarneringPicker(garneringScale);
            case LEVELING_BATCHED_L0 -> new LevelingPicker(true);
        };
    }

    /** Merge policy {@link Policy#RUNS_PER_LEVEL} with K runs per level (K &gt;= 1; capped at T − 1). */
    public LsmTreeOptions withRunsPerLevel(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("runs per level must be >= 1, got " + k);
        }
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, Policy.RUNS_PER_LEVEL, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo,
                stallTimeout, manifestRotateBytes, memoryLevels, k, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions {
        if (l0SlowdownGroups >= l0StopGroups) {
            throw new IllegalArgumentException("l0SlowdownGroups (" + l0SlowdownGroups + ") must be below l0StopGroups (" + l0StopGroups + ")");
        }
        bloomBitsPerLevel = bloomBitsPerLevel.clone();
        if (memoryLevels < 0) {
            throw new IllegalArgumentException("memoryLevels must be >= 0, got " + memoryLevels);
        }
        if (runsPerLevel < 1) {
            throw new IllegalArgumentException("runsPerLevel must be >= 1, got " + runsPerLevel);
        }
        if (!(garneringScale > 0 && garneringScale <= 1)) {
            throw new IllegalArgumentException("garneringScale (Garnering's c) must be in (0, 1], got " + garneringScale);
        }
        if (bloomAllocation == null) {
            throw new IllegalArgumentException("bloomAllocation must not be null");
        }
        if (maxImmutables < 1) {
            throw new IllegalArgumentException("maxImmutables must be >= 1, got " + maxImmutables);
        }
    }

    /** Defaults for a tree with {@code memoryTableBytes} of write memory. */
    public static LsmTreeOptions defaults(int pageSize, long memoryTableBytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, 2, Math.max(pageSize * 16L, memoryTableBytes), 10,
                4, 8, 12, Policy.LEVELING, SSTableOptions.DEFAULT_BLOOM_BITS_PER_KEY, new double[0], Compression.NONE, false,
                Duration.ofSeconds(60), 4L << 20, 0, 1, DEFAULT_GARNERING_SCALE, BloomAllocation.UNIFORM, 0);
    }

    public LsmTreeOptions withPolicy(Policy p) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, p, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withSizeRatio(int t) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, t, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withTargetTableBytes(long bytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, bytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withCompression(Compression c) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, c, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withDirectIo(boolean direct) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, direct, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withL0(int mergeGroups, int slowdownGroups, int stopGroups) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, mergeGroups,
                slowdownGroups, stopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    /** The L0 table-count trigger ({@code 0}: off); see {@link dev.breakwater.lsm.merge.MergeSettings#l0MergeTables()}. */
    public LsmTreeOptions withL0MergeTables(int tables) {
        if (tables < 0) {
            throw new IllegalArgumentException("l0MergeTables must be >= 0 (0: off), got " + tables);
        }
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, tables);
    }

    public LsmTreeOptions withManifestRotateBytes(long bytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, bytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    /** A partitioned memory component with {@code levels} memory levels (0: monolithic). */
    public LsmTreeOptions withMemoryLevels(int levels) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, levels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    boolean partitioned() {
        return memoryLevels > 0;
    }

    public LsmTreeOptions withMemoryTableBytes(long bytes) {
        return new LsmTreeOptions(pageSize, bytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    /** Bloom bits per key for every level, then per-level overrides (index = level). */
    public LsmTreeOptions withBloomBits(double perKey, double... perLevel) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, perKey, perLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, bloomAllocation, l0MergeTables);
    }

    /** The Garnering policy with scaling factor {@code c} (T stays {@link #sizeRatio()}). */
    public LsmTreeOptions withGarnering(double c) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, Policy.GARNERING, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, memoryLevels, runsPerLevel, c, bloomAllocation, l0MergeTables);
    }

    public LsmTreeOptions withBloomAllocation(BloomAllocation a) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, memoryLevels, runsPerLevel, garneringScale, a, l0MergeTables);
    }

    /** Bloom bits per key for SSTables written into {@code level}. */
    public double bloomBitsFor(int level) {
        return level < bloomBitsPerLevel.length ? bloomBitsPerLevel[level] : bloomBitsPerKey;
    }

    /**
     * The merge settings; L0 merges wait for up to {@link #l0MaxGroups()} groups when the level below
     * is large against L0 ({@link MergeSettings#l0MaxGroups()}).
     */
    MergeSettings mergeSettings() {
        return new MergeSettings(sizeRatio, l0MergeGroups, memoryTableBytes, targetTableBytes, l0MergeTables, l0MaxGroups());
    }

    /**
     * The deepest L0 an amortized L0 merge waits for: two groups below the slowdown, so that the
     * flushes during the merge meet the slowdown late (BATCHED's trigger), and never below {@code l0MergeGroups}.
     */
    int l0MaxGroups() {
        return Math.max(l0MergeGroups, l0SlowdownGroups - 2);
    }

    /** Options for SSTables written into {@code level}. */
    SSTableOptions tableOptions(int level) {
        return tableOptions(bloomBitsFor(level));
    }

    /** Options for SSTables with {@code bloomBits} bits per key (chosen by {@link BloomBits}). */
    SSTableOptions tableOptions(double bloomBits) {
        return SSTableOptions.defaults(pageSize).withBloomBitsPerKey(bloomBits).withCompression(compression).withDirectIo(directIo);
    }
}
