package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A merge's sequential cursor ({@link SSTableReader#sequentialCursor}) returns what the cached cursor
 * returns, reads each leaf page once in chunks without touching the buffer cache, verifies every page,
 * and frees its off-heap chunk when closed, also when a page is corrupt.
 */
class LeafReadAheadTest {

    private static final int PAGE = SSTableFixture.PAGE;
    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();
    private final Path path = Path.of("/data/ra.sst");
    private TreeMap<byte[], Entry> entries;
    private SSTableMetadata meta;

    @BeforeEach
    void write() throws IOException {
        fs.createDirectories(path.getParent());
        entries = SSTableFixture.randomEntries(new Random(13), 6_000, 24, 120);
        meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(PAGE), io, entries);
    }

    @Test
    void everyChunkSizeReturnsTheTableInOrderAndReadsEachLeafOnceWithoutTheCache() throws IOException {
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            int leaves = r.leafEnd() - r.leafFirst();
            assertTrue(leaves > 40, "a table of many leaves: " + leaves);
            for (int chunk : new int[] {1, 3, 16, 1000}) {
                long pagesBefore = io.snapshot().pagesRead(IoPurpose.MERGE);
                long missesBefore = cache.snapshot().misses(IoPurpose.MERGE);
                long offHeapBefore = OffHeapMemory.reservedBytes();
                try (EntryCursor c = r.sequentialCursor(IoPurpose.MERGE, chunk)) {
                    assertTrue(OffHeapMemory.reservedBytes() > offHeapBefore, "the chunk is accounted off-heap memory");
                    assertSame(entries, drain(c));
                }
                assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "closing the cursor frees its chunk");
                assertEquals(leaves, io.snapshot().pagesRead(IoPurpose.MERGE) - pagesBefore, "each leaf read once, chunk " + chunk);
                assertEquals(missesBefore, cache.snapshot().misses(IoPurpose.MERGE), "the cache is not used");
            }
            assertEquals(0, cache.snapshot().pinnedFrames());
        }
    }

    @Test
    void aCorruptLeafFailsTheScanNamingFileAndPageAndTheChunkIsFreed() throws IOException {
        int leaf = 7;
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read((long) leaf * PAGE + 900, b);
            b.put(0, (byte) (b.get(0) ^ 0x10)).clear();
            f.write((long) leaf * PAGE + 900, b);
        }
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            long offHeapBefore = OffHeapMemory.reservedBytes();
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> {
                try (EntryCursor c = r.sequentialCursor(IoPurpose.MERGE, 4)) {
                    while (c.next()) {
                        // walk into the corrupt leaf's chunk
                    }
                }
            });
            assertEquals(leaf, e.pageNumber());
            assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
            assertEquals(offHeapBefore, OffHeapMemory.reservedBytes());
            // A chunk that starts at the corrupt page fails at once, in the constructor, and frees its chunk too.
            assertThrows(CorruptPageException.class, () -> r.sequentialCursor(IoPurpose.MERGE, leaf + 1).close());
            assertEquals(offHeapBefore, OffHeapMemory.reservedBytes());
        }
    }

    @Test
    void aCursorClosedHalfWayFreesItsChunkAndReturnsNothingMore() throws IOException {
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            long offHeapBefore = OffHeapMemory.reservedBytes();
            EntryCursor c = r.sequentialCursor(IoPurpose.MERGE, 8);
            for (int i = 0; i < 100; i++) {
                assertTrue(c.next());
            }
            c.close();
            assertEquals(offHeapBefore, OffHeapMemory.reservedBytes());
            assertFalse(c.next(), "a closed cursor is done");
            c.close(); // idempotent
            assertEquals(offHeapBefore, OffHeapMemory.reservedBytes());
        }
    }

    private static TreeMap<byte[], Entry> drain(EntryCursor c) throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.model();
        byte[] previous = null;
        while (c.next()) {
            byte[] k = Arrays.copyOf(c.key(), c.keyLength());
            if (previous != null) {
                assertTrue(Arrays.compareUnsigned(previous, k) < 0, "ascending keys");
            }
            previous = k;
            m.put(k, new Entry(c.isTombstone() ? null : Arrays.copyOf(c.value(), c.valueLength())));
        }
        return m;
    }

    private static void assertSame(Map<byte[], Entry> expected, Map<byte[], Entry> actual) {
        assertEquals(expected.size(), actual.size());
        for (var e : expected.entrySet()) {
            Entry a = actual.get(e.getKey());
            assertTrue(a != null, "key present");
            assertEquals(e.getValue().tombstone(), a.tombstone());
            if (!a.tombstone()) {
                assertArrayEquals(e.getValue().value(), a.value());
            }
        }
    }
}
