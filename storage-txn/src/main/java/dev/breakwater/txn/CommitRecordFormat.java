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
            List<TreeOp> ops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                boolean delete = b.get() == 1;
                long tree = b.getLong();
                byte[] key = new byte[b.getInt()];
                b.get(key);
                byte[] value = new byte[b.getInt()];
                b.get(value);
                ops.add(new TreeOp(tree, delete, key, value));
            }
            return ops;
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("truncated commit record", e);
        }
    }
}
