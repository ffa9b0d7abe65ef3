package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The version-2 leaf's slot width (2, 3 or 4 bytes) follows the body length: bodies just below,
 * at and above the 64 KiB (2 → 3) and 16 MiB (3 → 4) boundaries, uncompressed and as LZ4 leaves
 * whose logical body spans several page payloads, are written by {@link LeafBuilder} with the width
 * the body length implies, and read back entry by entry and by binary search through
 * {@link LeafView}; a table with 32 KiB LZ4 pages (3-byte slots) round-trips through
 * {@link SSTableReader}.
 */
class LeafSlotWidthTest {

    private static final int TWO = 1 << 16;
    private static final int THREE = 1 << 24;
    private static final int KEY = 8;

    @Test
    void widthFollowsBodyLength() {
        assertEquals(2, LeafPageDescriptor.slotWidth(2));
        assertEquals(2, LeafPageDescriptor.slotWidth(TWO));
        assertEquals(3, LeafPageDescriptor.slotWidth(TWO + 1));
        assertEquals(3, LeafPageDescriptor.slotWidth(THREE));
        assertEquals(4, LeafPageDescriptor.slotWidth(THREE + 1));
        assertEquals(4, LeafPageDescriptor.slotWidth(Integer.MAX_VALUE));
        assertEquals(4, LeafPageDescriptor.slotWidth(SSTableFormat.LEGACY_VERSION_1, 100));
    }

    @Test
    void writerAndReaderAgreeOnTheWidthForEveryBodyNearTheBoundaries() {
        // The writer picks the smallest width whose body fits that width's limit; the reader sees
        // only the length. Walk entry-byte totals across both boundaries for a few entry counts.
        for (int count : new int[] {1, 2, 100, 5000}) {
            for (long base : new long[] {TWO, THREE}) {
                for (long d = -3L * (count + 1) - 8; d <= 3L * (count + 1) + 8; d++) {
                    long entryBytes = base - 2L * (count + 1) + d;
                    if (entryBytes < (long) count * LeafPageDescriptor.V2_MIN_ENTRY_HEADER) {
                        continue;
                    }
                    long body = LeafPageDescriptor.bodyLength(SSTableFormat.CURRENT_VERSION, count, entryBytes);
                    int w = LeafPageDescriptor.slotWidth((int) body);
                    assertEquals(body, w * (count + 1L) + entryBytes, "count " + count + ", entry bytes " + entryBytes);
                    if (w > 2) {
                        int smaller = w - 1;
                        long limit = smaller == 2 ? TWO : THREE;
                        assertTrue(smaller * (count + 1L) + entryBytes > limit, "a narrower slot would have fitted");
                    }
                }
            }
        }
    }

    @Test
    void twoToThreeByteBoundaryUncompressed() throws IOException {
        int pageSize = 128 << 10; // a payload of 131056: room for 3-byte bodies without compression
        for (int d = -2; d <= 2; d++) {
            roundTrip(pageSize, Compression.NONE, 300, TWO, d);
        }
    }

    @Test
    void twoToThreeByteBoundaryCompressedMultiPageLogicalBody() throws IOException {
        int pageSize = 32 << 10; // logical bodies of up to 4 payloads (131008 bytes) in one 32 KiB page
        for (int d = -2; d <= 2; d++) {
            Leaf leaf = roundTrip(pageSize, Compression.LZ4, 300, TWO, d);
            assertEquals(SSTableFormat.FLAG_LZ4, leaf.flags, "written compressed");
            assertTrue(leaf.bodyLength > SSTableFormat.payload(pageSize), "the logical body spans more than one payload");
        }
    }

    @Test
    void threeToFourByteBoundaryCompressedMultiPageLogicalBody() throws IOException {
        int pageSize = 8 << 20; // logical bodies of up to 32 MiB
        for (int d = -1; d <= 1; d++) {
            Leaf leaf = roundTrip(pageSize, Compression.LZ4, 64, THREE, d);
            assertEquals(SSTableFormat.FLAG_LZ4, leaf.flags);
        }
    }

    @Test
    void threeToFourByteBoundaryUncompressed() throws IOException {
        roundTrip(32 << 20, Compression.NONE, 64, THREE, 0);
        roundTrip(32 << 20, Compression.NONE, 64, THREE, 1);
    }

