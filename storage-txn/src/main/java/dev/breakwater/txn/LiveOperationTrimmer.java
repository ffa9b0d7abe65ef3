package dev.breakwater.txn;

import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.txn.log.RecordTrimmer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's answer to the log packer ({@link dev.breakwater.txn.log.SegmentPacker}): which tree
 * operations of a logged commit are still needed to rebuild the trees' memory after a crash.
 *
 * <p>An operation at LSN {@code x} on key {@code k} of tree {@code t} is kept iff {@code t} still
 * exists, {@link LsmTree#memoryVersionFloor t.memoryVersionFloor(k)} {@code <= x} (the newest
 * memory table holding a version of {@code k} may hold this write: its oldest LSN is not above it),
 * and the newest visible version of {@code k} is this write's (same value, or both deletes).
 * Otherwise the write left memory (flushed, so on disk) or a newer write of {@code k} supersedes
 * it: in a memory table whose every write is newer than {@code x}, or, found by the value, in the
 * same table (a memory level merged from many sealed tables has an old oldest LSN, and without the
 * value test every write of its keys since then stayed in the log: session 13 of
 * docs/benchmarks-log-trim.md); either way replay no longer needs it. The value test is sound
 * because {@code x} is applied (its record is below the oldest unapplied commit) and memory, read
 * before disk, never holds a version older than one that left it: the newest visible version is
 * {@code x}'s own or a newer write's. Whether memory still holds that newer version (superseded) or
 * not (gone) is read again after the lookup. This reads the memory as it is, so nothing has to be
 * reported by flushes or merges, and a missed report can never drop a needed operation or keep a superseded one (which would be as
 * dangerous: see {@link dev.breakwater.txn.log.SegmentPacker}).
 *
 * <p>An operation left out is told as <em>superseded</em> when its key's floor is a real LSN above
 * {@code x} (a memory table whose every write is newer holds the key: the key's newest write is in
 * memory, and live), or when the value test found a newer write and memory still holds a version of
 * the key afterwards (that version is the key's newest write, newer than {@code x}, and live), and
 * as <em>gone</em> when no memory table holds the key or its tree is gone
 * ({@link RecordTrimmer}'s contract; the packer keeps segments whole only where that is safe).
 *
 * <p>Thread safety: called from the packer thread; holds the engine's DDL lock per record so that
 * a dataset drop cannot close a tree under a lookup.
 */
final class LiveOperationTrimmer implements RecordTrimmer {

    private final StorageEngine engine;
    /** The lookup's buffer; packer thread only. */
    private final ValueHolder newest = new ValueHolder();

    LiveOperationTrimmer(StorageEngine engine) {
        this.engine = engine;
    }

    @Override
    public long oldestUnapplied() {
        return engine.oldestUnappliedLsn();
    }

    /**
     * True if the newest visible version of {@code op}'s key is not the one {@code op} wrote (by
     * value; a newer write of the same bytes counts as this one, which only keeps more). {@code op}
     * is applied (its record lies below the oldest unapplied commit), and memory is read before disk
     * and never holds a version older than one that left it, so the newest visible version is
     * {@code op}'s own or a newer write's: if it differs, a newer write exists.
     */
    private boolean newestIsAnotherWrite(LsmTree tree, TreeOp op) throws IOException {
        LookupResult r = tree.get(op.key(), op.key().length, newest);
        if (op.delete()) {
            return r == LookupResult.FOUND;
        }
        return r != LookupResult.FOUND
                || !Arrays.equals(newest.bytes(), 0, newest.length(), op.value(), 0, op.value().length);
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
                if (floor <= lsn && newestIsAnotherWrite(tree, op)) {
                    // A newer write of the key, possibly in this very memory table (a merged memory
                    // level's oldest LSN says nothing about which of its keys' writes it holds).
                    // Superseded if memory still holds the key (its version is then the newest, newer
                    // than this one); gone if it left memory meanwhile.
                    floor = tree.memoryVersionFloor(op.key(), op.key().length) == Long.MAX_VALUE ? Long.MAX_VALUE : lsn + 1;
                }
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
