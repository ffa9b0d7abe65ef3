package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A leaf that passes its page checksum but is malformed is refused with
 * {@link CorruptPageException} naming the file, the page and what is wrong, never an unchecked
 * exception or a read outside the body: slots outside the entries, varints that run past the body,
 * are longer than 5 bytes or overflow 32 bits, key or value lengths past the body end, and counts
 * that cannot fit, in version-2 bodies (and the version-1 checks that still apply); then the same
 * through {@link SSTableReader} for a plain and an LZ4 leaf page of a real file.
 */
class LeafCorruptionTest {

    private static final int V2 = SSTableFormat.CURRENT_VERSION;
    private static final String FILE = "/data/bad.sst";
    private static final int PAGE_NO = 7;

    /**
     * A valid version-2 body with 2-byte slots: three entries with keys "a", "bb", "ccc", values of
     * 3, 0 (tombstone) and 5 bytes.
     */
    private static byte[] valid() {
        ByteArrayOutputStream entries = new ByteArrayOutputStream();
        int[] starts = new int[3];
        byte[][] keys = {{'a'}, {'b', 'b'}, {'c', 'c', 'c'}};
        int[] values = {3, 0, 5};
        boolean[] tombstones = {false, true, false};
        int slotsEnd = 2 + 2 * 3;
        for (int i = 0; i < 3; i++) {
            starts[i] = slotsEnd + entries.size();
            entries.write(keys[i].length);
            entries.write(values[i] << 1 | (tombstones[i] ? 1 : 0));
            entries.writeBytes(keys[i]);
            entries.writeBytes(new byte[values[i]]);
        }
        ByteBuffer b = ByteBuffer.allocate(slotsEnd + entries.size()).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 3);
        for (int s : starts) {
            b.putShort((short) s);
        }
        b.put(entries.toByteArray());
        return b.array();
    }

    private static final int ENTRY0 = 8;   // key-length varint of entry 0 ("a", 3-byte value)
    private static final int ENTRY1 = 14;  // entry 1 ("bb", tombstone)
    private static final int ENTRY2 = 18;  // entry 2 ("ccc", 5-byte value); the body ends at 28

    private static LeafView view(byte[] body, int length, int version) throws CorruptPageException {
        return new LeafView().wrapHeap(body, length, version, FILE, PAGE_NO);
    }

    /** Decodes every entry and searches for every key, as lookups and scans do. */
    private static void readAll(byte[] body, int version) throws CorruptPageException {
        LeafView v = view(body, body.length, version);
        for (int i = 0; i < v.count(); i++) {
            v.entry(i);
        }
        v.find(new byte[] {'b', 'b'}, 2);
        v.lowerBound(new byte[] {'z'}, 1);
    }

    private static void assertCorrupt(String expected, Executable read) {
        CorruptPageException e = assertThrows(CorruptPageException.class, read);
        assertEquals(PAGE_NO, e.pageNumber());
        assertEquals(FILE, e.file());
        assertTrue(e.getMessage().contains(FILE) && e.getMessage().contains("page " + PAGE_NO), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }

    @Test
    void theValidBodyReads() throws CorruptPageException {
        byte[] body = valid();
        assertEquals(ENTRY2 + 2 + 3 + 5, body.length);
        LeafView v = view(body, body.length, V2);
        assertEquals(3, v.count());
        v.entry(1);
        assertEquals(ENTRY1 + 2, v.keyOffset());
        assertTrue(v.isTombstone());
        assertEquals(2, v.find(new byte[] {'c', 'c', 'c'}, 3));
        assertEquals(5, v.valueLength());
        assertEquals(ENTRY2 + 2 + 3, v.valueOffset());
        readAll(body, V2);
    }

    @Test
    void slotPointingPastTheBody() {
        byte[] body = valid();
        putShort(body, 2 + 2 * 1, body.length + 40);
        assertCorrupt("leaf slot 1 points at offset " + (body.length + 40) + ", outside the entries", () -> readAll(body, V2));
    }

    @Test
    void slotPointingIntoTheSlotArray() {
        byte[] body = valid();
        putShort(body, 2, 3);
        assertCorrupt("leaf slot 0 points at offset 3, outside the entries at [8, 28)", () -> readAll(body, V2));
    }

    @Test
    void slotLeavingNoRoomForAHeader() {
        byte[] body = valid();
        putShort(body, 2 + 2 * 2, body.length - 1);
        assertCorrupt("leaf slot 2 points at offset " + (body.length - 1), () -> readAll(body, V2));
    }

    @Test
    void varintRunningPastTheBody() {
        byte[] body = valid();
        putShort(body, 2 + 2 * 2, body.length - 2);
        body[body.length - 2] = (byte) 0x81;
        body[body.length - 1] = (byte) 0x80;
        assertCorrupt("leaf entry 2: the key length varint at offset " + (body.length - 2) + " runs past the body of 28 bytes",
                () -> readAll(body, V2));
        byte[] value = valid();
        putShort(value, 2 + 2 * 2, value.length - 2);
        value[value.length - 2] = 0;            // key length 0
        value[value.length - 1] = (byte) 0x80;  // the value length goes on past the end
        assertCorrupt("leaf entry 2: the value length varint at offset " + (value.length - 1) + " runs past the body",
                () -> readAll(value, V2));
    }

    @Test
    void varintLongerThanFiveBytes() {
        byte[] body = valid();
        Arrays.fill(body, ENTRY0, ENTRY0 + 5, (byte) 0x80);
        body[ENTRY0 + 5] = 0;
        assertCorrupt("leaf entry 0: the key length varint at offset 8 is longer than 5 bytes", () -> readAll(body, V2));
        byte[] value = valid();
        value[ENTRY2] = 0;
        Arrays.fill(value, ENTRY2 + 1, ENTRY2 + 7, (byte) 0xFF);
        assertCorrupt("leaf entry 2: the value length varint at offset 19 is longer than 5 bytes", () -> readAll(value, V2));
    }

    @Test
    void varintOverflowingThirtyTwoBits() {
        byte[] body = valid();
        Arrays.fill(body, ENTRY0, ENTRY0 + 4, (byte) 0x80);
        body[ENTRY0 + 4] = 0x10; // bit 32
        assertCorrupt("leaf entry 0: the key length varint at offset 8 overflows 32 bits", () -> readAll(body, V2));
    }

    @Test
    void keyLengthPastTheBodyEnd() {
        byte[] body = valid();
        body[ENTRY1] = 20; // "bb" claims 20 bytes: 14 + 2 + 20 > 28
        assertCorrupt("leaf entry 1 at offset 14 (key 20, value 0 bytes) runs past the body of 28 bytes", () -> readAll(body, V2));
        byte[] huge = valid();
        huge[ENTRY0] = (byte) 0xFF;
        huge[ENTRY0 + 1] = (byte) 0xFF;
        huge[ENTRY0 + 2] = (byte) 0xFF;
        huge[ENTRY0 + 3] = (byte) 0xFF;
        huge[ENTRY0 + 4] = 0x0F; // 2^32 - 1: negative as an int
        assertCorrupt("leaf entry 0 at offset 8 (key 4294967295, value", () -> readAll(huge, V2));
    }

    @Test
    void valueLengthPastTheBodyEnd() {
        byte[] body = valid();
        body[ENTRY2 + 1] = 6 << 1; // "ccc" claims 6 value bytes, 5 remain
        assertCorrupt("leaf entry 2 at offset 18 (key 3, value 6 bytes) runs past the body of 28 bytes", () -> readAll(body, V2));
        byte[] tombstone = valid();
        tombstone[ENTRY1 + 1] = (byte) 0xFF; // a tombstone flag with a two-byte length of 63 + ...
        tombstone[ENTRY1 + 2] = 0x01;        // (overwrites the key's first byte; the varint ends there)
        assertCorrupt("leaf entry 1 at offset 14 (key 2, value 127 bytes) runs past the body", () -> readAll(tombstone, V2));
    }

    @Test
    void countThatCannotFit() {
        byte[] body = valid();
        putShort(body, 0, 10);
        // 10 entries need 2 + 10 * (2 + 2) = 42 bytes at least
        assertCorrupt("leaf entry count 10 cannot fit a body of 28 bytes (2-byte slots", () -> readAll(body, V2));
        putShort(body, 0, 0xFFFF);
        assertCorrupt("leaf entry count 65535 cannot fit", () -> readAll(body, V2));
        assertCorrupt("leaf body of 1 bytes has no entry count", () -> view(body, 1, V2));
        // Within the count's limit but past what the slots address: entries 3..5 start in the
        // entry area of the real entries or after it, and decode as whatever is there, checked.
        putShort(body, 0, 6);
        assertThrows(CorruptPageException.class, () -> readAll(body, V2));
    }

    @Test
    void versionOneChecksStillApply() {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 8 + 2).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1).putInt(8).putInt(2).putInt(0).put((byte) 'x').put((byte) 'y');
        byte[] ok = b.array();
        assertEquals(1, assertDoesNotThrowView(ok).count());
        byte[] count = ok.clone();
        ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2);
        assertCorrupt("leaf entry count 2 cannot fit a body of 18 bytes (4-byte slots", () -> readAll(count, 1));
        byte[] key = ok.clone();
        ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN).putInt(8, -1);
        assertCorrupt("leaf entry 0 at offset 8 (key 4294967295", () -> readAll(key, 1));
        byte[] slot = ok.clone();
        ByteBuffer.wrap(slot).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 12);
        assertCorrupt("leaf slot 0 points at offset 12", () -> readAll(slot, 1));
    }

    private static LeafView assertDoesNotThrowView(byte[] body) {
        try {
            LeafView v = view(body, body.length, 1);
            v.entry(0);
            assertEquals(2, v.keyLength());
            return v;
        } catch (CorruptPageException e) {
            throw new AssertionError(e);
        }
    }

    private static void putShort(byte[] b, int at, int value) {
        b[at] = (byte) value;
        b[at + 1] = (byte) (value >>> 8);
    }

    // ---- through the reader, on a real file ----

    private static final int PAGE = SSTableFixture.PAGE;

    @Test
    void damagedPlainLeafThroughTheReader() throws IOException {
        checkThroughReader(Compression.NONE);
    }

    @Test
    void damagedCompressedLeafThroughTheReader() throws IOException {
        checkThroughReader(Compression.LZ4);
    }

    /**
     * Replaces leaf 1 of a real table with a leaf whose (logical) body has its middle slot pointing past the
     * body, resealed so it passes the page checksum; lookups and scans that reach it fail naming
     * the file and page, and release their pins.
     */
    private void checkThroughReader(Compression compression) throws IOException {
        MemFileSystem fs = new MemFileSystem();
        IoStatistics io = new IoStatistics();
        Path path = Path.of("/data/t.sst");
        fs.createDirectories(path.getParent());
        TreeMap<byte[], Entry> entries = SSTableFixture.randomEntries(new Random(8), 3_000, 20, 40);
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(PAGE).withCompression(compression), io, entries);
        assertTrue(meta.leafPageCount() > 2);
        int leaf = 1;
        byte[] body = valid();
        putShort(body, 2 + 2 * 1, 500); // slot 1: the first probe of every binary search in a 3-entry leaf
        byte flags = 0;
        byte[] payload = body;
        if (compression == Compression.LZ4) {
            LZ4Compressor c = LZ4Factory.fastestInstance().fastCompressor();
            byte[] out = new byte[4 + c.maxCompressedLength(body.length)];
            ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(0, body.length);
            int n = c.compress(body, 0, body.length, out, 4, out.length - 4);
            payload = Arrays.copyOf(out, 4 + n);
            flags = SSTableFormat.FLAG_LZ4;
        }
        ByteBuffer page = ByteBuffer.allocate(PAGE).order(ByteOrder.LITTLE_ENDIAN);
        PageDescriptor.writeHeader(page, SSTableFormat.TYPE_LEAF, flags, leaf, payload.length);
        page.put(PageDescriptor.HEADER_LENGTH, payload);
        PageChecksum.seal(page, PAGE);
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.write((long) leaf * PAGE, page.clear());
        }
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io);
             SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> {
                try (EntryCursor c = r.leafCursor(leaf, IoPurpose.QUERY)) {
                    while (c.next()) {
                        // reaches entry 1
                    }
                }
            });
            assertReaderMessage(e, path, leaf, "leaf slot 1 points at offset 500");
            CorruptPageException scan = assertThrows(CorruptPageException.class, () -> {
                try (EntryCursor c = r.cursor(null, 0, IoPurpose.QUERY)) {
                    while (c.next()) {
                        // walks into leaf 1
                    }
                }
            });
            assertReaderMessage(scan, path, leaf, "leaf slot 1 points at offset 500");
            int failures = 0;
            for (byte[] k : entries.keySet()) {
                try {
                    r.get(k, k.length, new ValueHolder(), IoPurpose.QUERY);
                } catch (CorruptPageException g) {
                    failures++;
                    assertReaderMessage(g, path, leaf, "leaf");
                }
            }
            assertTrue(failures > 0, "some lookup reached the damaged leaf");
            assertEquals(0, cache.snapshot().pinnedFrames());
        }
    }

    private static void assertReaderMessage(CorruptPageException e, Path path, int page, String what) {
        assertEquals(page, e.pageNumber());
        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }
}
