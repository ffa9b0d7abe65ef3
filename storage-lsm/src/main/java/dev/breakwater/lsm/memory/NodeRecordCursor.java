package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;

/**
 * A {@link RecordCursor} over a chain of nodes linked at level 0 ({@link SkipListNodeDescriptor}):
 * a skip list, or one bucket of a hash kind. Versions of a key are adjacent, newest first, so the
 * cursor yields the first node of each key and skips the rest by comparing each node's key with the
 * one it yielded last, in place.
 *
 * <p>Invariant: {@code node} is the next node to examine; {@code current} the last node yielded
 * ({@link SkipListNodeDescriptor#NIL} before the first).
 *
 * <p>Thread safety: one thread; the chain must not change (the component is sealed).
 */
final class NodeRecordCursor implements RecordCursor {

    private long node;
    private long current = NIL;
    private long currentKey;
    private int currentKeyLength;

    /** @param first the first node of the chain, or {@link SkipListNodeDescriptor#NIL} */
    NodeRecordCursor(long first) {
        this.node = first;
    }

    @Override
    public boolean next() {
        long n = node;
        if (current != NIL) {
            while (n != NIL && OffHeapKeys.compare(SkipListNodes.keyAddress(n), SkipListNodes.keyLength(n), currentKey,
                    currentKeyLength) == 0) {
                n = SkipListNodes.next(n, 0);
            }
        }
        if (n == NIL) {
            node = NIL;
            return false;
        }
        current = n;
        currentKey = SkipListNodes.keyAddress(n);
        currentKeyLength = SkipListNodes.keyLength(n);
        node = SkipListNodes.next(n, 0);
        return true;
    }

    @Override
    public long keyAddress() {
        return currentKey;
    }

    @Override
    public int keyLength() {
        return currentKeyLength;
    }

    @Override
    public long valueAddress() {
        return currentKey + currentKeyLength;
    }

    @Override
    public int valueLength() {
        return SkipListNodes.valueLength(current);
    }

    @Override
    public boolean isTombstone() {
        return SkipListNodes.isTombstone(current);
    }

    @Override
    public long seq() {
        return SkipListNodes.lsn(current);
    }

    @Override
    public void close() {
        node = NIL;
    }
}
