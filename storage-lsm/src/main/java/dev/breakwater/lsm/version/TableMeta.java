package dev.breakwater.lsm.version;

import java.util.Arrays;

/**
 * What a version knows about one disk SSTable: its file number (the file is {@code <number>.sst} in
 * the tree's directory), size, entry count, key range and LSN range. Immutable.
 *
 * @param fileNumber unique within a tree, never reused
 * @param sizeBytes  file size
 * @param entries    number of entries, tombstones included
 * @param smallest   first key (inclusive)
 * @param largest    last key (inclusive)
 * @param minLsn     smallest LSN of any write in the table
 * @param maxLsn     largest LSN of any write in the table
 */
public record TableMeta(long fileNumber, long sizeBytes, long entries, byte[] smallest, byte[] largest,
                        long minLsn, long maxLsn) {

    /** True if this table's key range intersects {@code [lo, hi]} (inclusive, unsigned order). */
    public boolean overlaps(byte[] lo, byte[] hi) {
        return Arrays.compareUnsigned(smallest, hi) <= 0 && Arrays.compareUnsigned(largest, lo) >= 0;
    }

    public boolean overlaps(TableMeta other) {
        return overlaps(other.smallest, other.largest);
    }

    /** True if {@code key} lies within this table's key range. */
    public boolean covers(byte[] key, int keyLen) {
        return Arrays.compareUnsigned(smallest, 0, smallest.length, key, 0, keyLen) <= 0
                && Arrays.compareUnsigned(largest, 0, largest.length, key, 0, keyLen) >= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableMeta t && t.fileNumber == fileNumber;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fileNumber);
    }

    @Override
    public String toString() {
        return "#" + fileNumber + "[" + sizeBytes + " B, " + entries + " entries]";
    }
}
