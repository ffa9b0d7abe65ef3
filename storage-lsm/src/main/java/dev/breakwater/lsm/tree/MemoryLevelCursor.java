package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.memory.MemorySSTable;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link LevelCursor} over one memory level M{@code i} of a partitioned memory component: its
 * disjoint memory SSTables in key order, as one source of a scan's merge.
 *
 * <p>Thread safety: none; one thread. The caller keeps the tables referenced (its super version).
 */
final class MemoryLevelCursor extends LevelCursor {

    private final List<MemorySSTable> tables;

    /**
     * @param tables the level's tables, disjoint and in key order
     * @param start  forward: the inclusive start key; descending: the exclusive upper bound (null: open)
     * @param end    forward: the exclusive end key; descending: the inclusive lower bound (null: open)
     */
    MemoryLevelCursor(List<MemorySSTable> tables, byte[] start, byte[] end, boolean descending, LongAdder tablesOpened) {
        super(start, end, descending, tablesOpened);
        this.tables = tables;
    }

    @Override
    int size() {
        return tables.size();
    }

    @Override
    int compareSmallest(int i, byte[] key) {
        return tables.get(i).compareSmallestTo(key, key.length);
    }

    @Override
    int compareLargest(int i, byte[] key) {
        return tables.get(i).compareLargestTo(key, key.length);
    }

    @Override
    EntryCursor open(int i, byte[] bound, boolean descending) {
        int len = bound == null ? 0 : bound.length;
        return descending ? tables.get(i).reverseCursor(bound, len) : tables.get(i).cursor(bound, len);
    }
}
