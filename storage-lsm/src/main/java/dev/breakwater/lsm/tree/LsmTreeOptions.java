package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.merge.LevelingPicker;
import dev.breakwater.lsm.merge.MergePicker;
import dev.breakwater.lsm.merge.MergeSettings;
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
 * @param l0SlowdownGroups     L0 groups at which each flush is delayed (and the stall counted)
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
 */
public record LsmTreeOptions(int pageSize, long memoryTableBytes, int maxImmutables, long targetTableBytes, int sizeRatio,
                             int l0MergeGroups, int l0SlowdownGroups, int l0StopGroups, Policy policy,
                             double bloomBitsPerKey, double[] bloomBitsPerLevel, Compression compression, boolean directIo,
                             Duration stallTimeout, long manifestRotateBytes, int memoryLevels) {

    /**
     * Merge policies. {@code LEVELING_BATCHED_L0} is leveling whose L0 merges move batches of
     * {@code l0MergeGroups} groups and whose level sizes start from that batch ({@link LevelingPicker#batched()}).
     */
    public enum Policy {
        LEVELING, TIERING, LEVELING_BATCHED_L0;

        MergePicker picker() {
            return switch (this) {
                case LEVELING -> new LevelingPicker();
                case LEVELING_BATCHED_L0 -> new LevelingPicker(true);
                case TIERING -> new TieringPicker();
            };
        }
    }

    public LsmTreeOptions {
        if (l0SlowdownGroups >= l0StopGroups) {
            throw new IllegalArgumentException("l0SlowdownGroups (" + l0SlowdownGroups + ") must be below l0StopGroups (" + l0StopGroups + ")");
        }
        bloomBitsPerLevel = bloomBitsPerLevel.clone();
        if (memoryLevels < 0) {
            throw new IllegalArgumentException("memoryLevels must be >= 0, got " + memoryLevels);
        }
        if (maxImmutables < 1) {
            throw new IllegalArgumentException("maxImmutables must be >= 1, got " + maxImmutables);
        }
    }

    /** Defaults for a tree with {@code memoryTableBytes} of write memory. */
    public static LsmTreeOptions defaults(int pageSize, long memoryTableBytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, 2, Math.max(pageSize * 16L, memoryTableBytes), 10,
                4, 8, 12, Policy.LEVELING, SSTableOptions.DEFAULT_BLOOM_BITS_PER_KEY, new double[0], Compression.NONE, false,
                Duration.ofSeconds(60), 4L << 20, 0);
    }

    public LsmTreeOptions withPolicy(Policy p) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, p, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withSizeRatio(int t) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, t, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withTargetTableBytes(long bytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, bytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withCompression(Compression c) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, c, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withDirectIo(boolean direct) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, direct, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withL0(int mergeGroups, int slowdownGroups, int stopGroups) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, mergeGroups,
                slowdownGroups, stopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    public LsmTreeOptions withManifestRotateBytes(long bytes) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout, bytes, memoryLevels);
    }

    /** A partitioned memory component with {@code levels} memory levels (0: monolithic). */
    public LsmTreeOptions withMemoryLevels(int levels) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, levels);
    }

    boolean partitioned() {
        return memoryLevels > 0;
    }

    /** Target size of one memory SSTable: a quarter of M0, at least 16 pages' worth of 4 KiB. */
    long memorySSTableBytes() {
        return Math.max(64 * 1024, memoryTableBytes / 4);
    }

    public LsmTreeOptions withMemoryTableBytes(long bytes) {
        return new LsmTreeOptions(pageSize, bytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, bloomBitsPerKey, bloomBitsPerLevel, compression, directIo, stallTimeout,
                manifestRotateBytes, memoryLevels);
    }

    /** Bloom bits per key for every level, then per-level overrides (index = level). */
    public LsmTreeOptions withBloomBits(double perKey, double... perLevel) {
        return new LsmTreeOptions(pageSize, memoryTableBytes, maxImmutables, targetTableBytes, sizeRatio, l0MergeGroups,
                l0SlowdownGroups, l0StopGroups, policy, perKey, perLevel, compression, directIo, stallTimeout, manifestRotateBytes, memoryLevels);
    }

    /** Bloom bits per key for SSTables written into {@code level}. */
    public double bloomBitsFor(int level) {
        return level < bloomBitsPerLevel.length ? bloomBitsPerLevel[level] : bloomBitsPerKey;
    }

    MergeSettings mergeSettings() {
        return new MergeSettings(sizeRatio, l0MergeGroups, memoryTableBytes, targetTableBytes);
    }

    /** Options for SSTables written into {@code level}. */
    SSTableOptions tableOptions(int level) {
        return SSTableOptions.defaults(pageSize).withBloomBitsPerKey(bloomBitsFor(level)).withCompression(compression).withDirectIo(directIo);
    }
}
