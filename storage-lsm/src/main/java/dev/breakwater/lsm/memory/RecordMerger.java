package dev.breakwater.lsm.memory;

import java.util.List;

/**
 * Merges sorted {@link RecordCursor}s, newest first, into one, keeping the newest version of each
 * key: the reconciliation of a seal or memory merge, done on off-heap keys in place (no copy). On
 * equal keys the source with the lower index wins and the others are advanced past the key.
 * Tombstones pass through (memory merges never drop them: older data may be on disk).
 *
 * <p>A binary min-heap of source indices ordered by (current key, source index). The winner's
 * fields are remembered as addresses, which stay valid after its source advances (records never
 * move while their source is held; see {@link RecordCursor}). Each source's current key address,
 * length and first eight bytes ({@link OffHeapKeys#prefix}) are kept in arrays when it advances, so
 * a heap comparison is two array reads and, for keys that differ in their first eight bytes, no
 * read of the keys and no call on the sources: those compares were a fifth of the flush thread in
 * the issue-13 profile (docs/benchmarks-ycsb.md).
 *
 * <p>Invariants: (1) every source in the heap is positioned on a record not yet returned and with a
 * key greater than every key returned; (2) keys returned strictly increase.
 *
 * <p>Thread safety: one thread. Closing closes every source.
 */
public final class RecordMerger implements RecordCursor {

    private final RecordCursor[] sources;
    /** Per source: the log LSN floor to report when the source does not know its own ({@link RecordCursor#UNKNOWN_LOG_LSN}: none). */
    private final long[] floors;
    private final int[] heap;
    /** Per source: its current record's key address, key length and key prefix, set when it advances. */
    private final long[] keyAddresses;
    private final int[] keyLengths;
    private final long[] prefixes;
    private int heapSize;
    private boolean started;
    private long keyAddress;
    private int keyLength;
    private long valueAddress;
    private int valueLength;
    private boolean tombstone;
    private long seq;
    private long logLsnFloor;

    /** @param newestFirst sources, newest first; each strictly increasing */
    public RecordMerger(List<? extends RecordCursor> newestFirst) {
        this(newestFirst, null);
    }

    /**
     * @param newestFirst sources, newest first; each strictly increasing
     * @param floors      per source, the log LSN floor of its records when the source itself reports
     *                    {@link RecordCursor#UNKNOWN_LOG_LSN} (a sealed M0, whose minimum log LSN its
     *                    memory table knows); null: none
     */
    public RecordMerger(List<? extends RecordCursor> newestFirst, long[] floors) {
        this.sources = newestFirst.toArray(new RecordCursor[0]);
        if (floors != null && floors.length != sources.length) {
            throw new IllegalArgumentException(floors.length + " floors for " + sources.length + " sources");
        }
        this.floors = floors;
        this.heap = new int[sources.length];
        this.keyAddresses = new long[sources.length];
        this.keyLengths = new int[sources.length];
        this.prefixes = new long[sources.length];
    }

    /** Advances source {@code s}, keeping its key fields; false at its end. */
    private boolean advance(int s) {
        RecordCursor c = sources[s];
        if (!c.next()) {
            return false;
        }
        long address = c.keyAddress();
        int length = c.keyLength();
        keyAddresses[s] = address;
        keyLengths[s] = length;
        prefixes[s] = OffHeapKeys.prefix(address, length);
        return true;
    }

    @Override
    public boolean next() {
        if (!started) {
            started = true;
            for (int i = 0; i < sources.length; i++) {
                if (advance(i)) {
                    push(i);
                }
            }
        }
        if (heapSize == 0) {
            return false;
        }
        int winner = heap[0];
        RecordCursor w = sources[winner];
        keyAddress = keyAddresses[winner];
        keyLength = keyLengths[winner];
        long prefix = prefixes[winner];
        tombstone = w.isTombstone();
        valueLength = tombstone ? 0 : w.valueLength();
        valueAddress = w.valueAddress();
        seq = w.seq();
        long floor = w.logLsnFloor();
        logLsnFloor = floor == UNKNOWN_LOG_LSN && floors != null ? floors[winner] : floor;
        // Advance every source positioned on this key, the winner (the heap top) first.
        boolean first = true;
        while (heapSize > 0) {
            int s = heap[0];
            if (!first && (prefixes[s] != prefix
                    || OffHeapKeys.compare(keyAddresses[s], keyLengths[s], keyAddress, keyLength) != 0)) {
                break;
            }
            first = false; // only the first pass is the winner
            if (!advance(s)) {
                heap[0] = heap[--heapSize];
            }
            siftDown(0);
        }
        return true;
    }

    /** True if source {@code a}'s record sorts before source {@code b}'s. */
    private boolean less(int a, int b) {
        long pa = prefixes[a];
        long pb = prefixes[b];
        if (pa != pb) {
            return Long.compareUnsigned(pa, pb) < 0;
        }
        int c = OffHeapKeys.compare(keyAddresses[a], keyLengths[a], keyAddresses[b], keyLengths[b]);
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

    private void siftDown(int i) {
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
                return;
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
    public long keyAddress() {
        return keyAddress;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public long valueAddress() {
        return valueAddress;
    }

    @Override
    public int valueLength() {
        return valueLength;
    }

    @Override
    public boolean isTombstone() {
        return tombstone;
    }

    @Override
    public long seq() {
        return seq;
    }

    /** The winning source's floor (the newest version's): older versions of the key are not kept. */
    @Override
    public long logLsnFloor() {
        return logLsnFloor;
    }

    @Override
    public void close() {
        heapSize = 0;
        started = true;
        for (RecordCursor c : sources) {
            c.close();
        }
    }
}
