package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The cursor a range scan returns: the merged, tombstone-free view of every component of one
 * snapshot, cut off at the range's far end by the merge's limit ({@link MergingCursor}: an exclusive
 * upper bound for an ascending scan, an inclusive lower bound for a descending one, whose sources
 * already start below the upper bound). Holds the snapshot (its memory components, memory SSTables
 * and disk version referenced) until closed; {@link #close()} releases it once.
 *
 * <p>Thread safety: none; one thread.
 */
final class TreeCursor implements EntryCursor {

    private final MergingCursor merged;
    private final SuperVersion snapshot;
    /** Where {@link #close()} adds the entries the merge read. */
    private final LongAdder entriesReadTotal;
    private boolean closed;
    private boolean exhausted;

    /**
     * @param merged           a merge built with the scan's limit
     * @param entriesReadTotal where {@link #close()} adds the entries the merge read from its sources
     */
    TreeCursor(MergingCursor merged, SuperVersion snapshot, LongAdder entriesReadTotal) {
        this.merged = merged;
        this.snapshot = snapshot;
        this.entriesReadTotal = entriesReadTotal;
    }

    /**
     * @throws IllegalStateException if the cursor was closed (its snapshot is released, so it has
     *                               nothing left to read)
     */
    @Override
    public boolean next() throws IOException {
        if (closed) {
            throw new IllegalStateException("next() on a closed scan cursor");
        }
        if (exhausted) {
            return false;
        }
        if (!merged.next()) {
            exhausted = true;
            return false;
        }
        return true;
    }

    @Override
    public byte[] key() {
        return merged.key();
    }

    @Override
    public int keyLength() {
        return merged.keyLength();
    }

    @Override
    public byte[] value() {
        return merged.value();
    }

    @Override
    public int valueLength() {
        return merged.valueLength();
    }

    @Override
    public boolean isTombstone() {
        return false;
    }

    @Override
    public long lsn() {
        return merged.lsn();
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            entriesReadTotal.add(merged.entriesRead());
            try {
                merged.close();
            } finally {
                snapshot.unref();
            }
        }
    }
}
