package dev.breakwater.txn;

import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.txn.log.RecordTrimmer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's answer to the log packer ({@link dev.breakwater.txn.log.SegmentPacker}): which tree
 * operations of a logged commit are still needed to rebuild the trees' memory after a crash.
 *
 * <p>An operation at LSN {@code x} on key {@code k} of tree {@code t} is kept iff {@code t} still
 * exists and {@link LsmTree#memoryVersionFloor t.memoryVersionFloor(k)} {@code <= x}: the newest
 * memory table holding a version of {@code k} may hold this write (its oldest LSN is not above it).
 * Otherwise the write left memory (flushed, so on disk) or a newer write of {@code k}, in a memory
 * table whose every write is newer than {@code x}, supersedes it; either way replay no longer needs
 * it. This reads the memory as it is, so nothing has to be reported by flushes or merges, and a
 * missed report can never drop a needed operation or keep a superseded one (which would be as
 * dangerous: see {@link dev.breakwater.txn.log.SegmentPacker}).
 *
 * <p>An operation left out is told as <em>superseded</em> when its key's floor is a real LSN above
 * {@code x} (a memory table whose every write is newer holds the key: the key's newest write is in
 * memory, and live), and as <em>gone</em> when no memory table holds the key or its tree is gone
 * ({@link RecordTrimmer}'s contract; the packer keeps segments whole only where that is safe).
 *
 * <p>Thread safety: called from the packer thread; holds the engine's DDL lock per record so that
 * a dataset drop cannot close a tree under a lookup.
 */
final class LiveOperationTrimmer implements RecordTrimmer {

    private final StorageEngine engine;

    LiveOperationTrimmer(StorageEngine engine) {
        this.engine = engine;
    }

    @Override
    public long oldestUnapplied() {
        return engine.oldestUnappliedLsn();
    }

    @Override
    public ByteBuffer trim(long lsn, ByteBuffer payload) throws IOException {
        return trim(lsn, payload, IGNORED);
    }

    @Override
    public ByteBuffer trim(long lsn, ByteBuffer payload, Dropped dropped) throws IOException {
        List<TreeOp> ops;
        try {
            ops = CommitRecordFormat.decode(payload);
        } catch (IllegalArgumentException e) {
            throw new IOException("log record at LSN " + lsn + " passed its checksum but is not a commit record: "
                    + e.getMessage(), e);
        }
        List<TreeOp> kept = new ArrayList<>(ops.size());
        synchronized (engine.ddlLock) {
            for (TreeOp op : ops) {
                LsmTree tree = engine.trees.get(op.treeId());
                long floor = tree == null ? Long.MAX_VALUE : tree.memoryVersionFloor(op.key(), op.key().length);
                if (floor <= lsn) {
                    kept.add(op);
                } else {
                    dropped.dropped(RecordTrimmer.keyHash(op.treeId(), op.key(), op.key().length), floor == Long.MAX_VALUE);
                }
            }
        }
        if (kept.size() == ops.size()) {
            return payload;
        }
        return kept.isEmpty() ? null : ByteBuffer.wrap(CommitRecordFormat.encode(kept));
    }

    private static final Dropped IGNORED = new Dropped() {
        @Override
        public void dropped(long keyHash, boolean gone) {
        }

        @Override
        public void unknown() {
        }
    };
}
