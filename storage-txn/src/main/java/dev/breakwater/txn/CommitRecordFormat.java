package dev.breakwater.txn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a transaction's log record (the log adds its own header, LSN and checksum):
 *
 * <pre>
 *  u8 format version (1) | u32 op count
 *  op count x { u8 kind (0 put, 1 delete) | i64 tree id | u32 key length | key | u32 value length | value }
 * </pre>
 * Little endian. One record per committed transaction; commit-time, redo-only logging.
 */
final class CommitRecordFormat {

    static final byte VERSION = 1;
    /** Bytes before the first op: version and op count. */
    static final int HEADER_BYTES = 1 + 4;
    /** Bytes of an operation with an empty key and value: kind, tree id, two lengths. */
    private static final int MIN_OP_BYTES = 1 + 8 + 4 + 4;

    private CommitRecordFormat() {
    }

    /** Bytes one op takes in the payload. */
    static int opBytes(TreeOp op) {
        return 1 + 8 + 4 + op.key().length + 4 + op.value().length;
    }

    /** Bytes of the payload that holds {@code ops}. */
    static int payloadBytes(List<TreeOp> ops) {
        int size = HEADER_BYTES;
        for (int i = 0, n = ops.size(); i < n; i++) {
            size += opBytes(ops.get(i));
        }
        return size;
    }

    /** The payload of {@code ops} in a new array of exactly its size. */
    static byte[] encode(List<TreeOp> ops) {
        return encode(ops, null).array();
    }

    /**
     * Encodes {@code ops} into {@code into} when it has the room (its old contents are overwritten),
     * else into a new little-endian heap buffer of exactly the payload's size; returns the buffer
     * used, with position 0 and limit the payload's end. The bytes are the same either way: what
     * the commit path uses to encode into a reused buffer without allocating.
     *
     * @param into a little-endian heap buffer to reuse, or null
     */
    static ByteBuffer encode(List<TreeOp> ops, ByteBuffer into) {
        return encode(ops, payloadBytes(ops), into);
    }

    /** As {@link #encode(List, ByteBuffer)}, for a caller that already has {@code size = payloadBytes(ops)}. */
    static ByteBuffer encode(List<TreeOp> ops, int size, ByteBuffer into) {
        ByteBuffer b = into != null && into.capacity() >= size ? into.clear()
                : ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(VERSION).putInt(ops.size());
        for (int i = 0, n = ops.size(); i < n; i++) {
            TreeOp op = ops.get(i);
            b.put((byte) (op.delete() ? 1 : 0)).putLong(op.treeId()).putInt(op.key().length).put(op.key())
                    .putInt(op.value().length).put(op.value());
        }
        return b.flip();
    }

    /**
     * @throws IllegalArgumentException if the payload is not a commit record of a known version
     */
    static List<TreeOp> decode(ByteBuffer payload) {
        List<TreeOp> ops = new ArrayList<>();
        visit(payload, (delete, treeId, b, keyOffset, keyLength, valueOffset, valueLength) -> {
            byte[] key = new byte[keyLength];
            byte[] value = new byte[valueLength];
            b.get(keyOffset, key);
            b.get(valueOffset, value);
            ops.add(new TreeOp(treeId, delete, key, value));
        });
        return ops;
    }

    /** Receives the operations of one commit record in order, as positions in the payload buffer. */
    @FunctionalInterface
    interface OpVisitor {
        /**
         * One operation: its key is {@code keyLength} bytes of {@code payload} at absolute index
         * {@code keyOffset}, its value likewise. The buffer is the caller's, valid during the call only.
         */
        void op(boolean delete, long treeId, ByteBuffer payload, int keyOffset, int keyLength, int valueOffset,
                int valueLength);
    }

    /**
     * Checks the payload's framing and passes each operation to {@code visitor} without copying or
     * allocating: what recovery uses. Every length is checked against the bytes left before the
     * visitor sees it, so a damaged record fails here, before any of its operations is visited.
     *
     * @return the number of operations
     * @throws IllegalArgumentException if the payload is not a commit record of a known version
     */
    static int visit(ByteBuffer payload, OpVisitor visitor) {
        int pos = payload.position();
        int limit = payload.limit();
        ByteBuffer b = payload.order() == ByteOrder.LITTLE_ENDIAN ? payload
                : payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (limit - pos < HEADER_BYTES) {
            throw new IllegalArgumentException("truncated commit record");
        }
        byte version = b.get(pos);
        if (version != VERSION) {
            throw new IllegalArgumentException("commit record version " + version + ", this build reads " + VERSION);
        }
        int n = b.getInt(pos + 1);
        pos += HEADER_BYTES;
        // Every op takes at least MIN_OP_BYTES: a count the payload cannot hold is damage.
        if (n < 0 || n > (limit - pos) / MIN_OP_BYTES) {
            throw new IllegalArgumentException("commit record claims " + n + " operations in " + (limit - pos) + " bytes");
        }
        // Check the whole record first so that a damaged one visits nothing.
        int check = pos;
        for (int i = 0; i < n; i++) {
            check = checkedEnd(b, check + 1 + 8, limit, "key");
            check = checkedEnd(b, check, limit, "value");
        }
        for (int i = 0; i < n; i++) {
            boolean delete = b.get(pos) == 1;
            long tree = b.getLong(pos + 1);
            int keyLength = b.getInt(pos + 9);
            int keyOffset = pos + 13;
            int valueLength = b.getInt(keyOffset + keyLength);
            int valueOffset = keyOffset + keyLength + 4;
            visitor.op(delete, tree, b, keyOffset, keyLength, valueOffset, valueLength);
            pos = valueOffset + valueLength;
        }
        return n;
    }

    /** The end of a u32 length at {@code at} and the bytes it counts, checked against {@code limit}. */
    private static int checkedEnd(ByteBuffer b, int at, int limit, String what) {
        if (at < 0 || limit - at < 4) {
            throw new IllegalArgumentException("truncated commit record");
        }
        int length = b.getInt(at);
        int left = limit - at - 4;
        if (length < 0 || length > left) {
            throw new IllegalArgumentException(what + " length " + length + " exceeds the " + left
                    + " bytes left in the commit record");
        }
        return at + 4 + length;
    }
}
