package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Constants of the SSTable file format (docs/formats.md) and the size limits they imply.
 *
 * <p>File layout, in page order: leaf pages {@code [0, L)}, index pages bottom-up, Bloom filter
 * pages, and one footer page, always the last page of the file. Every page starts with the common
 * {@link PageDescriptor} header whose type byte is one of the {@code TYPE_*} codes below.
 */
public final class SSTableFormat {

    /** Version of the SSTable layout (footer, leaf, index and Bloom payloads) written by this code. */
    public static final int FORMAT_VERSION = 1;

    /** "BWSSTBL1" as a little-endian u64, first field of the footer payload. */
    public static final long MAGIC = 0x314C425453535742L;

    public static final byte TYPE_LEAF = 0x21;
    public static final byte TYPE_INDEX = 0x22;
    public static final byte TYPE_BLOOM = 0x23;
    public static final byte TYPE_FOOTER = 0x24;

    /** Header flag of a leaf page whose payload is an LZ4 block (see {@link LeafPageDescriptor}). */
    public static final byte FLAG_LZ4 = 0x01;

    /**
     * With LZ4 a leaf page holds entries whose uncompressed body is at most this many page payloads.
     * Bounds the reader's decompression buffer and the writer's trial compressions; 4 covers the
     * ratios LZ4 reaches on typical records (2-3x) with room to spare.
     */
    public static final int MAX_LOGICAL_LEAF_PAGES = 4;

    private SSTableFormat() {
    }

    /** Bytes of a page after the common header. */
    public static int payload(int pageSize) {
        return PageDescriptor.maxPayload(pageSize);
    }

    /**
     * Longest key a table with this page size accepts. Chosen so that the footer holds the first and
     * last key, and an index page holds at least two separators (so the index always narrows).
     */
    public static int maxKeyLength(int pageSize) {
        return (payload(pageSize) - FooterDescriptor.FIXED_PAYLOAD_BYTES) / 2;
    }

    /** Longest key plus value that fits in one (uncompressed) leaf page. */
    public static int maxRecordLength(int pageSize) {
        return payload(pageSize) - LeafPageDescriptor.BODY_HEADER - LeafPageDescriptor.SLOT_SIZE
                - LeafPageDescriptor.ENTRY_HEADER;
    }

    static String typeName(byte type) {
        return switch (type) {
            case TYPE_LEAF -> "LEAF";
            case TYPE_INDEX -> "INDEX";
            case TYPE_BLOOM -> "BLOOM";
            case TYPE_FOOTER -> "FOOTER";
            default -> String.format("unknown(0x%02x)", type);
        };
    }
}
