package dev.breakwater.buffercache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers pin random pages of two files and check every pinned page's content against what was
 * written, while another thread keeps growing and shrinking the cache. Any stale, torn or misplaced
 * frame fails the content check.
 */
class BufferCacheConcurrencyTest {

    private static final int PAGE = 4096;
    private static final int PAGES = 400;

    @TempDir
    Path dir;

    @Test
    void readersSeeCorrectPagesWhileTheCacheIsResized() throws Exception {
        long offHeapBefore = OffHeapMemory.reservedBytes();
        RealFileSystem fs = RealFileSystem.create();
        TestPages.writeFile(fs, dir.resolve("a"), 1, PAGES, PAGE);
        TestPages.writeFile(fs, dir.resolve("b"), 2, PAGES, PAGE);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicLong pins = new AtomicLong();
        AtomicLong resizes = new AtomicLong();
        try (StorageFile a = fs.open(dir.resolve("a"), OpenOption.READ, OpenOption.DIRECT);
             StorageFile b = fs.open(dir.resolve("b"), OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 64L * PAGE).withChunkBytes(8L * PAGE)
                     .withSimulatedCache(256L * PAGE, 4).withPinWait(Duration.ofSeconds(5)), new IoStatistics())) {
            int[] ids = {cache.registerFile(a, "a"), cache.registerFile(b, "b")};
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    OffHeapPage view = new OffHeapPage();
                    try {
                        while (!stop.get()) {
                            int which = rnd.nextInt(2);
                            // Skewed: half the pins go to the first 32 pages, so there are hits too.
                            int page = rnd.nextBoolean() ? rnd.nextInt(32) : rnd.nextInt(PAGES);
                            CachedPage p = cache.pin(ids[which], page, which == 0 ? IoPurpose.QUERY : IoPurpose.MERGE);
                            try {
                                TestPages.check(p, which + 1, page, view);
                            } finally {
                                cache.unpin(p);
                            }
                            pins.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "reader-" + t));
            }
            threads.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(99);
                try {
                    while (!stop.get()) {
                        ResizeResult r = cache.resize((long) (8 + rnd.nextInt(120)) * PAGE);
                        assertTrue(r.capacityBytes() >= 8L * PAGE);
                        resizes.incrementAndGet();
                        Thread.sleep(2);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "resizer"));
            threads.forEach(Thread::start);
            Thread.sleep(3000);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " failures; first: " + failures.peek());
                failures.forEach(e::addSuppressed);
                throw e;
            }
            BufferCacheSnapshot s = cache.snapshot();
            assertEquals(0, s.pinnedFrames(), "no pin leaked");
            assertTrue(pins.get() > 10_000, "pins: " + pins.get());
            assertTrue(resizes.get() > 100, "resizes: " + resizes.get());
            assertTrue(s.totalHits() > 0 && s.totalMisses() > 0, s.toString());
            assertEquals(pins.get(), s.totalHits() + s.totalMisses());
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "off-heap memory back where it was");
    }
}
