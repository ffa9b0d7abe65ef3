package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * The cursor a range scan returns: the merged, tombstone-free view of every component of one
 * snapshot, cut off at the range's far end: an exclusive upper bound for an ascending scan, an
 * inclusive lower bound for a descending one (whose sources already start below the upper bound).
 * Holds the snapshot (its memory components, memory SSTables and disk version referenced) until
 * closed; {@link #close()} releases it once.
 *
 * <p>Thread safety: none; one thread.
 */
final class TreeCursor implements EntryCursor {

    private final MergingCursor merged;
    /** Ascending: the exclusive upper bound; descending: the inclusive lower bound; null for none. */
    private final byte[] limit;
    private final boolean descending;
    private final SuperVersion snapshot;
    private boolean closed;
    private boolean exhausted;

    TreeCursor(MergingCursor merged, byte[] limit, boolean descending, SuperVersion snapshot) {
        this.merged = merged;
        this.limit = limit;
        this.descending = descending;
        this.snapshot = snapshot;
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
        if (!merged.next() || (limit != null && pastLimit(
                Arrays.compareUnsigned(merged.key(), 0, merged.keyLength(), limit, 0, limit.length)))) {
            exhausted = true;
            return false;
        }
        return true;
    }

    private boolean pastLimit(int comparedToLimit) {
        return descending ? comparedToLimit < 0 : comparedToLimit >= 0;
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
            try {
                merged.close();
            } finally {
                snapshot.unref();
            }
        }
    }
}
