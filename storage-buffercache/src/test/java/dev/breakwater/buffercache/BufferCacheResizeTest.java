package dev.breakwater.buffercache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Growing, shrinking, shrinking past pinned frames, and exact off-heap accounting. */
class BufferCacheResizeTest {

    private static final int PAGE = 4096;

    @Test
    void growAndShrinkAdjustCapacityAndReturnMemory() throws IOException {
        long before = OffHeapMemory.reservedBytes();
        MemFileSystem fs = new MemFileSystem();
        TestPages.writeFile(fs, Path.of("/f"), 1, 64, PAGE);
        try (StorageFile file = fs.open(Path.of("/f"), OpenOption.READ)) {
            BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 16L * PAGE).withChunkBytes(4L * PAGE), new IoStatistics());
            long afterOpen = OffHeapMemory.reservedBytes();
            assertEquals(4 * (4L * PAGE + OffHeapArena.ALIGNMENT), afterOpen - before, "four chunks of four frames");
            int id = cache.registerFile(file, "f");
            for (int p = 0; p < 16; p++) {
                cache.unpin(cache.pin(id, p, IoPurpose.QUERY));
            }
            ResizeResult grown = cache.resize(32L * PAGE);
            assertEquals(32L * PAGE, grown.capacityBytes());
            assertTrue(grown.complete());
            for (int p = 0; p < 16; p++) {
                assertTrue(cache.isCached(id, p), "growing keeps cached pages");
            }
            ResizeResult shrunk = cache.resize(8L * PAGE);
            assertEquals(8L * PAGE, shrunk.capacityBytes());
            assertEquals(8, cache.frameCount());
            assertEquals(2 * (4L * PAGE + OffHeapArena.ALIGNMENT), OffHeapMemory.reservedBytes() - before,
                    "exactly two chunks' arenas remain after the shrink");
            int cached = 0;
            for (int p = 0; p < 16; p++) {
                cached += cache.isCached(id, p) ? 1 : 0;
            }
            assertTrue(cached <= 8, "at most 8 pages fit after the shrink: " + cached);
            assertTrue(cache.snapshot().evictions() >= 8);
            // Requests that are not whole chunks round down, to at least one chunk.
            assertEquals(4L * PAGE, cache.resize(6L * PAGE).capacityBytes());
            assertEquals(4L * PAGE, cache.resize(1).capacityBytes());
            cache.close();
            cache.close(); // idempotent
        }
        assertEquals(before, OffHeapMemory.reservedBytes(), "every byte released at close");
    }

    @Test
    void shrinkBlockedByPinnedFramesWaitsThenReportsHowFarItGot() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        TestPages.writeFile(fs, Path.of("/f"), 1, 64, PAGE);
        try (StorageFile file = fs.open(Path.of("/f"), OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 12L * PAGE).withChunkBytes(4L * PAGE)
                     .withPinWait(Duration.ofMillis(50)), new IoStatistics())) {
            int id = cache.registerFile(file, "f");
            for (int p = 0; p < 12; p++) {
                cache.unpin(cache.pin(id, p, IoPurpose.QUERY));
            }
            // Page 4 lives in the middle chunk (slots 4..7) on a fresh cache: the hand fills slots in order.
            CachedPage held = cache.pin(id, 4, IoPurpose.QUERY);
            ResizeResult r = cache.resize(4L * PAGE);
            assertFalse(r.complete());
            assertEquals(8L * PAGE, r.capacityBytes(), "the last chunk went, the pinned middle chunk stayed");
            assertTrue(cache.isCached(id, 4), "the pinned page is untouched");
            cache.unpin(held);
            ResizeResult again = cache.resize(4L * PAGE);
            assertTrue(again.complete());
            assertEquals(4L * PAGE, again.capacityBytes());
            // The cache still works after partial and complete shrinks.
            for (int p = 20; p < 40; p++) {
                cache.unpin(cache.pin(id, p, IoPurpose.QUERY));
            }
        }
    }
}