    /** A leaf as the builder emitted it, and its body. */
    private record Leaf(byte flags, byte[] body, int bodyLength) {
    }

    /**
     * Builds one leaf of {@code count} entries whose body with {@code narrow}-byte slots would be
     * {@code boundary + d} bytes ({@code narrow} = 2 for the 64 KiB boundary, 3 for 16 MiB), checks
     * the width and length the writer chose, and reads every entry back.
     */
    private static Leaf roundTrip(int pageSize, Compression compression, int count, int boundary, int d) throws IOException {
        int narrow = boundary == TWO ? 2 : 3;
        long target = (long) boundary + d;
        long entryBytes = target - (long) narrow * (count + 1);
        List<byte[]> values = values(count, entryBytes);
        List<Leaf> leaves = new ArrayList<>();
        LeafBuilder b = new LeafBuilder(pageSize, compression, (flags, payload, length, records, fo, fl, lo, ll) ->
                leaves.add(body(flags, payload, length)), SSTableFormat.CURRENT_VERSION);
        for (int i = 0; i < count; i++) {
            byte[] v = values.get(i);
            b.add(key(2 * i), KEY, v == null ? new byte[0] : v, v == null ? 0 : v.length, v == null);
        }
        b.finish();
        assertEquals(1, leaves.size(), "one leaf for body " + target);
        Leaf leaf = leaves.get(0);
        int expectedWidth = d <= 0 ? narrow : narrow + 1;
        assertEquals(entryBytes + (long) expectedWidth * (count + 1), leaf.bodyLength, "body length");
        assertEquals(expectedWidth, LeafPageDescriptor.slotWidth(leaf.bodyLength), "slot width of " + leaf.bodyLength);

        LeafView view = new LeafView().wrapHeap(leaf.body, leaf.bodyLength, SSTableFormat.CURRENT_VERSION, "leaf", 0);
        assertEquals(count, view.count());
        for (int i = 0; i < count; i++) {
            view.entry(i);
            byte[] k = new byte[view.keyLength()];
            view.copy(view.keyOffset(), k, k.length);
            assertArrayEquals(key(2 * i), k);
            byte[] v = values.get(i);
            assertEquals(v == null, view.isTombstone(), "tombstone " + i);
            byte[] got = new byte[view.valueLength()];
            view.copy(view.valueOffset(), got, got.length);
            assertArrayEquals(v == null ? new byte[0] : v, got, "value " + i);
            assertEquals(i, view.find(key(2 * i), KEY), "binary search for present key " + i);
            assertEquals(i, view.lowerBound(key(2 * i), KEY));
            assertEquals(-1, view.find(key(2 * i + 1), KEY), "absent key after " + i);
            assertEquals(i + 1, view.lowerBound(key(2 * i + 1), KEY));
        }
        return leaf;
    }

    private static Leaf body(byte flags, byte[] payload, int length) {
        if (flags == 0) {
            return new Leaf(flags, Arrays.copyOf(payload, length), length);
        }
        int raw = ByteBuffer.wrap(payload, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] body = new byte[raw];
        LZ4Factory.fastestInstance().safeDecompressor().decompress(payload, 4, length - 4, body, 0, raw);
        return new Leaf(flags, body, raw);
    }

    /** Big-endian {@code i}: keys sort as their numbers, and odd numbers fall between the keys written. */
    private static byte[] key(long i) {
        return ByteBuffer.allocate(KEY).putLong(i).array();
    }

