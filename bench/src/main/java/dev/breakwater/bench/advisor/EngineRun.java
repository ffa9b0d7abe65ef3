package dev.breakwater.bench.advisor;

import static dev.breakwater.common.key.FieldType.BYTES;
import static dev.breakwater.common.key.FieldType.INT64;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.MergePolicyKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.tuner.advisor.Design;
import dev.breakwater.tuner.advisor.Workload;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineLayout;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/**
 * One engine opened with one design: a dataset of {@code entries} records (int64 key, byte value)
 * loaded with even keys {@code 0, 2, …}, then workload mixes run against it, each measured as the
 * difference of two I/O statistics snapshots. Empty point reads look up odd keys (absent), non-empty
 * reads random even keys, range reads scan {@code rangeEntries} records from a random even key,
 * writes upsert random even keys (blind writes that keep the key count at N).
 *
 * <p>The engine runs with direct I/O, the tuner off (the design's write memory is a fixed split),
 * no simulated cache, ASYNC durability (the log is not what the model prices).
 *
 * <p>Not thread-safe: one driver thread.
 */
final class EngineRun implements AutoCloseable {

    /**
     * Pages read and written in one measured mix, and where a read's pages went: page accesses
     * (buffer-cache pins by queries, hits and misses), Bloom probes (one per run a point read consults
     * and that has a filter), probes the filter answered "no" and false positives, the disk runs the
     * tree had when the mix started (L0 groups and runs of levels 1 and below) and the pages of cache.
     */
    record Measure(long ops, long queryPagesRead, long mergePagesRead, long flushPagesWritten, long mergePagesWritten,
                   double seconds, long queryPins, long bloomProbes, long bloomNegatives, long bloomFalsePositives,
                   int l0Runs, int levelRuns) {

        /** Query pages read per operation: the cost of a read (Z0, Z1, Q). */
        double readPagesPerOp() {
            return (double) queryPagesRead / ops;
        }

        /** Flush and merge pages, read and written, per operation: the cost of a write (U). */
        double writePagesPerOp() {
            return (double) (mergePagesRead + flushPagesWritten + mergePagesWritten) / ops;
        }

        double opsPerSecond() {
            return ops / seconds;
        }
    }

    private final StorageEngine engine;
    private final Dataset data;
    private final long entries;
    private final int valueBytes;
    private final int rangeEntries;
    private final Path dir;
    private final Random rnd;

