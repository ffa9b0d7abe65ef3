package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.FLAGS_OFFSET;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.FLAG_TOMBSTONE;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.HEIGHT_OFFSET;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.KEY_LENGTH_OFFSET;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.LSN_OFFSET;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.VALUE_LENGTH_OFFSET;

import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Reads and writes the fields of a node laid out as {@link SkipListNodeDescriptor} describes, by
 * absolute address. Next pointers are read with volatile semantics and changed by CAS: that is what
 * publishes a node (everything written before the CAS that links it is visible to a reader that
 * followed the link). All other fields are plain: written once before publication.
 *
 * <p>Thread safety: stateless; the memory ordering is as stated above.
 */
final class SkipListNodes {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    private SkipListNodes() {
    }

    /** Writes every field but the next pointers and copies key and value in. Before publication only. */
    static void init(long node, int height, boolean tombstone, byte[] key, int keyLength, byte[] value, int valueLength, long lsn) {
        MEMORY.writeLong(node, 0L); // height, flags and the unused bytes: a deterministic header
        MEMORY.writeByte(node + HEIGHT_OFFSET, (byte) height);
        MEMORY.writeByte(node + FLAGS_OFFSET, (byte) (tombstone ? FLAG_TOMBSTONE : 0));
        MEMORY.writeInt(node + KEY_LENGTH_OFFSET, keyLength);
        MEMORY.writeLong(node + VALUE_LENGTH_OFFSET, 0L);
        MEMORY.writeInt(node + VALUE_LENGTH_OFFSET, valueLength);
        MEMORY.writeLong(node + LSN_OFFSET, lsn);
        long keyAddress = SkipListNodeDescriptor.keyAddress(node, height);
        OffHeapKeys.copyIn(key, keyLength, keyAddress);
        if (valueLength > 0) {
            OffHeapKeys.copyIn(value, valueLength, keyAddress + keyLength);
        }
    }

    static int height(long node) {
        return MEMORY.readByte(node + HEIGHT_OFFSET);
    }

    static boolean isTombstone(long node) {
        return (MEMORY.readByte(node + FLAGS_OFFSET) & FLAG_TOMBSTONE) != 0;
    }

    static int keyLength(long node) {
        return MEMORY.readInt(node + KEY_LENGTH_OFFSET);
    }

    static int valueLength(long node) {
        return MEMORY.readInt(node + VALUE_LENGTH_OFFSET);
    }

    static long lsn(long node) {
        return MEMORY.readLong(node + LSN_OFFSET);
    }

    static long keyAddress(long node) {
        return SkipListNodeDescriptor.keyAddress(node, height(node));
    }

    static long valueAddress(long node) {
        return keyAddress(node) + keyLength(node);
    }

    /** A heap copy of the node's key. */
    static byte[] copyKey(long node) {
        return MemorySSTable.copyKey(keyAddress(node), keyLength(node));
    }

    /** Compares the node's key with {@code key[0..keyLength)}. */
    static int compareKey(long node, byte[] key, int keyLength) {
        return OffHeapKeys.compare(keyAddress(node), keyLength(node), key, keyLength);
    }

    /**
     * The answer of a point lookup that stopped at {@code node} (the first node at or after the key
     * visible at the snapshot, or {@code NIL}): absent unless its key is {@code key[0..keyLength)};
     * otherwise its value (or tombstone) and LSN into {@code out}.
     */
    static LookupResult lookup(long node, byte[] key, int keyLength, ValueHolder out) {
        if (node == SkipListNodeDescriptor.NIL || compareKey(node, key, keyLength) != 0) {
            return LookupResult.ABSENT;
        }
        long lsn = lsn(node);
        if (isTombstone(node)) {
            out.prepare(0, lsn);
            return LookupResult.DELETED;
        }
        int length = valueLength(node);
        OffHeapKeys.copyOut(valueAddress(node), out.prepare(length, lsn), length);
        return LookupResult.FOUND;
    }

    static long next(long node, int level) {
        return MEMORY.readVolatileLong(SkipListNodeDescriptor.nextAddress(node, level));
    }

    /** Plain write of a next pointer of a node not yet reachable at {@code level}. */
    static void setNextUnpublished(long node, int level, long next) {
        MEMORY.writeLong(SkipListNodeDescriptor.nextAddress(node, level), next);
    }

    static boolean casNext(long node, int level, long expected, long next) {
        return MEMORY.compareAndSwapLong(SkipListNodeDescriptor.nextAddress(node, level), expected, next);
    }
}