    /**
     * Values (null = tombstone, every 7th entry) whose version-2 entries take exactly
     * {@code entryBytes} in total: all but the last of one length, the last one making up the rest.
     * Each value is one repeated byte, so LZ4 compresses it well and a wrong offset shows.
     */
    private static List<byte[]> values(int count, long entryBytes) {
        List<Integer> lengths = new ArrayList<>();
        long perEntry = entryBytes / count;
        int v = (int) Math.max(0, perEntry - KEY - 3);
        long sum = 0;
        for (int i = 0; i < count - 1; i++) {
            boolean tomb = i % 7 == 3;
            lengths.add(tomb ? -1 : v);
            sum += entryLength(tomb ? 0 : v, tomb);
        }
        long rest = entryBytes - sum;
        int last = -1;
        for (int header = 2; header <= 2 * LeafPageDescriptor.MAX_VARINT_BYTES && last < 0; header++) {
            long candidate = rest - KEY - header;
            if (candidate >= 0 && entryLength((int) candidate, false) == rest) {
                last = (int) candidate;
            }
        }
        assertTrue(last >= 0, "no last value makes " + rest + " entry bytes");
        lengths.add(last);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int n = lengths.get(i);
            if (n < 0) {
                values.add(null);
            } else {
                byte[] value = new byte[n];
                Arrays.fill(value, (byte) (i * 31 + 7));
                values.add(value);
            }
        }
        return values;
    }

    private static long entryLength(int valueLength, boolean tombstone) {
        return LeafPageDescriptor.entryHeaderLength(SSTableFormat.CURRENT_VERSION, KEY, valueLength, tombstone) + KEY + valueLength;
    }

    @Test
    void tableWithThreeByteSlotsRoundTripsThroughTheReader() throws IOException {
        int page = 32 << 10;
        MemFileSystem fs = new MemFileSystem();
        IoStatistics io = new IoStatistics();
        Path path = Path.of("/data/w3.sst");
        fs.createDirectories(path.getParent());
        Random rnd = new Random(3);
        TreeMap<byte[], Entry> entries = SSTableFixture.model();
        for (int i = 0; i < 20_000; i++) {
            int r = rnd.nextInt(100);
            byte[] value = new byte[20 + rnd.nextInt(40)];
            Arrays.fill(value, (byte) (i % 5)); // compresses several times over: logical bodies reach 4 payloads
            entries.put(key(2L * i), new Entry(r < 10 ? null : value));
        }
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(page).withCompression(Compression.LZ4),
                io, entries);
        assertEquals(SSTableFormat.CURRENT_VERSION, meta.formatVersion());
        int wide = 0;
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            for (int leaf = 0; leaf < meta.leafPageCount(); leaf++) {
                ByteBuffer header = ByteBuffer.allocate(LeafPageDescriptor.COMPRESSED_DATA_OFFSET).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                f.read((long) leaf * page, header);
                if ((header.get(PageDescriptor.FLAGS_OFFSET) & SSTableFormat.FLAG_LZ4) != 0
                        && LeafPageDescriptor.slotWidth(header.getInt(LeafPageDescriptor.UNCOMPRESSED_LENGTH_OFFSET)) == 3) {
                    wide++;
                }
            }
        }
        assertTrue(wide > 0, "some leaf has a logical body over 64 KiB (3-byte slots)");
        try (BufferCache cache = new BufferCache(BufferCacheOptions.of(page, 64L * page).withChunkBytes(16L * page), io);
             SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            ValueHolder out = new ValueHolder();
            for (Map.Entry<byte[], Entry> e : entries.entrySet()) {
                byte[] k = e.getKey();
                SSTableFixture.assertGet(r, k, e.getValue(), out);
                byte[] absent = Arrays.copyOf(k, k.length);
                absent[KEY - 1] |= 1;
                assertEquals(LookupResult.ABSENT, r.get(absent, absent.length, out, IoPurpose.QUERY));
            }
            assertScanMatches(entries, r.cursor(null, 0, IoPurpose.QUERY), false);
            assertScanMatches(entries, r.reverseCursor(null, 0, IoPurpose.QUERY), true);
            assertScanMatches(entries, r.sequentialCursor(IoPurpose.MERGE, 4), false);
        } catch (CorruptPageException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertScanMatches(TreeMap<byte[], Entry> entries, EntryCursor c, boolean reverse) throws IOException {
        try (c) {
            for (Map.Entry<byte[], Entry> e : reverse ? entries.descendingMap().entrySet() : entries.entrySet()) {
                assertTrue(c.next());
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                if (!e.getValue().tombstone()) {
                    assertArrayEquals(e.getValue().value(), Arrays.copyOf(c.value(), c.valueLength()));
                }
            }
            assertTrue(!c.next());
        }
    }
}
