package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;

/**
 * A {@link RecordCursor} over a chain of nodes linked at level 0 ({@link SkipListNodeDescriptor}):
 * a skip list, or one bucket of a hash kind. Versions of a key are adjacent, newest first, so the
 * cursor yields the first node of each key and skips the rest by comparing each node's key with the
 * one it yielded last, in place.
 *
 * <p>Invariant: {@code node} is the next node to examine.
 *
 * <p>Thread safety: one thread; the chain must not change (the component is sealed).
 */
final class NodeRecordCursor extends NodeRecordAccessors {

    private long node;

    /** @param first the first node of the chain, or {@link SkipListNodeDescriptor#NIL} */
    NodeRecordCursor(long first) {
        this.node = first;
    }

    @Override
    public boolean next() {
        long n = node;
        while (n != NIL && sameKeyAsCurrent(n)) {
            n = SkipListNodes.next(n, 0);
        }
        if (n == NIL) {
            node = NIL;
            return false;
        }
        node = SkipListNodes.next(n, 0);
        return moveTo(n);
    }

    @Override
    public void close() {
        node = NIL;
    }
}
