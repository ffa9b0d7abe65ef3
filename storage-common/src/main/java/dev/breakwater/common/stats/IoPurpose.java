package dev.breakwater.common.stats;

/**
 * Why a page or byte was read or written. Every I/O and every buffer-cache pin is attributed to one
 * purpose, because the memory tuner weighs them differently (paper 000, section 5): query reads and
 * merge reads react differently to a larger buffer cache, and flush and merge writes to a larger
 * write memory.
 */
public enum IoPurpose {
    /** Point lookups and scans issued by users. */
    QUERY,
    /** Reading and writing disk components during merges. */
    MERGE,
    /** Writing memory components to disk. */
    FLUSH,
    /**
     * The transaction log and manifests, and the footers of the SSTables a tree opens when it
     * recovers (metadata read with its manifest). A footer read when a flush or merge installs a
     * table counts under FLUSH or MERGE.
     */
    LOG;

    private static final IoPurpose[] VALUES = values();

    /** The constants in ordinal order, without the defensive copy of {@link #values()}. */
    public static IoPurpose ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** Number of purposes. */
    public static final int COUNT = VALUES.length;
}
