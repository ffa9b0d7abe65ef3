package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Layout of a leaf page: sorted entries, addressed through a slot array for binary search.
 * All fixed-width integers are little endian. Two layouts exist; the footer's SSTable format
 * version ({@link SSTableFormat}) says which one every leaf of a file uses.
 *
 * <p><b>Version 2</b> (written by default). The <em>body</em>, offsets relative to its first byte,
 * with {@code w = }{@link #slotWidth(int) slotWidth}{@code (body length)}:
 * <pre>
 *  0          w                        w+w*n
 *  +----------+------------------------+---------------------------------------------+
 *  | count n  | slot[0] .. slot[n-1]   | entry 0 | entry 1 | ...                     |
 *  | w bytes  | w bytes each: body offset of the entry                               |
 *  +----------+------------------------+---------------------------------------------+
 *
 *  entry:
 *  +---------------+------------------------------------+-----------+-------------+
 *  | key length    | value length &lt;&lt; 1 | tombstone      | key bytes | value bytes |
 *  | varint        | varint                             |           |             |
 *  +---------------+------------------------------------+-----------+-------------+
 * </pre>
 * The slot width is not stored: it is the smallest of 2, 3 and 4 bytes that can address every byte
 * of the body ({@code w = 2} up to 64 KiB, {@code 3} up to 16 MiB, else {@code 4}), so reader and
 * writer derive it from the body length alone. For a compressed leaf that is the <em>logical</em>
 * (uncompressed) body length, which may be several page payloads. A varint is unsigned LEB128: 7
 * bits per byte, low bits first, the high bit set on every byte but the last; at most
 * {@link #MAX_VARINT_BYTES} bytes (32 bits).
 *
 * <p><b>Version 1</b> (the legacy layout, still read): the same structure with {@code w = 4}
 * always, and an entry header of two u32: key length, then value length with bit 31
 * ({@link #V1_TOMBSTONE_BIT}) set for a tombstone. 12 bytes per entry of slot and lengths.
 *
 * <p>In both, entries are in strictly increasing unsigned-lexicographic key order, within a page
 * and across pages (leaf {@code i+1} starts after leaf {@code i} ends). A tombstone has value
 * length 0.
 *
 * <p>The page: header type {@link SSTableFormat#TYPE_LEAF}.
 * <ul>
 *   <li>Flags 0: the body starts at {@link #RAW_BODY_OFFSET}; payload length = body length.</li>
 *   <li>Flags {@link SSTableFormat#FLAG_LZ4}: at {@link #UNCOMPRESSED_LENGTH_OFFSET} the body's
 *       uncompressed length (u32), then from {@link #COMPRESSED_DATA_OFFSET} one LZ4 block holding
 *       the body; payload length = 4 + compressed length. The body may be up to
 *       {@link SSTableFormat#MAX_LOGICAL_LEAF_PAGES} page payloads long.</li>
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
public final class LeafPageDescriptor {

    public static final int RAW_BODY_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int UNCOMPRESSED_LENGTH_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int COMPRESSED_DATA_OFFSET = PageDescriptor.HEADER_LENGTH + 4;

    /** Version 1: width of the count and of every slot. */
    public static final int V1_SLOT_WIDTH = 4;
    /** Version 1: bytes of an entry before its key (the two u32 lengths). */
    public static final int V1_ENTRY_HEADER = 8;
    /** Version 1: the tombstone bit of the value-length field. */
    public static final int V1_TOMBSTONE_BIT = 0x8000_0000;

    /** Version 2: the longest varint (a 32-bit value). */
    public static final int MAX_VARINT_BYTES = 5;
    /** Version 2: the shortest entry header (two one-byte varints). */
    public static final int V2_MIN_ENTRY_HEADER = 2;

    /** Largest body version-2 slots of 2 (3) bytes can address: every offset is below it. */
    private static final int TWO_BYTE_LIMIT = 1 << 16;
    private static final int THREE_BYTE_LIMIT = 1 << 24;

    private LeafPageDescriptor() {
    }

    /**
     * Width in bytes of the count and of each slot of a version-2 body of {@code bodyLength} bytes:
     * 2 up to 64 KiB, 3 up to 16 MiB, 4 beyond.
     */
    public static int slotWidth(int bodyLength) {
        return bodyLength <= TWO_BYTE_LIMIT ? 2 : bodyLength <= THREE_BYTE_LIMIT ? 3 : 4;
    }

    /** Width of the count and of each slot of a body of {@code bodyLength} bytes in {@code version}. */
    public static int slotWidth(int version, int bodyLength) {
        return version == 1 ? V1_SLOT_WIDTH : slotWidth(bodyLength);
    }

    /** Bytes of the shortest entry header of {@code version}. */
    public static int minEntryHeader(int version) {
        return version == 1 ? V1_ENTRY_HEADER : V2_MIN_ENTRY_HEADER;
    }

    public static int countOffset() {
        return 0;
    }

    /** Body offset of slot {@code index} for slots of {@code width} bytes. */
    public static int slotOffset(int width, int index) {
        return width + index * width;
    }

    /**
     * Body length of {@code count} entries whose records (headers, keys, values) take
     * {@code entryBytes} in total, in {@code version}. For version 2 this picks the slot width: the
     * smallest {@code w} whose body {@code w * (count + 1) + entryBytes} is within {@code w}'s limit,
     * so that {@link #slotWidth(int)} of the result is {@code w} again.
     */
    public static long bodyLength(int version, int count, long entryBytes) {
        if (version == 1) {
            return V1_SLOT_WIDTH * (count + 1L) + entryBytes;
        }
        long two = 2 * (count + 1L) + entryBytes;
        if (two <= TWO_BYTE_LIMIT) {
            return two;
        }
        long three = 3 * (count + 1L) + entryBytes;
        return three <= THREE_BYTE_LIMIT ? three : 4 * (count + 1L) + entryBytes;
    }

    /** Bytes of the unsigned varint of {@code value} (1 to 5). */
    public static int varintLength(int value) {
        int bits = 32 - Integer.numberOfLeadingZeros(value | 1);
        return (bits + 6) / 7;
    }

    /** The version-2 value-length field of a record: {@code valueLength << 1 | tombstone}. */
    public static int valueField(int valueLength, boolean tombstone) {
        return valueLength << 1 | (tombstone ? 1 : 0);
    }

    /** Bytes of an entry's header (the two lengths) in {@code version}. */
    public static int entryHeaderLength(int version, int keyLength, int valueLength, boolean tombstone) {
        return version == 1 ? V1_ENTRY_HEADER
                : varintLength(keyLength) + varintLength(valueField(valueLength, tombstone));
    }

    /**
     * The most a record of up to {@code payload} key-plus-value bytes costs in a version-2 leaf
     * besides its key and value when alone in a leaf of one page: count, slot and two varints.
     */
    static int v2SingleRecordOverhead(int payload) {
        return 2 * slotWidth(payload) + varintLength(payload) + varintLength(payload << 1 | 1);
    }
}
