package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.BufferedEntryCursor;

/**
 * Base of the memory-component cursors, whose entries are nodes in the {@link SkipListNodeDescriptor}
 * layout (skip-list and hash nodes, vector records): copies a node's key, value, tombstone flag and
 * LSN into the cursor's reused arrays, allocating nothing once they are large enough.
 *
 * <p>Thread safety: none; a cursor is used by one thread.
 */
abstract class NodeEntryCursor extends BufferedEntryCursor {

    /** Makes {@code node} the current entry. Requires: the node is published and its component open. */
    final void copyNode(long node) {
        keyLength = SkipListNodes.keyLength(node);
        keyBuffer(keyLength);
        long keyAddress = SkipListNodes.keyAddress(node);
        OffHeapKeys.copyOut(keyAddress, key, keyLength);
        tombstone = SkipListNodes.isTombstone(node);
        valueLength = SkipListNodes.valueLength(node);
        valueBuffer(valueLength);
        OffHeapKeys.copyOut(keyAddress + keyLength, value, valueLength);
        lsn = SkipListNodes.lsn(node);
    }
}
