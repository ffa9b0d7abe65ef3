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

    /**
     * Version of the SSTable layout (footer, leaf, index and Bloom payloads) this code writes: 2,
     * the dense leaf layout (2- to 4-byte slots, varint lengths; {@link LeafPageDescriptor}).
     */
    public static final int CURRENT_VERSION = 2;

    /** The first layout: leaves with 4-byte slots and u32 lengths. Still read; written only by tests. */
    public static final int LEGACY_VERSION_1 = 1;

    /**
     * Versions this code reads, oldest first. Version 2 changed only the leaf body, so the footer,
     * index and Bloom pages of both are decoded alike and only leaves look at the version.
     */
    private static final int[] READABLE_VERSIONS = {LEGACY_VERSION_1, CURRENT_VERSION};

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

    /** Whether this code reads files of SSTable format {@code version}. */
    public static boolean isReadable(int version) {
        for (int v : READABLE_VERSIONS) {
            if (v == version) {
                return true;
            }
        }
        return false;
    }

    /** The readable versions for messages, e.g. "1, 2". */
    static String readableVersions() {
        StringBuilder b = new StringBuilder();
        for (int v : READABLE_VERSIONS) {
            b.append(b.length() == 0 ? "" : ", ").append(v);
        }
        return b.toString();
    }

    /**
     * Longest key plus value that fits alone in one (uncompressed) leaf page of either layout, so
     * the limit does not depend on the version a table is written in: payload - 16 (the version-1
     * count, slot and lengths) unless the version-2 worst case is larger, which needs pages of
     * 128 MiB or more.
     */
    public static int maxRecordLength(int pageSize) {
        int payload = payload(pageSize);
        int v1 = 2 * LeafPageDescriptor.V1_SLOT_WIDTH + LeafPageDescriptor.V1_ENTRY_HEADER;
        return payload - Math.max(v1, LeafPageDescriptor.v2SingleRecordOverhead(payload));
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