    EngineRun(Path dir, Design d, long totalMemory, int pageSize, long entries, int valueBytes, int rangeEntries, long seed) {
        this.dir = dir;
        this.entries = entries;
        this.valueBytes = valueBytes;
        this.rangeEntries = rangeEntries;
        this.rnd = new Random(seed);
        deleteTree(dir);
        // as AdvisorBench.asRun: whole 64 KiB, at least 1 MiB (until 2026-11-27 this rounded up to whole MiB, so a
        // design of 1.1 MiB ran with 2 MiB while the model priced 1.1)
        long writeMemory = Math.max(1L << 20, (d.writeMemoryBytes() + (1L << 16) - 1) >> 16 << 16);
        int k = d.runs(1);
        MergePolicyKind policy = k == 1 ? MergePolicyKind.LEVELING : k == d.sizeRatio() - 1 ? MergePolicyKind.TIERING : MergePolicyKind.RUNS_PER_LEVEL;
        StorageConfig.Builder b = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, (long) pageSize)
                .set(ConfigOptions.TOTAL_MEMORY, totalMemory)
                .set(ConfigOptions.WRITE_MEMORY, writeMemory)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.max(64L << 10, writeMemory / 8))
                .set(ConfigOptions.SIMULATED_CACHE, 0L)
                .set(ConfigOptions.DIRECT_IO, true)
                .set(ConfigOptions.TUNER, false)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.SIZE_RATIO, d.sizeRatio())
                .set(ConfigOptions.MERGE_POLICY, policy)
                .set(ConfigOptions.BLOOM_BITS_PER_KEY, d.bloomBitsPerKey())
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 1L << 20);
        if (policy == MergePolicyKind.RUNS_PER_LEVEL) {
            b.set(ConfigOptions.RUNS_PER_LEVEL, k);
        }
        engine = StorageEngine.open(dir, b.build());
        data = engine.createDataset(DatasetSpec.builder("kv").field("k", INT64).field("v", BYTES).primaryKey("k").build());
    }

    /** Loads the N records in random order, then flushes and waits for merges. */
    void load() {
        long[] keys = new long[(int) entries];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 2L * i;
        }
        for (int i = keys.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        for (long key : keys) {
            data.upsert(Tuple.of(key, value()));
        }
        engine.flushAndAwaitMerges();
    }

    private EngineLayout.TreeLayout tree() {
        return engine.layout().datasets().get(0).indexes().get(0).tree();
    }

    /** Bytes of the primary tree's SSTables divided by N: the model's E. */
    double diskBytesPerEntry() {
        return (double) tree().diskBytes() / entries;
    }

    /** Non-empty disk levels below L0. */
    int diskLevels() {
        return (int) tree().levels().stream().filter(l -> l.level() >= 1 && l.bytes() > 0).count();
    }

    /** The tree's shape: "L0 0 runs 0 MiB, L1 2 runs 3.1 MiB, ...". */
    String shape() {
        StringBuilder b = new StringBuilder();
        for (EngineLayout.LevelLayout l : tree().levels()) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format("L%d %d runs %.1f MiB", l.level(), l.components().size(), l.bytes() / 1048576.0));
        }
        return b.toString();
    }

    /** Disk runs of the primary tree: {L0 groups, runs in levels 1 and below}. */
    int[] runs() {
        int l0 = 0;
        int below = 0;
        for (EngineLayout.LevelLayout l : tree().levels()) {
            if (l.level() == 0) {
                l0 += l.components().size();
            } else {
                below += l.components().size();
            }
        }
        return new int[] {l0, below};
    }

    /** Flushes all memory and waits for merges to settle. */
    void settle() {
        engine.flushAndAwaitMerges();
    }

    /**
     * Runs {@code ops} operations drawn from {@code w} and measures them; with {@code settle}, the
     * flush of what they left in memory and the merges they caused are measured too.
     */
    Measure run(Workload w, int ops, boolean settle) {
        EngineStatistics statsBefore = engine.statistics();
        IoStatisticsSnapshot before = statsBefore.io();
        int[] runs = runs();
        long start = System.nanoTime();
        double[] p = w.toArray();
        for (int i = 0; i < ops; i++) {
            double x = rnd.nextDouble();
            long even = 2L * (long) (rnd.nextDouble() * entries);
            if (x < p[0]) {
                data.get(Key.of(even + 1));
            } else if (x < p[0] + p[1]) {
                data.get(Key.of(even));
            } else if (x < p[0] + p[1] + p[2]) {
                try (Cursor<Tuple> c = data.scan(KeyRange.atLeast(Key.of(even)))) {
                    for (int n = 0; n < rangeEntries && c.hasNext(); n++) {
                        c.next();
                    }
                }
            } else {
                data.upsert(Tuple.of(even, value()));
            }
        }
        if (settle) {
            settle();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        EngineStatistics statsAfter = engine.statistics();
        IoStatisticsSnapshot after = statsAfter.io();
        TreeStatisticsSnapshot t0 = statsBefore.trees().values().iterator().next();
        TreeStatisticsSnapshot t1 = statsAfter.trees().values().iterator().next();
        long pins = statsAfter.bufferCache().pins(IoPurpose.QUERY) - statsBefore.bufferCache().pins(IoPurpose.QUERY);
        return new Measure(ops, delta(after, before, IoPurpose.QUERY, true), delta(after, before, IoPurpose.MERGE, true),
                delta(after, before, IoPurpose.FLUSH, false), delta(after, before, IoPurpose.MERGE, false), seconds, pins,
                t1.bloomProbes() - t0.bloomProbes(), t1.bloomNegatives() - t0.bloomNegatives(),
                t1.bloomFalsePositives() - t0.bloomFalsePositives(), runs[0], runs[1]);
    }

    private static long delta(IoStatisticsSnapshot a, IoStatisticsSnapshot b, IoPurpose p, boolean read) {
        return read ? a.pagesRead(p) - b.pagesRead(p) : a.pagesWritten(p) - b.pagesWritten(p);
    }

    private byte[] value() {
        byte[] v = new byte[valueBytes];
        rnd.nextBytes(v);
        return v;
    }

    @Override
    public void close() {
        engine.close();
        deleteTree(dir);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
