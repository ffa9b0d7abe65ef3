package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Layout of a leaf page: sorted entries, addressed through a slot array for binary search.
 * All integers are little endian.
 *
 * <p>The <em>body</em> (offsets relative to the body's first byte):
 * <pre>
 *  0          4                    4+4n
 *  +----------+--------------------+----------------------------------------------------+
 *  | count n  | slot[0] .. slot[n-1] | entry 0 | entry 1 | ...                          |
 *  | u32      | u32 each: body offset of the entry                                      |
 *  +----------+--------------------+----------------------------------------------------+
 *
 *  entry:
 *  +------------+--------------------------------+-----------+-------------+
 *  | key length | value length (bit 31: tombstone)| key bytes | value bytes |
 *  | u32        | u32                             |           |             |
 *  +------------+--------------------------------+-----------+-------------+
 * </pre>
 * Entries are in strictly increasing unsigned-lexicographic key order, within a page and across
 * pages (leaf {@code i+1} starts after leaf {@code i} ends). A tombstone has value length 0.
 *
 * <p>The page: header type {@link SSTableFormat#TYPE_LEAF}.
 * <ul>
 *   <li>Flags 0: the body starts at {@link #RAW_BODY_OFFSET}; payload length = body length.</li>
 *   <li>Flags {@link SSTableFormat#FLAG_LZ4}: at {@link #UNCOMPRESSED_LENGTH_OFFSET} the body's
 *       uncompressed length (u32), then from {@link #COMPRESSED_DATA_OFFSET} one LZ4 block holding
 *       the body; payload length = 4 + compressed length. The body may be up to
 *       {@link SSTableFormat#MAX_LOGICAL_LEAF_PAGES} page payloads long.</li>
 * </ul>
 */
public final class LeafPageDescriptor {

    public static final int RAW_BODY_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int UNCOMPRESSED_LENGTH_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int COMPRESSED_DATA_OFFSET = PageDescriptor.HEADER_LENGTH + 4;

    /** Bytes of the body before the slot array (the count). */
    public static final int BODY_HEADER = 4;
    public static final int SLOT_SIZE = 4;
    /** Bytes of an entry before its key (the two lengths). */
    public static final int ENTRY_HEADER = 8;
    public static final int TOMBSTONE_BIT = 0x8000_0000;

    private LeafPageDescriptor() {
    }

    public static int countOffset() {
        return 0;
    }

    public static int slotOffset(int index) {
        return BODY_HEADER + index * SLOT_SIZE;
    }

    public static int keyLengthOffset(int entryOffset) {
        return entryOffset;
    }

    public static int valueLengthOffset(int entryOffset) {
        return entryOffset + 4;
    }

    public static int keyOffset(int entryOffset) {
        return entryOffset + ENTRY_HEADER;
    }

    public static int valueOffset(int entryOffset, int keyLength) {
        return entryOffset + ENTRY_HEADER + keyLength;
    }

    /** Body length of {@code count} entries whose records take {@code entryBytes} in total. */
    public static int bodyLength(int count, int entryBytes) {
        return BODY_HEADER + count * SLOT_SIZE + entryBytes;
    }
}
