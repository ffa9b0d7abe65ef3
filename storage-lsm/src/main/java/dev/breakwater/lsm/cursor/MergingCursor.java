package dev.breakwater.lsm.cursor;

import dev.breakwater.lsm.BufferedEntryCursor;
import dev.breakwater.lsm.EntryCursor;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Merges sorted cursors into one sorted cursor, keeping only the newest version of each key: the
 * reconciliation step of range scans, merges and flushes of several memory components. Sources are
 * given newest first; on equal keys the source with the lower index wins and the others are skipped.
 * Tombstones are passed through (a merge that cannot drop them must keep them) or hidden (scans, and
 * merges into the last level). A descending merge takes sources that all yield keys in descending
 * order (reverse cursors, one entry per key each) and applies the same rules: only the direction of
 * the key comparison changes.
 *
 * <p>A binary heap of source indices ordered by (current key in the merge's direction, source index)
 * finds the next key in {@code O(log k)}; the winning entry is copied into this cursor's own arrays,
 * so nothing is allocated per entry once the arrays are large enough. Each source's current key
 * (array and length) is read once when the source moves and kept in {@code heads}/{@code headLengths}:
 * the heap compares those arrays directly instead of calling {@code key()}/{@code keyLength()} on
 * sources of many classes (megamorphic interface calls were a third of a scan's time over a dozen
 * sources, issue 19).
 *
 * <p>An optional limit ends the merge early (scans): a source whose current key is past it (at or
 * above it ascending, below it descending) leaves the heap and is not read further, so sources with
 * nothing in a scan's range cost one read each and do not deepen the heap.
 *
 * <p>Invariants: (1) every source in the heap is positioned on an entry not yet returned, within the
 * limit; (2) keys returned are strictly increasing (strictly decreasing for a descending merge);
 * (3) for a source in the heap, {@code heads[s]}/{@code headLengths[s]} are its current key.
 *
 * <p>Thread safety: none; one thread. Closing closes every source.
 */
public final class MergingCursor extends BufferedEntryCursor {

    private final EntryCursor[] sources;
    private final boolean hideTombstones;
    /** 1 for an ascending merge, -1 for a descending one: the sign applied to key comparisons. */
    private final int direction;
    /** Ascending: the exclusive upper bound; descending: the inclusive lower bound; null for none. */
    private final byte[] limit;
    private final int[] heap;
    /** The current key array and length of each source in the heap. */
    private final byte[][] heads;
    private final int[] headLengths;
    private int heapSize;
    private boolean started;
    /** Source entries read (every successful {@code next()} of a source); for tests and statistics. */
    private long entriesRead;


    /**
     * @param newestFirst    sources, newest first
     * @param hideTombstones true to skip keys whose newest entry is a tombstone
     */
    public MergingCursor(List<? extends EntryCursor> newestFirst, boolean hideTombstones) {
        this(newestFirst, hideTombstones, false);
    }

    /**
     * @param newestFirst    sources, newest first, each in the merge's order
     * @param hideTombstones true to skip keys whose newest entry is a tombstone
     * @param descending     true if every source yields keys in descending order (and so does the merge)
     */
    public MergingCursor(List<? extends EntryCursor> newestFirst, boolean hideTombstones, boolean descending) {
        this(newestFirst, hideTombstones, descending, null);
    }

    /**
     * @param newestFirst    sources, newest first, each in the merge's order
     * @param hideTombstones true to skip keys whose newest entry is a tombstone
     * @param descending     true if every source yields keys in descending order (and so does the merge)
     * @param limit          null, or where the merge ends: ascending, the exclusive upper bound of the keys
     *                       returned; descending, the inclusive lower bound. Not copied: must not change
     */
    public MergingCursor(List<? extends EntryCursor> newestFirst, boolean hideTombstones, boolean descending, byte[] limit) {
        this.sources = newestFirst.toArray(new EntryCursor[0]);
        this.hideTombstones = hideTombstones;
        this.direction = descending ? -1 : 1;
        this.limit = limit;
        this.heap = new int[sources.length];
        this.heads = new byte[sources.length][];
        this.headLengths = new int[sources.length];
    }

    @Override
    public boolean next() throws IOException {
        if (!started) {
            started = true;
            for (int i = 0; i < sources.length; i++) {
                advance(i);
            }
        }
        while (heapSize > 0) {
            copyFrom(sources[heap[0]]);
            // Advance every source positioned on this key (the winner first: it is the heap top).
            while (heapSize > 0) {
                int top = heap[0];
                if (Arrays.compareUnsigned(heads[top], 0, headLengths[top], key, 0, keyLength) != 0) {
                    break;
                }
                pop();
                advance(top);
            }
            if (!(hideTombstones && tombstone)) {
                return true;
            }
        }
        keyLength = 0;
        valueLength = 0;
        return false;
    }

    /** Moves source {@code s} (not in the heap) to its next entry and pushes it, unless it ended or passed the limit. */
    private void advance(int s) throws IOException {
        EntryCursor c = sources[s];
        if (!c.next()) {
            return;
        }
        entriesRead++;
        byte[] k = c.key();
        int len = c.keyLength();
        if (limit != null) {
            int cmp = Arrays.compareUnsigned(k, 0, len, limit, 0, limit.length);
            if (direction > 0 ? cmp >= 0 : cmp < 0) {
                return; // past the limit: this source has nothing more for the merge
            }
        }
        heads[s] = k;
        headLengths[s] = len;
        push(s);
    }

    /** Entries read from the sources so far (including the one per source that was past the limit). */
    public long entriesRead() {
        return entriesRead;
    }

    private void copyFrom(EntryCursor c) {
        keyLength = c.keyLength();
        keyBuffer(keyLength);
        System.arraycopy(c.key(), 0, key, 0, keyLength);
        tombstone = c.isTombstone();
        valueLength = tombstone ? 0 : c.valueLength();
        valueBuffer(valueLength);
        if (valueLength > 0) {
            System.arraycopy(c.value(), 0, value, 0, valueLength);
        }
        lsn = c.lsn();
    }

    /** True if source {@code a}'s entry sorts before source {@code b}'s. */
    private boolean less(int a, int b) {
        int c = direction * Arrays.compareUnsigned(heads[a], 0, headLengths[a], heads[b], 0, headLengths[b]);
        return c < 0 || (c == 0 && a < b);
    }

    private void push(int source) {
        int i = heapSize++;
        heap[i] = source;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(heap[i], heap[parent])) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private int pop() {
        int top = heap[0];
        heap[0] = heap[--heapSize];
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int smallest = i;
            if (l < heapSize && less(heap[l], heap[smallest])) {
                smallest = l;
            }
            if (r < heapSize && less(heap[r], heap[smallest])) {
                smallest = r;
            }
            if (smallest == i) {
                return top;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int i, int j) {
        int t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }

    @Override
    public void close() throws IOException {
        EntryCursor.closeAll(sources);
    }
}
