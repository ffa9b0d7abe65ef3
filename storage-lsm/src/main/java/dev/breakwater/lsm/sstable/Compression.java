package dev.breakwater.lsm.sstable;

/** Compression of SSTable leaf pages. The code is stored in the footer. */
public enum Compression {
    /** Leaf pages hold their entries as is. */
    NONE(0),
    /**
     * A leaf page holds up to {@link SSTableFormat#MAX_LOGICAL_LEAF_PAGES} pages worth of entries,
     * LZ4-compressed into one page (a leaf that fits uncompressed stays uncompressed).
     */
    LZ4(1);

    private final int code;

    Compression(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The compression with this footer code, or null if unknown. */
    public static Compression ofCode(int code) {
        for (Compression c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return null;
    }
}
