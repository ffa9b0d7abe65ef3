package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Layout of the footer page, the last page of an SSTable file, which holds the table's
 * {@link SSTableMetadata}. Offsets are from the start of the page; integers little endian.
 *
 * <pre>
 *   16  magic "BWSSTBL1"                u64
 *   24  SSTable format version          u32   ({@link SSTableFormat#CURRENT_VERSION} or an older readable one)
 *   28  page size                       u32
 *   32  entry count                     u64
 *   40  tombstone count                 u64
 *   48  minimum LSN                     u64
 *   56  maximum LSN                     u64
 *   64  root page                       u32   (a leaf when index height is 0)
 *   68  index height                    u32
 *   72  first leaf page                 u32
 *   76  leaf page count                 u32
 *   80  first index page                u32
 *   84  index page count                u32
 *   88  first Bloom page                u32
 *   92  Bloom page count                u32   (0: no filter)
 *   96  Bloom block count               u32
 *  100  Bloom hash count k              u32
 *  104  Bloom bits per key              f64   (IEEE 754 bits as u64)
 *  112  compression code                u8    ({@link Compression#code()}), then 3 zero bytes
 *  116  first key length  F             u32
 *  120  last key length   L             u32
 *  124  first key bytes, then last key bytes
 *  124+F+L  metadata CRC32C             u32   over bytes [16, 124+F+L)
 * </pre>
 * Header type {@link SSTableFormat#TYPE_FOOTER}; payload length = 112 + F + L. The metadata CRC is
 * in addition to the page checksum, so the metadata stays verifiable if copied out of the page.
 */
public final class FooterDescriptor {

    public static final int MAGIC_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int FORMAT_VERSION_OFFSET = 24;
    public static final int PAGE_SIZE_OFFSET = 28;
    public static final int ENTRY_COUNT_OFFSET = 32;
    public static final int TOMBSTONE_COUNT_OFFSET = 40;
    public static final int MIN_LSN_OFFSET = 48;
    public static final int MAX_LSN_OFFSET = 56;
    public static final int ROOT_PAGE_OFFSET = 64;
    public static final int INDEX_HEIGHT_OFFSET = 68;
    public static final int LEAF_FIRST_OFFSET = 72;
    public static final int LEAF_COUNT_OFFSET = 76;
    public static final int INDEX_FIRST_OFFSET = 80;
    public static final int INDEX_COUNT_OFFSET = 84;
    public static final int BLOOM_FIRST_OFFSET = 88;
    public static final int BLOOM_COUNT_OFFSET = 92;
    public static final int BLOOM_BLOCKS_OFFSET = 96;
    public static final int BLOOM_HASHES_OFFSET = 100;
    public static final int BLOOM_BITS_PER_KEY_OFFSET = 104;
    public static final int COMPRESSION_OFFSET = 112;
    public static final int FIRST_KEY_LENGTH_OFFSET = 116;
    public static final int LAST_KEY_LENGTH_OFFSET = 120;
    public static final int KEYS_OFFSET = 124;
    /** Payload bytes other than the two keys: fields plus the metadata CRC. */
    public static final int FIXED_PAYLOAD_BYTES = KEYS_OFFSET - PageDescriptor.HEADER_LENGTH + 4;

    private FooterDescriptor() {
    }

    /** Page offset of the metadata CRC. */
    public static int metadataCrcOffset(int firstKeyLength, int lastKeyLength) {
        return KEYS_OFFSET + firstKeyLength + lastKeyLength;
    }
}
