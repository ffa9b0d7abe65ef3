package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.EntryCursor;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A scan's cursor over one sorted level of disjoint tables (a disk run, or a memory level
 * M{@code i}): the tables in key order, each opened only when the previous one is done, so a short
 * scan opens only the tables its range touches. Forward, it starts at the first key {@code >= start}
 * and opens no table whose first key is at or above {@code end} (the scan's exclusive upper bound);
 * descending, it starts at the last key {@code < start} and opens no table whose last key is below
 * {@code end} (the scan's inclusive lower bound). Either bound may be null (open). The first table is
 * found by binary search over the tables' key ranges.
 *
 * <p>One source per level instead of one per table keeps the scan's merge heap small (issue 19:
 * a memory level of ten tables added ten sources to every scan).
 *
 * <p>Invariant: {@code nextTable} is the next table to open, or out of {@code [0, size())} when
 * none is left.
 *
 * <p>Thread safety: none; one thread. The caller keeps the tables referenced until it closes the cursor.
 */
abstract class LevelCursor implements EntryCursor {

    /** Forward: the inclusive start; descending: the exclusive upper bound; null for none. */
    private final byte[] start;
    /** Forward: the exclusive end; descending: the inclusive lower bound; null for none. */
    private final byte[] end;
    private final boolean descending;
    private final LongAdder tablesOpened;
    private int nextTable = Integer.MIN_VALUE; // not positioned yet
    private EntryCursor current;

    /**
     * @param tablesOpened counts every table cursor this opens (the tree's scan statistics)
     */
    LevelCursor(byte[] start, byte[] end, boolean descending, LongAdder tablesOpened) {
        this.start = start;
        this.end = end;
        this.descending = descending;
        this.tablesOpened = tablesOpened;
    }

    /** Tables in the level. */
    abstract int size();

    /** Compares table {@code i}'s first key with {@code key}. */
    abstract int compareSmallest(int i, byte[] key);

    /** Compares table {@code i}'s last key with {@code key}. */
    abstract int compareLargest(int i, byte[] key);

    /** Opens table {@code i} at {@code bound} (forward: first key {@code >=}; descending: last key {@code <}; null: its end). */
    abstract EntryCursor open(int i, byte[] bound, boolean descending) throws IOException;

    /** The first table to open: forward, the first whose last key is {@code >= start}; descending, the last whose first key is {@code < start}. */
    private int firstTable() {
        int n = size();
        if (start == null) {
            return descending ? n - 1 : 0;
        }
        int lo = 0;
        int hi = n; // forward: first i with largest(i) >= start; descending: first i with smallest(i) >= start
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            boolean before = descending ? compareSmallest(mid, start) < 0 : compareLargest(mid, start) < 0;
            if (before) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return descending ? lo - 1 : lo;
    }

    /** True if table {@code i} lies wholly past the scan's far end. */
    private boolean pastEnd(int i) {
        if (end == null) {
            return false;
        }
        return descending ? compareLargest(i, end) < 0 : compareSmallest(i, end) >= 0;
    }

    @Override
    public final boolean next() throws IOException {
        if (nextTable == Integer.MIN_VALUE) {
            nextTable = firstTable();
        }
        while (true) {
            if (current != null) {
                if (current.next()) {
                    return true;
                }
                current.close();
                current = null;
            }
            if (nextTable < 0 || nextTable >= size() || pastEnd(nextTable)) {
                nextTable = -1;
                return false;
            }
            int t = nextTable;
            nextTable += descending ? -1 : 1;
            current = open(t, start, descending);
            tablesOpened.increment();
        }
    }

    @Override
    public final byte[] key() {
        return current.key();
    }

    @Override
    public final int keyLength() {
        return current.keyLength();
    }

    @Override
    public final byte[] value() {
        return current.value();
    }

    @Override
    public final int valueLength() {
        return current.valueLength();
    }

    @Override
    public final boolean isTombstone() {
        return current.isTombstone();
    }

    @Override
    public final long lsn() {
        return current.lsn();
    }

    @Override
    public final void close() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
        nextTable = -1;
    }
}
