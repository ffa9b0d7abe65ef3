package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;


/**
 * A descending cursor over a multi-version node structure in entry order (key ascending, LSN
 * descending; nodes in the {@link SkipListNodeDescriptor} layout): for each key below an exclusive
 * upper bound, its newest version with an LSN at or below the snapshot (tombstones included), keys
 * strictly decreasing. The structures it serves link nodes forward only, so each step is two
 * searches: the last node whose key is below the key just returned (the oldest version of the
 * previous key), then the first version of that key visible at the snapshot (which may start from
 * the first search's path; the skip list does). A key with no
 * visible version is passed over and the search repeats below it. Nothing is kept between steps
 * but the last key returned, so a step costs {@code O(log n)} on a skip-list or a sorted index and
 * {@code O(bucket)} on a linked list, and nothing is allocated per entry once the arrays are large
 * enough.
 *
 * <p>Invariant: {@code bound[0, boundLength)} (or no bound, before the first step of an unbounded
 * cursor) is an exclusive upper bound on every key still to return, and every key at or above it
 * that lies below the cursor's original bound has been returned or has no visible version.
 *
 * <p>Thread safety: one thread. Writers may insert concurrently (a new version is newer than any
 * snapshot a cursor reads, so it changes no answer); the structure must stay open.
 */
abstract class ReverseNodeCursor extends NodeEntryCursor {

    private final long snapshotLsn;
    private byte[] bound = new byte[64];
    private int boundLength;
    private boolean bounded;
    private boolean done;

    /** @param toExclusive upper bound {@code [0, toLen)}, or null for none (copied) */
    ReverseNodeCursor(byte[] toExclusive, int toLen, long snapshotLsn) {
        this.snapshotLsn = snapshotLsn;
        if (toExclusive != null) {
            setBound(toExclusive, toLen);
        }
    }

    /** The last node whose key is below {@code key[0, keyLength)}, or the last node if {@code key} is null; NIL if none. */
    abstract long lastBelow(byte[] key, int keyLength);

    /**
     * The first node not before {@code (key, lsn)} in entry order, or NIL. Called only right after
     * {@link #lastBelow}, for the key of the node it returned, so an implementation may start from
     * the first search's path.
     */
    abstract long seek(byte[] key, int keyLength, long lsn);

    @Override
    public boolean next() {
        if (done) {
            return false;
        }
        while (true) {
            long p = lastBelow(bounded ? bound : null, boundLength);
            if (p == NIL) {
                done = true;
                keyLength = 0;
                valueLength = 0;
                return false;
            }
            int length = SkipListNodes.keyLength(p);
            OffHeapKeys.copyOut(SkipListNodes.keyAddress(p), boundBuffer(length), length);
            long n = seek(bound, boundLength, snapshotLsn);
            if (n != NIL && SkipListNodes.compareKey(n, bound, boundLength) == 0) {
                copyNode(n);
                return true;
            }
        }
    }

    private byte[] boundBuffer(int length) {
        if (bound.length < length) {
            bound = new byte[Math.max(length, bound.length * 2)];
        }
        boundLength = length;
        bounded = true;
        return bound;
    }

    private void setBound(byte[] key, int length) {
        System.arraycopy(key, 0, boundBuffer(length), 0, length);
    }

    @Override
    public void close() {
        done = true;
        keyLength = 0;
        valueLength = 0;
    }
}
