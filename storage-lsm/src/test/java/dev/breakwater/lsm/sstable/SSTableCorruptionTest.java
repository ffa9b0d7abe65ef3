package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SSTableCorruptionTest {

    private static final int PAGE = SSTableFixture.PAGE;
    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();
    private final Path path = Path.of("/data/c.sst");
    private TreeMap<byte[], Entry> entries;
    private SSTableMetadata meta;

    @BeforeEach
    void write() throws IOException {
        fs.createDirectories(path.getParent());
        entries = SSTableFixture.randomEntries(new Random(5), 5_000, 20, 60);
        entries.replaceAll((k, v) -> v.tombstone() ? new Entry(new byte[] {1}) : v);
        meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(PAGE), io, entries);
    }

    private void flipByte(long position) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read(position, b);
            b.flip();
            b.put(0, (byte) (b.get(0) ^ 0x40));
            f.write(position, b);
        }
    }

    @Test
    void corruptLeafPageFailsLookupNamingFileAndPage() throws IOException {
        int leaf = 3;
        flipByte((long) leaf * PAGE + 1000);
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            int failures = 0;
            for (byte[] k : entries.keySet()) {
                try {
                    r.get(k, k.length, new ValueHolder(), IoPurpose.QUERY);
                } catch (CorruptPageException e) {
                    failures++;
                    assertEquals(leaf, e.pageNumber());
                    assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
                    assertTrue(e.getMessage().contains("page " + leaf), e.getMessage());
                }
            }
            assertTrue(failures > 0, "some key lives in the corrupt leaf");
            assertEquals(0, cache.snapshot().pinnedFrames());
            CorruptPageException scan = assertThrows(CorruptPageException.class, () -> {
                try (EntryCursor c = r.cursor(null, 0, IoPurpose.QUERY)) {
                    while (c.next()) {
                        // walk into the corrupt leaf
                    }
                }
            });
            assertEquals(leaf, scan.pageNumber());
        }
    }

    @Test
    void corruptFooterFailsOpen() throws IOException {
        flipByte((long) meta.footerPage() * PAGE + 40);
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
            assertEquals(meta.footerPage(), e.pageNumber());
            assertTrue(e.getMessage().contains(path.toString()));
        }
    }

    @Test
    void fileCutAtAPageBoundaryHasNoFooter() throws IOException {
        truncate((long) (meta.pageCount() - 1) * PAGE);
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains("not the FOOTER"), e.getMessage());
            assertTrue(e.getMessage().contains(path.toString()));
        }
    }

    @Test
    void fileCutMidPageIsRejected() throws IOException {
        truncate((long) meta.pageCount() * PAGE - 100);
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
            CorruptSSTableException e = assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
            assertEquals(path, e.file());
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
    }

    @Test
    void emptyFileIsRejected() throws IOException {
        truncate(0);
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
            assertThrows(CorruptSSTableException.class, () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
            assertEquals(0, cache.snapshot().pinnedFrames());
        }
    }

    @Test
    void pageOfZerosAfterTheFooterIsRejected() throws IOException {
        // The last page is then not a valid footer: the open names the file and fails cleanly.
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.append(ByteBuffer.allocate(PAGE));
        }
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
            IOException e = assertThrows(IOException.class, () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
        }
    }

    private void truncate(long size) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.truncate(size);
        }
    }
}
