package dev.breakwater.bench.lsm;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Measures reads of a settled LSM tree whose pages are all in the buffer cache: a point lookup of
 * a key the tree holds, a point lookup of a key it does not hold (answered by key ranges and Bloom
 * filters, without touching index or leaf pages unless a filter gives a false positive), and a
 * range scan that opens a cursor at an existing key and reads 100 entries.
 *
 * <p>How: the trial set-up loads {@link #keys} random 16-byte keys with 100-byte values into a tree
 * on the real file system (a temporary directory) with small memory tables ({@link #memoryTable}, 1 MiB by
 * default) and size ratio {@value #SIZE_RATIO}, so that the data spans L0 plus three disk levels;
 * then it flushes, waits for merges, prints the shape, and fails if there are fewer than
 * {@link #minLevels} (three) levels below L0. The buffer cache ({@value #CACHE_BYTES} bytes) holds the whole tree; set-up
 * warms it by looking every key up (which also checks that each is found), probing absent keys and
 * scanning the tree once, and the tear-down prints the cache misses counted after warm-up (0 means
 * every measured access was a cache hit). The memory tables are empty during measurement. Keys to
 * look up are chosen uniformly at random on the measured path by an inline xorshift from
 * pre-generated arrays. The scan benchmark's time is per scan of 100 entries (cursor creation,
 * positioning in every run, 100 merged steps, close).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
@State(Scope.Benchmark)
public class TreeReadBenchmark {

    static final int PAGE = 4096;
    static final int VALUE_BYTES = 100;
    static final int SIZE_RATIO = 4;
    static final long CACHE_BYTES = 512L << 20;
    static final int SCAN_LENGTH = 100;
    static final int ABSENT_KEYS = 1 << 16;

    /** Keys loaded. 300,000 x 116 B is about 35 MB: between M*T^2 and M*T^3, hence three levels. */
    @Param("300000")
    public int keys;

    /**
     * Bytes of a memory table. The default gives the leveled shape above, which merge timing varies
     * between trials; {@code -p memoryTable=134217728 -p minLevels=0} loads every key into one
     * memory table and flushes it as one SSTable, the same shape in every trial and every build (to
     * compare SSTable formats).
     */
    @Param("1048576")
    public long memoryTable;

    /** Fewest levels below L0 the trial accepts (it fails with fewer). */
    @Param("3")
    public int minLevels;

    BenchTree bench;
    byte[][] present;
    byte[][] absent;
    private long missesAfterWarmUp;

    @Setup(Level.Trial)
    public void build() throws IOException {
        LsmTreeOptions options = LsmTreeOptions.defaults(PAGE, memoryTable).withSizeRatio(SIZE_RATIO);
        bench = new BenchTree(null, options, CACHE_BYTES, 4 * memoryTable);
        present = BenchKeys.keys(BenchKeys.PRESENT, keys);
        absent = BenchKeys.keys(BenchKeys.ABSENT, ABSENT_KEYS);
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < keys; i++) {
            BenchKeys.putLong(value, 0, i);
            bench.tree.put(present[i], value, 0);
        }
        bench.tree.flush();
        bench.tree.awaitMerges();
        System.out.println();
        System.out.println("tree shape: " + bench.shape());
        int levels = bench.tree.version().levelCount();
        if (levels - 1 < minLevels) {
            throw new IllegalStateException("only " + (levels - 1) + " levels below L0; raise -p keys");
        }
        warmUp();
        missesAfterWarmUp = bench.cache.snapshot().totalMisses();
        System.out.printf("buffer cache after warm-up: %s%n", describe(bench.cache.snapshot()));
    }

    private void warmUp() throws IOException {
        ValueHolder out = new ValueHolder();
        for (int i = 0; i < keys; i++) {
            if (bench.tree.get(present[i], out) != LookupResult.FOUND) {
                throw new IllegalStateException("key " + i + " not found after load");
            }
        }
        for (byte[] k : absent) {
            if (bench.tree.get(k, out) != LookupResult.ABSENT) {
                throw new IllegalStateException("an absent key was found");
            }
        }
        long n = 0;
        try (EntryCursor c = bench.tree.scan(null, null)) {
            while (c.next()) {
                n++;
            }
        }
        if (n != keys) {
            throw new IllegalStateException("full scan returned " + n + " entries, loaded " + keys);
        }
    }

    private static String describe(BufferCacheSnapshot s) {
        return String.format("%,d frames, %,d hits, %,d misses", s.frames(), s.totalHits(), s.totalMisses());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        BufferCacheSnapshot s = bench.cache.snapshot();
        System.out.printf("%nbuffer cache misses during measurement: %,d (%s)%n", s.totalMisses() - missesAfterWarmUp, describe(s));
        System.out.println("bloom statistics: " + bench.tree.statistics().bloomProbes() + " probes, "
                + bench.tree.statistics().bloomNegatives() + " negatives, "
                + bench.tree.statistics().bloomFalsePositives() + " false positives");
        bench.close();
    }

    /** Per-thread lookup buffer and random state. */
    @State(Scope.Thread)
    public static class Reader {
        final ValueHolder out = new ValueHolder();
        long random;

        @Setup(Level.Trial)
        public void init() {
            random = BenchKeys.mix(System.nanoTime() ^ Thread.currentThread().getId()) | 1;
        }

        int next(int n) {
            random = BenchKeys.xorshift(random);
            return BenchKeys.index(random, n);
        }
    }

    @Benchmark
    public LookupResult getExisting(Reader r) throws IOException {
        LookupResult res = bench.tree.get(present[r.next(keys)], r.out);
        if (res != LookupResult.FOUND) {
            throw new IllegalStateException("existing key not found");
        }
        return res;
    }

    @Benchmark
    public LookupResult getAbsent(Reader r) throws IOException {
        return bench.tree.get(absent[r.next(ABSENT_KEYS)], r.out);
    }

    @Benchmark
    public void scan100(Reader r, Blackhole bh) throws IOException {
        int n = 0;
        try (EntryCursor c = bench.tree.scan(present[r.next(keys)], null)) {
            while (n < SCAN_LENGTH && c.next()) {
                bh.consume(c.key());
                bh.consume(c.valueLength());
                n++;
            }
        }
        bh.consume(n);
    }
}
