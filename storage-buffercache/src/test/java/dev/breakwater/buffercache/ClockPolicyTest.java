package dev.breakwater.buffercache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The clock policy, single-threaded so the hand is deterministic: which frame goes, that reference
 * bits buy a second chance, and that pinned frames are never evicted.
 */
class ClockPolicyTest {

    private static final int PAGE = 4096;

    private final MemFileSystem fs = new MemFileSystem();
    private StorageFile file;
    private BufferCache cache;
    private int fileId;

    @BeforeEach
    void setUp() throws IOException {
        Path path = Path.of("/data/f");
        fs.createDirectories(path.getParent());
        TestPages.writeFile(fs, path, 1, 16, PAGE);
        file = fs.open(path, OpenOption.READ);
        cache = new BufferCache(BufferCacheOptions.of(PAGE, 4L * PAGE).withChunkBytes(PAGE)
                .withSimulatedCache(0, 1).withPinWait(Duration.ofMillis(100)), new IoStatistics());
        fileId = cache.registerFile(file, "f");
    }

    @AfterEach
    void tearDown() throws IOException {
        cache.close();
        file.close();
    }

    private void touch(int page) throws IOException {
        cache.unpin(cache.pin(fileId, page, IoPurpose.QUERY));
    }

    private boolean cached(int page) {
        return cache.isCached(fileId, page);
    }

    @Test
    void whenAllFramesAreReferencedTheHandClearsThemAndEvictsWhereItStarted() throws IOException {
        for (int p = 0; p < 4; p++) {
            touch(p);
        }
        touch(4);
        assertFalse(cached(0), "page 0 sat under the hand after a full sweep");
        for (int p = 1; p <= 4; p++) {
            assertTrue(cached(p), "page " + p);
        }
        assertEquals(1, cache.snapshot().evictions());
    }

    @Test
    void aReferencedPageGetsASecondChance() throws IOException {
        for (int p = 0; p < 4; p++) {
            touch(p);
        }
        touch(4);            // evicts 0, clears the bits of 1..3, hand now at frame 1
        touch(2);            // hit: sets page 2's bit
        touch(5);            // frame 1 (page 1) is unreferenced: evicted
        assertFalse(cached(1));
        touch(6);            // frame 2 (page 2) referenced: spared; frame 3 (page 3) evicted
        assertTrue(cached(2), "referenced page survived");
        assertFalse(cached(3));
        assertEquals(3, cache.snapshot().evictions());
    }

    @Test
    void pinnedFramesAreNeverEvicted() throws IOException {
        List<CachedPage> held = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            held.add(cache.pin(fileId, p, IoPurpose.QUERY));
        }
        for (int p = 3; p < 12; p++) {
            touch(p);   // all churn goes through the one unpinned frame
        }
        for (int p = 0; p < 3; p++) {
            assertTrue(cached(p), "pinned page " + p + " stayed");
        }
        assertEquals(8, cache.snapshot().evictions());
        held.forEach(cache::unpin);
    }

    @Test
    void everyFramePinnedFailsWithAClearExceptionInsteadOfHanging() throws IOException {
        List<CachedPage> held = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            held.add(cache.pin(fileId, p, IoPurpose.QUERY));
        }
        BufferCacheFullException e = assertThrows(BufferCacheFullException.class, () -> cache.pin(fileId, 9, IoPurpose.QUERY));
        assertTrue(e.getMessage().contains("all 4 frames"), e.getMessage());
        assertEquals(1, cache.snapshot().pinTimeouts());
        held.forEach(cache::unpin);
        touch(9); // works again once a frame is free
        assertTrue(cached(9));
    }

    @Test
    void hitsAndMissesAreCountedByPurpose() throws IOException {
        touch(0);
        cache.unpin(cache.pin(fileId, 0, IoPurpose.MERGE));
        cache.unpin(cache.pin(fileId, 1, IoPurpose.MERGE));
        BufferCacheSnapshot s = cache.snapshot();
        assertEquals(1, s.misses(IoPurpose.QUERY));
        assertEquals(0, s.hits(IoPurpose.QUERY));
        assertEquals(1, s.hits(IoPurpose.MERGE));
        assertEquals(1, s.misses(IoPurpose.MERGE));
        assertEquals(3, s.pins(IoPurpose.QUERY) + s.pins(IoPurpose.MERGE));
    }

    @Test
    void unpinningAPageThatIsNotPinnedIsAnError() throws IOException {
        CachedPage p = cache.pin(fileId, 0, IoPurpose.QUERY);
        cache.unpin(p);
        assertThrows(IllegalStateException.class, () -> cache.unpin(p));
    }
}
