package dev.breakwater.bench.buffercache;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.buffercache.CachedPage;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Measures the buffer cache's hit path: one {@link BufferCache#pin} of a page that is already cached
 * followed by its {@link BufferCache#unpin}.
 *
 * <p>How: the trial writes a file of {@link #pages} sealed pages, registers it, and pins and unpins
 * every page once, so all of them sit in the cache (its capacity is twice the page count, so nothing
 * is ever evicted). Each benchmark thread then cycles through the pages with its own cursor, starting
 * at {@code threadIndex * pages / threadCount} so that concurrent threads touch different frames (no
 * contention on one pin count; they still share the page table and the hit counters). One operation
 * is one pin plus one unpin; the method returns the page's address so the pin cannot be optimized
 * away. The trial tear-down fails the run if any pin missed, so the score is a pure hit-path number.
 *
 * <p>{@link #pinUnpin} reports the average time per operation in ns; {@link #pinUnpinThroughput}
 * runs the same body and reports operations per microsecond (per all threads). Run with {@code -t 1}
 * and {@code -t 2}, and with {@code -prof gc} to see the allocation rate, which should be 0 B/op.
 *
 * <p>The JVM options of {@code bin/jvm-options} are appended to the fork (Chronicle-Bytes needs them
 * on Java 17); a test checks that both lists stay the same.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens", "java.base/java.io=ALL-UNNAMED",
        "--add-opens", "java.base/java.util=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class PinUnpinBenchmark {

    /** Bytes per page (the engine's default page size). */
    static final int PAGE_SIZE = 16 * 1024;

    /** Number of cached pages cycled through; a power of two so the cursor wraps with a mask. */
    @Param({"1024"})
    public int pages;

    BufferCache cache;
    int fileId;
    private Path dir;
    private StorageFile file;

    /** Writes the file, fills the cache with all of its pages. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (pages <= 0 || Integer.bitCount(pages) != 1) {
            throw new IllegalArgumentException("pages must be a power of two, got " + pages);
        }
        dir = PageFiles.newDirectory("pin-unpin-");
        try {
            FileSystem fs = RealFileSystem.create();
            Path path = dir.resolve("pages.dat");
            PageFiles.write(fs, path, pages, PAGE_SIZE);
            file = fs.open(path, OpenOption.READ);
            // Twice the pages, so the clock never has to evict; no ghost list, it only matters on misses.
            BufferCacheOptions options = BufferCacheOptions.of(PAGE_SIZE, 2L * pages * PAGE_SIZE)
                    .withSimulatedCache(0, 1);
            cache = new BufferCache(options, new IoStatistics());
            fileId = cache.registerFile(file, path.toString());
            for (int p = 0; p < pages; p++) {
                cache.unpin(cache.pin(fileId, p, IoPurpose.QUERY));
            }
        } catch (Throwable t) {
            // JMH skips the tear-down when set-up fails (for example an Error from Chronicle when the
            // fork lacks the JVM options): do not leave the file behind.
            try {
                release();
            } catch (IOException | RuntimeException r) {
                t.addSuppressed(r);
            }
            throw t;
        }
    }

    /** Checks that every measured pin was a hit, then frees the cache and deletes the file. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            BufferCacheSnapshot s = cache.snapshot();
            if (s.totalMisses() != pages) {
                throw new IllegalStateException("expected only the " + pages + " warm-up misses, saw "
                        + s.totalMisses() + ": the benchmark did not measure the hit path");
            }
        } finally {
            release();
        }
    }

    /** Frees whatever set-up created. */
    private void release() throws IOException {
        PageFiles.release(cache, file, dir);
    }

    /** One thread's position in the page cycle. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
        int mask;

        @Setup(Level.Trial)
        public void setUp(PinUnpinBenchmark bench, ThreadParams threads) {
            start(bench, threads.getThreadIndex(), threads.getThreadCount());
        }

        /** Spreads the threads' starting pages evenly over the cycle. */
        void start(PinUnpinBenchmark bench, int threadIndex, int threadCount) {
            mask = bench.pages - 1;
            next = (int) ((long) threadIndex * bench.pages / threadCount);
        }
    }

    /** Pin and unpin of the cursor's next page; average time per operation. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long pinUnpin(Cursor cursor) throws IOException {
        return pinUnpinOnce(cursor);
    }

    /** The same operation as {@link #pinUnpin}, reported as operations per microsecond. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long pinUnpinThroughput(Cursor cursor) throws IOException {
        return pinUnpinOnce(cursor);
    }

    private long pinUnpinOnce(Cursor cursor) throws IOException {
        int pageNo = cursor.next;
        cursor.next = (pageNo + 1) & cursor.mask;
        CachedPage page = cache.pin(fileId, pageNo, IoPurpose.QUERY);
        long address = page.address();
        cache.unpin(page);
        return address;
    }
}
