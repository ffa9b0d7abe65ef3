package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Layout of a Bloom filter page: a run of 64-byte blocks of a blocked Bloom filter
 * ({@link BloomFilterBuilder}). Offsets are from the start of the page; integers little endian.
 *
 * <pre>
 *  16            20            24            64                                       pageSize
 *  +-------------+-------------+-------------+-----------+-----------+-----+----------+
 *  | first block | block count | zero        | block 0   | block 1   | ... | padding  |
 *  | u32         | u32         | (alignment) | 8 x u64   | 8 x u64   |     |          |
 *  +-------------+-------------+-------------+-----------+-----------+-----+----------+
 * </pre>
 * Blocks start at byte 64 so each is cache-line aligned in a buffer-cache frame (frames are
 * 4096-aligned). Bit {@code b} (0..511) of a block is bit {@code b & 63} of its u64 number
 * {@code b >>> 6}. Page {@code p} of the filter holds global blocks
 * {@code [p * blocksPerPage, ...)}; payload length = 48 + 64 * block count.
 */
public final class BloomPageDescriptor {

    public static final int FIRST_BLOCK_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int BLOCK_COUNT_OFFSET = PageDescriptor.HEADER_LENGTH + 4;
    public static final int BLOCKS_OFFSET = 64;
    public static final int BLOCK_BYTES = 64;
    public static final int BLOCK_BITS = BLOCK_BYTES * 8;

    private BloomPageDescriptor() {
    }

    /** Blocks one page of {@code pageSize} bytes holds. */
    public static int blocksPerPage(int pageSize) {
        return (pageSize - BLOCKS_OFFSET) / BLOCK_BYTES;
    }

    /** Page offset of block {@code blockInPage}. */
    public static int blockOffset(int blockInPage) {
        return BLOCKS_OFFSET + blockInPage * BLOCK_BYTES;
    }
}
