package dev.breakwater.txn;

import dev.breakwater.lsm.EntryCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * A k-way merge of the cursors of a partitioned dataset's partitions (one per partition, over the
 * same index and range) into one cursor in key order, ascending, or descending when the sources are
 * reverse cursors. Partitions hold disjoint keys (a primary key
 * lives in one partition, and a secondary entry ends with its record's primary key), so the merge
 * never meets equal keys and needs no recency rule, unlike the LSM tree's own merging cursor.
 *
 * <p>A binary min-heap of source positions ordered by each source's current key; the current entry
 * is the root's. Nothing is allocated per entry: {@link #key()} and {@link #value()} are the root
 * source's own arrays, valid until the next {@link #next()}.
 *
 * <p>Invariants: (1) {@code heap[0, size)} holds exactly the sources that have a current entry not
 * yet returned, or (after a {@code next()} returned true) the root is the one just returned;
 * (2) every heap node's key is below its children's (above them, for a descending merge).
 *
 * <p>Thread safety: none; one thread, like every {@link EntryCursor}.
 */
final class PartitionMergeCursor implements EntryCursor {

    private final EntryCursor[] sources;
    private final int[] heap;
    /** 1 for an ascending merge, -1 for a descending one: the sign applied to key comparisons. */
    private final int direction;
    private int size;
    private boolean started;
    private boolean closed;

    /**
     * Requires: {@code sources} non-empty, each positioned before its first entry and all in the
     * merge's order; takes ownership.
     */
    PartitionMergeCursor(EntryCursor[] sources, boolean descending) {
        this.sources = sources;
        this.heap = new int[sources.length];
        this.direction = descending ? -1 : 1;
    }

    @Override
    public boolean next() throws IOException {
        if (closed) {
            return false;
        }
        if (!started) {
            started = true;
            for (int i = 0; i < sources.length; i++) {
                if (sources[i].next()) {
                    heap[size++] = i;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
            return size > 0;
        }
        if (size == 0) {
            return false;
        }
        if (!sources[heap[0]].next()) {
            heap[0] = heap[--size];
        }
        if (size > 0) {
            siftDown(0);
        }
        return size > 0;
    }

    private void siftDown(int i) {
        int node = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], node)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = node;
    }

    private boolean less(int a, int b) {
        EntryCursor x = sources[a];
        EntryCursor y = sources[b];
        return direction * Arrays.compareUnsigned(x.key(), 0, x.keyLength(), y.key(), 0, y.keyLength()) < 0;
    }

    private EntryCursor current() {
        return sources[heap[0]];
    }

    @Override
    public byte[] key() {
        return current().key();
    }

    @Override
    public int keyLength() {
        return current().keyLength();
    }

    @Override
    public byte[] value() {
        return current().value();
    }

    @Override
    public int valueLength() {
        return current().valueLength();
    }

    @Override
    public boolean isTombstone() {
        return current().isTombstone();
    }

    @Override
    public long lsn() {
        return current().lsn();
    }

    /** Closes every source (each holds its partition's snapshot); the first failure is thrown. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        EntryCursor.closeAll(sources);
    }

    /** Closes the non-null cursors of a partly opened set, adding failures to {@code cause}. */
    static void closeAll(EntryCursor[] cursors, Throwable cause) {
        for (EntryCursor c : cursors) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException | RuntimeException e) {
                    cause.addSuppressed(e);
                }
            }
        }
    }
}
