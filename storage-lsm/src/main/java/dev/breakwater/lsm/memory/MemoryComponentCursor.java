package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;


/**
 * A forward cursor over a {@link MemoryComponent} at one snapshot: for each key, its newest version
 * with an LSN at or below the snapshot (tombstones included), keys strictly increasing. Walks level 0
 * of the skip-list, skipping versions newer than the snapshot and then the older versions of each
 * key it yields. Copies key and value into arrays it owns and grows, so it allocates nothing per
 * entry once they are large enough.
 *
 * <p>Invariant: {@code node} is the next node to examine; every node before it that belongs to the
 * current key has been consumed.
 *
 * <p>Thread safety: one thread. Writers may insert concurrently; the component must stay open.
 */
final class MemoryComponentCursor extends NodeEntryCursor {

    private final long snapshotLsn;
    private long node;
    private boolean hasCurrent;
    private boolean done;

    MemoryComponentCursor(long start, long snapshotLsn) {
        this.node = start;
        this.snapshotLsn = snapshotLsn;
    }

    @Override
    public boolean next() {
        if (done) {
            return false;
        }
        long n = node;
        while (n != NIL && ((hasCurrent && SkipListNodes.compareKey(n, key, keyLength) == 0) || SkipListNodes.lsn(n) > snapshotLsn)) {
            n = SkipListNodes.next(n, 0);
        }
        if (n == NIL) {
            done = true;
            hasCurrent = false;
            node = NIL;
            return false;
        }
        copyNode(n);
        hasCurrent = true;
        node = SkipListNodes.next(n, 0);
        return true;
    }

    @Override
    public void close() {
        done = true;
        hasCurrent = false;
        node = NIL;
    }
}
