package dev.breakwater.lsm.memory;

import java.util.Arrays;

/**
 * What the memory merge and flush pickers know about one memory SSTable: identity, size, key range
 * and log-LSN range. Immutable; equality is by id. {@link MemorySSTable#meta()} makes one; tests
 * write them by hand.
 *
 * @param id        {@link MemorySSTable#id()}
 * @param bytes     {@link MemorySSTable#bytesUsed()}: the pool memory the table holds
 * @param smallest  first key (inclusive); not copied, must not be modified
 * @param largest   last key (inclusive); not copied, must not be modified
 * @param minLogLsn smallest log LSN of the writes in the table (what the log must keep for it)
 * @param maxLogLsn largest log LSN of the writes in the table
 */
public record MemorySSTableMeta(long id, long bytes, byte[] smallest, byte[] largest, long minLogLsn, long maxLogLsn) {

    /** True if this table's key range intersects {@code [lo, hi]} (inclusive, unsigned order). */
    public boolean overlaps(byte[] lo, byte[] hi) {
        return Arrays.compareUnsigned(smallest, hi) <= 0 && Arrays.compareUnsigned(largest, lo) >= 0;
    }

    public boolean overlaps(MemorySSTableMeta other) {
        return overlaps(other.smallest, other.largest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemorySSTableMeta m && m.id == id;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "m#" + id + "[" + bytes + " B]";
    }
}
