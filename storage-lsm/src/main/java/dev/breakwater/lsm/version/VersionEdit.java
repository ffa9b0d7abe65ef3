package dev.breakwater.lsm.version;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A delta between two versions (LevelDB's {@code VersionEdit}): the only way a tree's set of disk
 * components changes. A flush adds tables; a merge removes its inputs and adds its outputs; level
 * changes insert or remove an empty level. Edits are appended to the manifest and synced before the
 * resulting version is installed, so a tree reopens to exactly its last installed version.
 *
 * <p>The encoding is described in {@link ManifestFormat}. Build an edit with the fluent methods,
 * then hand it to the version set; edits are immutable once encoded.
 *
 * <p>Thread safety: none; built by one thread.
 */
public final class VersionEdit {

    /** Kinds of operation, in the order of their tag bytes in the encoding. */
    public enum Kind {
        NEW_RUN, ADD_TABLE, REMOVE_TABLE, INSERT_LEVEL, REMOVE_LEVEL
    }

    /**
     * One operation.
     *
     * @param kind   what to do
     * @param level  the level it applies to (for INSERT_LEVEL: the index the new level gets)
     * @param runId  the run (NEW_RUN, ADD_TABLE, REMOVE_TABLE)
     * @param newest for NEW_RUN: put the run at the newest end of the level (else the oldest)
     * @param table  for ADD_TABLE: the table; for REMOVE_TABLE: only its file number matters
     */
    public record Op(Kind kind, int level, long runId, boolean newest, TableMeta table) {
    }

    private final List<Op> ops = new ArrayList<>();
    private long lastFlushedLsn = -1;
    private long nextFileNumber = -1;
    private long nextRunId = -1;

    public VersionEdit newRun(int level, long runId, boolean newest) {
        ops.add(new Op(Kind.NEW_RUN, level, runId, newest, null));
        return this;
    }

    public VersionEdit addTable(int level, long runId, TableMeta table) {
        ops.add(new Op(Kind.ADD_TABLE, level, runId, false, table));
        return this;
    }

    public VersionEdit removeTable(int level, long runId, TableMeta table) {
        ops.add(new Op(Kind.REMOVE_TABLE, level, runId, false, table));
        return this;
    }

    public VersionEdit insertLevel(int index) {
        ops.add(new Op(Kind.INSERT_LEVEL, index, 0, false, null));
        return this;
    }

    public VersionEdit removeLevel(int index) {
        ops.add(new Op(Kind.REMOVE_LEVEL, index, 0, false, null));
        return this;
    }

    /** Records that every write up to {@code lsn} is now in disk components. */
    public VersionEdit setLastFlushedLsn(long lsn) {
        this.lastFlushedLsn = lsn;
        return this;
    }

    public VersionEdit setNextFileNumber(long n) {
        this.nextFileNumber = n;
        return this;
    }

    public VersionEdit setNextRunId(long n) {
        this.nextRunId = n;
        return this;
    }

    public List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }

    /** -1 when the edit does not change it. */
    public long lastFlushedLsn() {
        return lastFlushedLsn;
    }

    public long nextFileNumber() {
        return nextFileNumber;
    }

    public long nextRunId() {
        return nextRunId;
    }

    /** Tables this edit adds. */
    public List<TableMeta> addedTables() {
        List<TableMeta> out = new ArrayList<>();
        for (Op op : ops) {
            if (op.kind() == Kind.ADD_TABLE) {
                out.add(op.table());
            }
        }
        return out;
    }

    /** Encodes the edit as the payload of one manifest record ({@link ManifestFormat}). */
    public byte[] encode() {
        int size = 24 + 4;
        for (Op op : ops) {
            size += 1 + 4 + 8 + 1;
            if (op.kind() == Kind.ADD_TABLE || op.kind() == Kind.REMOVE_TABLE) {
                size += 8 * 5 + 8 + op.table().smallest().length + op.table().largest().length;
            }
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(lastFlushedLsn).putLong(nextFileNumber).putLong(nextRunId).putInt(ops.size());
        for (Op op : ops) {
            b.put((byte) op.kind().ordinal()).putInt(op.level()).putLong(op.runId()).put((byte) (op.newest() ? 1 : 0));
            if (op.kind() == Kind.ADD_TABLE || op.kind() == Kind.REMOVE_TABLE) {
                TableMeta t = op.table();
                b.putLong(t.fileNumber()).putLong(t.sizeBytes()).putLong(t.entries()).putLong(t.minLsn()).putLong(t.maxLsn());
                b.putInt(t.smallest().length).put(t.smallest()).putInt(t.largest().length).put(t.largest());
            }
        }
        return b.array();
    }

    /**
     * Decodes a payload written by {@link #encode()}.
     *
     * @throws IllegalArgumentException if the payload is malformed
     */
    public static VersionEdit decode(byte[] payload) {
        try {
            ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
            VersionEdit e = new VersionEdit();
            e.lastFlushedLsn = b.getLong();
            e.nextFileNumber = b.getLong();
            e.nextRunId = b.getLong();
            int n = b.getInt();
            Kind[] kinds = Kind.values();
            for (int i = 0; i < n; i++) {
                int tag = b.get();
                if (tag < 0 || tag >= kinds.length) {
                    throw new IllegalArgumentException("unknown version edit operation " + tag);
                }
                Kind kind = kinds[tag];
                int level = b.getInt();
                long runId = b.getLong();
                boolean newest = b.get() != 0;
                TableMeta table = null;
                if (kind == Kind.ADD_TABLE || kind == Kind.REMOVE_TABLE) {
                    long file = b.getLong();
                    long size = b.getLong();
                    long entries = b.getLong();
                    long minLsn = b.getLong();
                    long maxLsn = b.getLong();
                    byte[] smallest = bytes(b, "smallest key");
                    byte[] largest = bytes(b, "largest key");
                    table = new TableMeta(file, size, entries, smallest, largest, minLsn, maxLsn);
                }
                e.ops.add(new Op(kind, level, runId, newest, table));
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " trailing bytes after version edit");
            }
            return e;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated version edit", e);
        }
    }

    /**
     * Reads a u32 length and that many bytes. The length is checked against the bytes left before
     * anything is allocated, so a damaged length cannot ask for gigabytes.
     */
    private static byte[] bytes(ByteBuffer b, String what) {
        int length = b.getInt();
        if (length < 0 || length > b.remaining()) {
            throw new IllegalArgumentException(what + " length " + length + " exceeds the " + b.remaining()
                    + " bytes left in the version edit");
        }
        byte[] out = new byte[length];
        b.get(out);
        return out;
    }

    @Override
    public String toString() {
        return "VersionEdit" + ops + (lastFlushedLsn >= 0 ? " flushedLsn=" + lastFlushedLsn : "");
    }
}
