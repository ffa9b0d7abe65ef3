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
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The footer's SSTable format version decides how leaves are decoded: version 2 (the dense leaf)
 * is written by default; version-1 files, written here through the writer's legacy path as an
 * older build wrote them, are still read in full (lookups, forward, reverse and read-ahead scans);
 * any other version is refused at open with a message naming the file, the version and the
 * versions this build reads.
 */
class SSTableFormatVersionTest {

    private static final int PAGE = SSTableFixture.PAGE;
    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();

    private TreeMap<byte[], Entry> entries() {
        return SSTableFixture.randomEntries(new Random(21), 6_000, 24, 60);
    }

    @Test
    void versionTwoIsWrittenByDefaultAndIsDenser() throws IOException {
        fs.createDirectories(Path.of("/d"));
        TreeMap<byte[], Entry> entries = entries();
        for (Compression c : Compression.values()) {
            SSTableOptions options = SSTableOptions.defaults(PAGE).withCompression(c);
            SSTableMetadata v2 = SSTableFixture.write(fs, Path.of("/d/v2-" + c + ".sst"), options, io, entries);
            SSTableMetadata v1 = writeV1(Path.of("/d/v1-" + c + ".sst"), options, entries);
            assertEquals(SSTableFormat.CURRENT_VERSION, v2.formatVersion());
            assertEquals(2, SSTableFormat.CURRENT_VERSION);
            assertEquals(SSTableFormat.LEGACY_VERSION_1, v1.formatVersion());
            try (BufferCache cache = SSTableFixture.cache(1 << 20, io);
                 SSTableReader r = SSTableReader.open(fs, Path.of("/d/v2-" + c + ".sst"), cache, false, IoPurpose.QUERY)) {
                assertEquals(SSTableFormat.CURRENT_VERSION, r.metadata().formatVersion());
                assertReadsAll(r, entries);
            }
            assertTrue(v2.leafPageCount() < v1.leafPageCount(), c + ": v2 " + v2.leafPageCount() + " leaves, v1 " + v1.leafPageCount());
        }
    }

    @Test
    void versionOneFilesAreStillRead() throws IOException {
        fs.createDirectories(Path.of("/d"));
        TreeMap<byte[], Entry> entries = entries();
        for (Compression c : Compression.values()) {
            Path path = Path.of("/d/v1-" + c + ".sst");
            writeV1(path, SSTableOptions.defaults(PAGE).withCompression(c), entries);
            try (BufferCache cache = SSTableFixture.cache(1 << 20, io);
                 SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
                assertEquals(SSTableFormat.LEGACY_VERSION_1, r.metadata().formatVersion());
                assertTrue(r.metadata().leafPageCount() > 1);
                assertReadsAll(r, entries);
            }
        }
    }

    @Test
    void unknownVersionsAreRefusedWithAClearMessage() throws IOException {
        fs.createDirectories(Path.of("/d"));
        Path path = Path.of("/d/t.sst");
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(PAGE), io, entries());
        for (int version : new int[] {0, 3, 99, -1}) {
            setFooterVersion(path, meta, version);
            try (BufferCache cache = SSTableFixture.cache(1 << 20, io)) {
                CorruptPageException e = assertThrows(CorruptPageException.class,
                        () -> SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY));
                assertEquals(meta.footerPage(), e.pageNumber());
                String m = e.getMessage();
                assertTrue(m.contains(path.toString()), m);
                assertTrue(m.contains("unsupported SSTable format version " + version), m);
                assertTrue(m.contains("reads versions 1, 2"), m);
                assertEquals(0, cache.snapshot().pinnedFrames());
            }
        }
        setFooterVersion(path, meta, SSTableFormat.CURRENT_VERSION); // the same bytes read again once the version is known
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io);
             SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            assertEquals(meta, r.metadata());
        }
    }

    @Test
    void readableVersions() {
        assertTrue(SSTableFormat.isReadable(1));
        assertTrue(SSTableFormat.isReadable(2));
        assertFalse(SSTableFormat.isReadable(0));
        assertFalse(SSTableFormat.isReadable(3));
    }

    @Test
    void theWriterWritesNoUnknownVersion() throws IOException {
        fs.createDirectories(Path.of("/d"));
        Path path = Path.of("/d/x.sst");
        assertThrows(IllegalArgumentException.class, () -> SSTableWriter.createWithFormatVersion(fs, path,
                SSTableOptions.defaults(PAGE), io, IoPurpose.FLUSH, 3));
        assertFalse(fs.exists(path), "no file left behind");
    }

    private SSTableMetadata writeV1(Path path, SSTableOptions options, Map<byte[], Entry> entries) throws IOException {
        try (SSTableWriter w = SSTableWriter.createWithFormatVersion(fs, path, options, io, IoPurpose.FLUSH,
                SSTableFormat.LEGACY_VERSION_1)) {
            for (Map.Entry<byte[], Entry> e : entries.entrySet()) {
                byte[] v = e.getValue().tombstone() ? new byte[0] : e.getValue().value();
                w.add(e.getKey(), e.getKey().length, v, v.length, e.getValue().tombstone());
            }
            return w.finish(100, 200);
        }
    }

    /** Rewrites the footer's version field, its metadata CRC and the page checksum. */
    private void setFooterVersion(Path path, SSTableMetadata meta, int version) throws IOException {
        long base = (long) meta.footerPage() * PAGE;
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer page = ByteBuffer.allocate(PAGE).order(ByteOrder.LITTLE_ENDIAN);
            f.read(base, page);
            page.putInt(FooterDescriptor.FORMAT_VERSION_OFFSET, version);
            int crcAt = FooterDescriptor.metadataCrcOffset(page.getInt(FooterDescriptor.FIRST_KEY_LENGTH_OFFSET),
                    page.getInt(FooterDescriptor.LAST_KEY_LENGTH_OFFSET));
            CRC32C crc = new CRC32C();
            crc.update(page.array(), PageDescriptor.HEADER_LENGTH, crcAt - PageDescriptor.HEADER_LENGTH);
            page.putInt(crcAt, (int) crc.getValue());
            page.clear();
            PageChecksum.seal(page, PAGE);
            page.clear();
            f.write(base, page);
        }
    }

    private static void assertReadsAll(SSTableReader r, TreeMap<byte[], Entry> entries) throws IOException {
        ValueHolder out = new ValueHolder();
        for (Map.Entry<byte[], Entry> e : entries.entrySet()) {
            SSTableFixture.assertGet(r, e.getKey(), e.getValue(), out);
        }
        scan(r.cursor(null, 0, IoPurpose.QUERY), entries.entrySet());
        scan(r.reverseCursor(null, 0, IoPurpose.QUERY), entries.descendingMap().entrySet());
        scan(r.sequentialCursor(IoPurpose.MERGE, 3), entries.entrySet());
        byte[] middle = entries.keySet().stream().skip(entries.size() / 2).findFirst().orElseThrow();
        scan(r.cursor(middle, middle.length, IoPurpose.QUERY), entries.tailMap(middle, true).entrySet());
        scan(r.reverseCursor(middle, middle.length, IoPurpose.QUERY), entries.headMap(middle, false).descendingMap().entrySet());
    }

    private static void scan(EntryCursor c, Iterable<Map.Entry<byte[], Entry>> expected) throws IOException {
        try (c) {
            for (Map.Entry<byte[], Entry> e : expected) {
                assertTrue(c.next());
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                if (!e.getValue().tombstone()) {
                    assertArrayEquals(e.getValue().value(), Arrays.copyOf(c.value(), c.valueLength()));
                }
            }
            assertFalse(c.next());
        }
    }
}
