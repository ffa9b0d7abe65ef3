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

    static byte[] encode(List<TreeOp> ops) {
        int size = HEADER_BYTES;
        for (TreeOp op : ops) {
            size += opBytes(op);
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(VERSION).putInt(ops.size());
        for (TreeOp op : ops) {
            b.put((byte) (op.delete() ? 1 : 0)).putLong(op.treeId()).putInt(op.key().length).put(op.key())
                    .putInt(op.value().length).put(op.value());
        }
        return b.array();
    }

    /**
     * @throws IllegalArgumentException if the payload is not a commit record of a known version
     */
    static List<TreeOp> decode(ByteBuffer payload) {
        ByteBuffer b = payload.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        try {
            byte version = b.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("commit record version " + version + ", this build reads " + VERSION);
            }
            int n = b.getInt();
            // Every op takes at least MIN_OP_BYTES: a count the payload cannot hold is damage, and
            // checking it first keeps a damaged count from sizing the list.
            if (n < 0 || n > b.remaining() / MIN_OP_BYTES) {
                throw new IllegalArgumentException("commit record claims " + n + " operations in " + b.remaining() + " bytes");
            }
            List<TreeOp> ops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                boolean delete = b.get() == 1;
                long tree = b.getLong();
                byte[] key = bytes(b, "key");
                byte[] value = bytes(b, "value");
                ops.add(new TreeOp(tree, delete, key, value));
            }
            return ops;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated commit record", e);
        }
    }

    /** A u32 length and that many bytes; the length is checked against what is left before allocating. */
    private static byte[] bytes(ByteBuffer b, String what) {
        int length = b.getInt();
        if (length < 0 || length > b.remaining()) {
            throw new IllegalArgumentException(what + " length " + length + " exceeds the " + b.remaining()
                    + " bytes left in the commit record");
        }
        byte[] out = new byte[length];
        b.get(out);
        return out;
    }
}
