package dev.breakwater.lsm.memory;

/**
 * Layout of the pages of a {@link MemorySSTable}: compact, sorted, slotted data pages with no per-node
 * pointers, and pages of a blocked Bloom filter ({@link MemoryBloomFilter}). Every page is one page of
 * the {@link PagePool}, at an absolute address that is a multiple of 8. Multi-byte fields are in
 * native byte order (little endian on every supported platform); these pages never leave memory.
 *
 * <h2>Data page</h2>
 * A slot array grows up from the header; entries grow down from the page end. Entry {@code i} of the
 * page starts at offset {@code slot[i]}; slots are in key order (entries are physically in reverse
 * order, the first entry ending at the page end).
 * <pre>
 *  0             4             8            8+4n
 *  +-------------+-------------+---------+-----+------------------+-----------+-----+-----------+
 *  | entryCount  | dataStart   | slot[0] | ... |       free       | entry n-1 | ... | entry 0   |
 *  | u32  (n)    | u32         | u32     |     |                  |           |     |           |
 *  +-------------+-------------+---------+-----+------------------+-----------+-----+-----------+
 *                                                                 ^ dataStart            pageSize ^
 * </pre>
 *
 * <h2>Entry</h2>
 * <pre>
 *  0                               8               12              16
 *  +-------------------------------+---------------+---------------+-----------+-------------+
 *  | seq (int64)                   | keyLength     | valueLength   | key bytes | value bytes |
 *  |                               | int32         | int32 or -1   |           |             |
 *  +-------------------------------+---------------+---------------+-----------+-------------+
 * </pre>
 * <ul>
 *   <li>{@code seq}: the sequence number ("lsn" of {@link dev.breakwater.lsm.EntryCursor#lsn()}) of
 *       the write that produced the entry, kept so readers can filter by snapshot.</li>
 *   <li>{@code valueLength}: {@link #TOMBSTONE} (-1) marks anti-matter, which has no value bytes.</li>
 *   <li>Entries are not padded: {@code seq} may be unaligned (read with unaligned loads, which every
 *       supported CPU allows). Per entry the overhead is {@link #ENTRY_HEADER_LENGTH} + one slot.</li>
 * </ul>
 * Keys within a page, and across the pages of a table in order, are strictly increasing (unsigned
 * lexicographic). A page holds at least one entry, so the key of slot 0 is the page's fence key
 * used to binary-search pages.
 *
 * <h2>Bloom filter page</h2>
 * <pre>
 *  0           64          128                         64*b      pageSize
 *  +-----------+-----------+-----+--------------------+----------+
 *  | block 0   | block 1   | ... | block b-1          | unused   |
 *  | 8 x u64   | 8 x u64   |     |                    |          |
 *  +-----------+-----------+-----+--------------------+----------+
 * </pre>
 * {@code b = pageSize / 64} blocks per page; global block {@code g} is block {@code g % b} of filter
 * page {@code g / b}. Bit {@code i} (0..511) of a block is bit {@code i & 63} of its u64 number
 * {@code i >>> 6}. No header: the block count and probe count live in the table object.
 */
public final class MemorySSTableDescriptor {

    public static final int ENTRY_COUNT_OFFSET = 0;
    public static final int DATA_START_OFFSET = 4;
    /** Offset of {@code slot[0]}: bytes of the data page header. */
    public static final int SLOTS_OFFSET = 8;
    public static final int SLOT_LENGTH = 4;

    public static final int SEQ_OFFSET = 0;
    public static final int KEY_LENGTH_OFFSET = 8;
    public static final int VALUE_LENGTH_OFFSET = 12;
    public static final int ENTRY_HEADER_LENGTH = 16;

    /** {@code valueLength} of a tombstone. */
    public static final int TOMBSTONE = -1;

    public static final int BLOOM_BLOCK_BYTES = 64;
    public static final int BLOOM_BLOCK_BITS = BLOOM_BLOCK_BYTES * 8;

    private MemorySSTableDescriptor() {
    }

    /** Page offset of {@code slot[index]}. */
    public static int slotOffset(int index) {
        return SLOTS_OFFSET + SLOT_LENGTH * index;
    }

    /** Bytes an entry occupies in a data page, its slot excluded. */
    public static int entryLength(int keyLength, int valueLength) {
        return ENTRY_HEADER_LENGTH + keyLength + valueLength;
    }

    /** The largest {@code keyLength + valueLength} one data page of {@code pageSize} bytes can hold. */
    public static int maxRecordLength(int pageSize) {
        return pageSize - SLOTS_OFFSET - SLOT_LENGTH - ENTRY_HEADER_LENGTH;
    }

    /** Bloom blocks one page of {@code pageSize} bytes holds. */
    public static int bloomBlocksPerPage(int pageSize) {
        return pageSize / BLOOM_BLOCK_BYTES;
    }
}
