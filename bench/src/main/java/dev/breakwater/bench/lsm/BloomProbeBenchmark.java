package dev.breakwater.bench.lsm;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.sstable.SSTableOptions;
import dev.breakwater.lsm.sstable.SSTableReader;
import dev.breakwater.lsm.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

/**
 * Measures one Bloom filter probe, {@link SSTableReader#mayContain}, on an SSTable whose Bloom
 * pages are in the buffer cache: for keys the table holds (always "maybe") and for keys it does
 * not hold (mostly "no"; the tear-down prints the observed false-positive rate).
 *
 * <p>How: the trial set-up writes one SSTable of {@link #entries} random 16-byte keys with 100-byte
 * values (default options: 4 KiB pages, 10 bits per key) to a temporary directory with
 * {@link SSTableWriter}, opens it through a buffer cache large enough for the whole file, and warms
 * every Bloom page by probing every key. A probe hashes the key, pins one Bloom page (a buffer
 * cache hit), tests the key's bits in one block, and unpins; the keys are picked uniformly at
 * random from pre-generated arrays by an inline xorshift.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
@State(Scope.Benchmark)
public class BloomProbeBenchmark {

    static final int PAGE = 4096;
    static final int VALUE_BYTES = 100;
    static final int ABSENT_KEYS = 1 << 16;

    /** Entries in the table. */
    @Param("100000")
    public int entries;

    private Path dir;
    private IoStatistics io;
    private BufferCache cache;
    SSTableReader reader;
    byte[][] present;
    byte[][] absent;

    @Setup(Level.Trial)
    public void build() throws IOException {
        dir = Files.createTempDirectory("breakwater-bloombench-");
        io = new IoStatistics();
        RealFileSystem fs = RealFileSystem.create();
        present = BenchKeys.keys(BenchKeys.PRESENT, entries);
        absent = BenchKeys.keys(BenchKeys.ABSENT, ABSENT_KEYS);
        byte[][] sorted = present.clone();
        Arrays.sort(sorted, Arrays::compareUnsigned);
        Path file = dir.resolve("bench.sst");
        byte[] value = new byte[VALUE_BYTES];
        try (SSTableWriter w = SSTableWriter.create(fs, file, SSTableOptions.defaults(PAGE), io, IoPurpose.FLUSH)) {
            for (byte[] k : sorted) {
                w.add(k, k.length, value, value.length, false);
            }
            w.finish(0, 0);
        }
        long size = Files.size(file);
        cache = new BufferCache(BufferCacheOptions.of(PAGE, Math.max(8L << 20, 2 * size)), io);
        reader = SSTableReader.open(fs, file, cache, false, IoPurpose.QUERY);
        for (byte[] k : present) {
            if (!reader.mayContain(k, k.length, IoPurpose.QUERY)) {
                throw new IllegalStateException("Bloom filter excluded a key the table holds");
            }
        }
        System.out.printf("%ntable: %,d entries, %,d bytes, %d Bloom pages%n", entries, size,
                reader.metadata().bloomPageCount());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        int maybe = 0;
        for (byte[] k : absent) {
            if (reader.mayContain(k, k.length, IoPurpose.QUERY)) {
                maybe++;
            }
        }
        System.out.printf("%nfalse-positive rate on %,d absent keys: %.2f%%%n", absent.length, 100.0 * maybe / absent.length);
        reader.close();
        cache.close();
        BenchTree.deleteRecursively(dir);
    }

    /** Per-thread random state. */
    @State(Scope.Thread)
    public static class Picker {
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
    public boolean mayContainPresent(Picker p) throws IOException {
        byte[] k = present[p.next(entries)];
        return reader.mayContain(k, k.length, IoPurpose.QUERY);
    }

    @Benchmark
    public boolean mayContainAbsent(Picker p) throws IOException {
        byte[] k = absent[p.next(ABSENT_KEYS)];
        return reader.mayContain(k, k.length, IoPurpose.QUERY);
    }
}
