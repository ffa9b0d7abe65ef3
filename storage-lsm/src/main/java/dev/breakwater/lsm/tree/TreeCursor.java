package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * The cursor a range scan returns: the merged, tombstone-free view of every component of one
 * snapshot, cut off at an exclusive upper bound. Holds the snapshot until closed.
 *
 * <p>Thread safety: none; one thread.
 */
final class TreeCursor implements EntryCursor {

    private final MergingCursor merged;
    private final byte[] toExclusive;
    private final SuperVersion snapshot;
    private boolean closed;
    private boolean exhausted;

    TreeCursor(MergingCursor merged, byte[] toExclusive, SuperVersion snapshot) {
        this.merged = merged;
        this.toExclusive = toExclusive;
        this.snapshot = snapshot;
    }

    @Override
    public boolean next() throws IOException {
        if (exhausted || closed) {
            return false;
        }
        if (!merged.next() || (toExclusive != null
                && Arrays.compareUnsigned(merged.key(), 0, merged.keyLength(), toExclusive, 0, toExclusive.length) >= 0)) {
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
            try {
                merged.close();
            } finally {
                snapshot.unref();
            }
        }
    }
}
