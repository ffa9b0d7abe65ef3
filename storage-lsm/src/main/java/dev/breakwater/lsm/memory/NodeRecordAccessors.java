package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;

/**
 * The part of a {@link RecordCursor} over memory-component nodes ({@link SkipListNodeDescriptor})
 * that does not depend on how the nodes are found: the current record's key, value, tombstone flag
 * and sequence, read in place from its node. Subclasses choose the next node, skip older versions
 * with {@link #sameKeyAsCurrent}, and position with {@link #moveTo}.
 *
 * <p>Invariant: {@code current} is the last node yielded, {@link SkipListNodeDescriptor#NIL} before
 * the first; {@code currentKey}/{@code currentKeyLength} are its key.
 *
 * <p>Thread safety: one thread; the nodes must not change (the component is sealed).
 */
abstract class NodeRecordAccessors implements RecordCursor {

    private long current = NIL;
    private long currentKey;
    private int currentKeyLength;

    /** Whether a record has been yielded and {@code node} holds the same key (an older version of it). */
    final boolean sameKeyAsCurrent(long node) {
        return current != NIL && OffHeapKeys.compare(SkipListNodes.keyAddress(node), SkipListNodes.keyLength(node),
                currentKey, currentKeyLength) == 0;
    }

    /** Makes {@code node} the current record; returns true for {@link #next}'s convenience. */
    final boolean moveTo(long node) {
        current = node;
        currentKey = SkipListNodes.keyAddress(node);
        currentKeyLength = SkipListNodes.keyLength(node);
        return true;
    }

    @Override
    public final long keyAddress() {
        return currentKey;
    }

    @Override
    public final int keyLength() {
        return currentKeyLength;
    }

    @Override
    public final long valueAddress() {
        return currentKey + currentKeyLength;
    }

    @Override
    public final int valueLength() {
        return SkipListNodes.valueLength(current);
    }

    @Override
    public final boolean isTombstone() {
        return SkipListNodes.isTombstone(current);
    }

    @Override
    public final long seq() {
        return SkipListNodes.lsn(current);
    }
}
