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
import java.util.SplittableRandom;
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
 * Measures the buffer cache's miss path in pages per second: every {@link BufferCache#pin} misses, so
 * each operation is a clock eviction, a page-table update, a 16 KiB positional read into the frame, a
 * CRC32C verification of the page, and the unpin.
 *
 * <p>How: the trial writes a file of {@link #fileMiB} MiB of sealed pages and opens it with or
 * without {@link OpenOption#DIRECT} ({@link #direct}); the cache holds only {@link #cacheMiB} MiB. The
 * pages are visited in a fixed order that is either sequential or a random permutation
 * ({@link #order}), cycled; every page is revisited only after all others, so with a cache much
 * smaller than the file no pin can hit. Each thread walks the order from its own start
 * ({@code threadIndex * pages / threadCount}). The trial tear-down fails the run if any pin hit.
 *
 * <p>With {@code direct=false} the file stays in the operating system's page cache after it is
 * written (this machine has far more RAM than the file), so the score is the cost of the cache's miss
 * path plus a memory copy from the page cache, not of the disk. With {@code direct=true} every read
 * goes to the device; a direct open that silently falls back to buffered I/O fails the setup.
 *
 * <p>The JVM options of {@code bin/jvm-options} are appended to the fork (Chronicle-Bytes needs them
 * on Java 17); a test checks that both lists stay the same.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
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
public class MissPathBenchmark {

    /** Bytes per page (the engine's default page size). */
    static final int PAGE_SIZE = 16 * 1024;

    /** Read with O_DIRECT (true) or through the operating system's page cache (false). */
    @Param({"true", "false"})
    public boolean direct;

    /** Order of page numbers: {@code sequential} (0, 1, 2, ...) or {@code random} (a fixed random permutation). */
    @Param({"random", "sequential"})
    public String order;

    /** Size of the page file. */
    @Param({"128"})
    public int fileMiB;

    /** Size of the buffer cache; must be well below {@link #fileMiB} so every pin misses. */
    @Param({"4"})
    public int cacheMiB;

    BufferCache cache;
    int fileId;
    /** The page numbers in visiting order. */
    int[] visit;
    private Path dir;
    private StorageFile file;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        long fileBytes = (long) fileMiB << 20;
        long cacheBytes = (long) cacheMiB << 20;
        if (cacheBytes * 4 > fileBytes) {
            throw new IllegalArgumentException("cache of " + cacheMiB + " MiB is not much smaller than the file of "
                    + fileMiB + " MiB: pins would hit");
        }
        int pages = (int) (fileBytes / PAGE_SIZE);
        visit = visitOrder(order, pages);
        dir = PageFiles.newDirectory("miss-path-");
        try {
            FileSystem fs = RealFileSystem.create();
            Path path = dir.resolve("pages.dat");
            PageFiles.write(fs, path, pages, PAGE_SIZE);
            file = direct ? fs.open(path, OpenOption.READ, OpenOption.DIRECT) : fs.open(path, OpenOption.READ);
            if (file.isDirect() != direct) {
                throw new IllegalStateException("asked for direct=" + direct + " but the file is direct=" + file.isDirect()
                        + " (is O_DIRECT supported on " + dir + "?)");
            }
            // Small chunks so the capacity is exact; the default ghost list, as in the engine.
            BufferCacheOptions options = BufferCacheOptions.of(PAGE_SIZE, cacheBytes).withChunkBytes(256 * 1024);
            cache = new BufferCache(options, new IoStatistics());
            fileId = cache.registerFile(file, path.toString());
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

    static int[] visitOrder(String order, int pages) {
        int[] v = new int[pages];
        for (int i = 0; i < pages; i++) {
            v[i] = i;
        }
        switch (order) {
            case "sequential" -> {
            }
            case "random" -> {
                SplittableRandom random = new SplittableRandom(42);
                for (int i = pages - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int t = v[i];
                    v[i] = v[j];
                    v[j] = t;
                }
            }
            default -> throw new IllegalArgumentException("order must be sequential or random, got " + order);
        }
        return v;
    }

    /** Checks that no measured pin hit, then frees the cache and deletes the file. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            BufferCacheSnapshot s = cache.snapshot();
            if (s.totalHits() != 0) {
                throw new IllegalStateException(s.totalHits() + " of " + (s.totalHits() + s.totalMisses())
                        + " pins hit: the benchmark did not measure the miss path only");
            }
        } finally {
            release();
        }
    }

    /** Frees whatever set-up created. */
    private void release() throws IOException {
        PageFiles.release(cache, file, dir);
    }

    /** One thread's position in the visiting order. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        @Setup(Level.Trial)
        public void setUp(MissPathBenchmark bench, ThreadParams threads) {
            start(bench, threads.getThreadIndex(), threads.getThreadCount());
        }

        void start(MissPathBenchmark bench, int threadIndex, int threadCount) {
            next = (int) ((long) threadIndex * bench.visit.length / threadCount);
        }
    }

    /** Pin (a miss: evict, read, verify) and unpin of the next page in the visiting order. */
    @Benchmark
    public long missPinUnpin(Cursor cursor) throws IOException {
        int i = cursor.next;
        int[] v = visit;
        cursor.next = i + 1 == v.length ? 0 : i + 1;
        CachedPage page = cache.pin(fileId, v[i], IoPurpose.QUERY);
        long address = page.address();
        cache.unpin(page);
        return address;
    }
}
