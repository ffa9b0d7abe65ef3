package dev.breakwater.buffercache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The ghost list: scripted access patterns with hand-computed saved-read counts. */
class SimulatedCacheTest {

    private static final int PAGE = 4096;

    @Test
    void scriptedPatternGivesExactSavedReadsByPurpose() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Path path = Path.of("/f");
        TestPages.writeFile(fs, path, 7, 8, PAGE);
        IoStatistics io = new IoStatistics();
        // Two frames; a ghost list of exactly two page ids, one stripe (global FIFO).
        try (StorageFile file = fs.open(path, OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 2L * PAGE).withChunkBytes(PAGE)
                     .withSimulatedCache(2L * PAGE, 1), io)) {
            int id = cache.registerFile(file, "f");
            // Clock trace (frames a, b):
            //  0,1 fill a,b. 2: sweep clears a,b, evicts 0 (ghost [0]). 3: evicts 1 (ghost [0,1]).
            //  0: miss, ghost hit (saved_q=1); evicts 2 (ghost [1,2]).
            //  1 (merge): miss, ghost hit (saved_m=1); evicts 3 (ghost [2,3]).
            //  4: miss, not in ghost; evicts 0 (ghost [3,0]: 2 falls out).
            //  2: miss, no longer in ghost; evicts 1 (ghost [0,1]).
            //  3 (merge): miss, 3 fell out: not saved.
            int[] pages = {0, 1, 2, 3, 0, 1, 4, 2, 3};
            IoPurpose[] purposes = {IoPurpose.QUERY, IoPurpose.QUERY, IoPurpose.QUERY, IoPurpose.QUERY, IoPurpose.QUERY,
                    IoPurpose.MERGE, IoPurpose.QUERY, IoPurpose.QUERY, IoPurpose.MERGE};
            for (int i = 0; i < pages.length; i++) {
                cache.unpin(cache.pin(id, pages[i], purposes[i]));
            }
            BufferCacheSnapshot s = cache.snapshot();
            assertEquals(1, s.saved(IoPurpose.QUERY));
            assertEquals(1, s.saved(IoPurpose.MERGE));
            assertEquals(7, s.misses(IoPurpose.QUERY));
            assertEquals(2, s.misses(IoPurpose.MERGE));
            assertEquals(0, s.totalHits());
            assertEquals(2, s.simulatedCapacityPages());
            assertEquals(9, io.snapshot().pagesRead(IoPurpose.QUERY) + io.snapshot().pagesRead(IoPurpose.MERGE));
        }
    }

    @Test
    void listKeepsCapacityLiveIdsAndDropsTheOldest() {
        SimulatedCache ghost = new SimulatedCache(3, 1);
        ghost.recordEviction(1);
        ghost.recordEviction(2);
        assertTrue(ghost.consumeIfPresent(1)); // [2]: the consumed id frees its slot
        ghost.recordEviction(1);               // [2, 1]
        ghost.recordEviction(3);               // [2, 1, 3]: the freed slot took it, nothing fell out
        assertEquals(3, ghost.size());
        ghost.recordEviction(4);               // [1, 3, 4]: full, so the oldest (2) falls out
        assertFalse(ghost.consumeIfPresent(2), "2 was the oldest");
        assertTrue(ghost.consumeIfPresent(1));
        assertTrue(ghost.consumeIfPresent(3));
        assertTrue(ghost.consumeIfPresent(4));
        assertFalse(ghost.consumeIfPresent(4), "consumed ids are forgotten");
        assertEquals(0, ghost.size());
    }

    @Test
    void consumedIdsDoNotHoldSlots() {
        SimulatedCache ghost = new SimulatedCache(2, 1);
        ghost.recordEviction(1);
        ghost.recordEviction(2);
        assertTrue(ghost.consumeIfPresent(2));
        ghost.recordEviction(3);               // [1, 3]: 1 is still among the 2 newest live ids
        assertTrue(ghost.consumeIfPresent(1));
    }

    @Test
    void zeroCapacityDisablesTheGhostList() {
        SimulatedCache ghost = new SimulatedCache(0, 4);
        ghost.recordEviction(5);
        assertFalse(ghost.consumeIfPresent(5));
    }
}
