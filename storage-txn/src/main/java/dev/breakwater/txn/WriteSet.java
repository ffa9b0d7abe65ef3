package dev.breakwater.txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transaction's buffered writes, per dataset, keyed by encoded primary key. Each entry remembers
 * the committed record as it was when the transaction first wrote the key (read under an exclusive
 * lock, so it stays current until commit) whenever the dataset has secondary indexes: the commit
 * needs it to remove the old secondary entries.
 *
 * <p>Each entry also holds the tree operations it will log ({@link Pending#ops()}), computed when it
 * is written, so that the transaction's log size is known at every write: {@link #logBytes()} is
 * exactly the payload {@link CommitRecordFormat#encode} would produce now, and the write that would
 * cross the limit is refused before it changes anything.
 *
 * <p>Invariant: {@code logBytes == CommitRecordFormat.HEADER_BYTES + sum of opBytes over every op of
 * every entry}.
 *
 * <p>Thread safety: none; owned by one transaction.
 */
final class WriteSet {

    /** The pending state of one primary key. */
    static final class Pending {
        /** The committed record before this transaction, or null (none, or not read: see {@link #beforeKnown}). */
        final Tuple before;
        /**
         * Whether {@link #before} was read. An upsert into a dataset without secondary indexes does
         * not read it: nothing needs the old record, and the read may cost a disk page.
         */
        final boolean beforeKnown;
        /** The record after this transaction, or null for deleted. */
        Tuple after;
        /** The tree operations this entry logs at commit. */
        private List<TreeOp> ops = List.of();
        private long opBytes;

        Pending(Tuple before, boolean beforeKnown) {
            this.before = before;
            this.beforeKnown = beforeKnown;
        }

        List<TreeOp> ops() {
            return ops;
        }
    }

    private final Map<DatasetState, TreeMap<byte[], Pending>> byDataset = new LinkedHashMap<>();
    private long logBytes = CommitRecordFormat.HEADER_BYTES;

    /** Bytes of the commit record's payload if the transaction committed now. */
    long logBytes() {
        return logBytes;
    }

    /**
     * Records that {@code pk} (new entry {@code p} or an existing one) becomes {@code after}: adds
     * the entry if new and replaces its tree operations.
     *
     * @throws TransactionTooLargeException if the log payload would pass {@code maxBytes}; then
     *                                      nothing changed
     */
    void write(DatasetState ds, byte[] pk, Pending p, Tuple after, int maxBytes) {
        List<TreeOp> ops = opsOf(ds, pk, p.before, p.beforeKnown, after);
        long bytes = 0;
        for (TreeOp op : ops) {
            bytes += CommitRecordFormat.opBytes(op);
        }
        long total = logBytes - p.opBytes + bytes;
        if (total > maxBytes) {
            throw new TransactionTooLargeException("this write to dataset " + ds.spec.name() + " would take the transaction's log "
                    + "record to " + total + " bytes, over max-transaction-size (" + maxBytes + " bytes). The write was not "
                    + "buffered and the transaction is still usable: commit what it holds and continue in another transaction, "
                    + "or raise max-transaction-size (capped at log-segment-size)");
        }
        of(ds).putIfAbsent(pk, p);
        p.after = after;
        p.ops = ops;
        p.opBytes = bytes;
        logBytes = total;
    }

    /** The tree operations that take the trees of {@code ds} from {@code before} to {@code after} for key {@code pk}. */
    private static List<TreeOp> opsOf(DatasetState ds, byte[] pk, Tuple before, boolean beforeKnown, Tuple after) {
        if (beforeKnown && before == null && after == null) {
            return List.of(); // inserted and deleted in the same transaction
        }
        DatasetState.Partition part = ds.partition(pk); // the record and its secondary entries live in its trees
        List<TreeOp> ops = new ArrayList<>(1 + 2 * part.secondaries().size());
        ops.add(after == null ? TreeOp.delete(part.primaryTreeId(), pk) : TreeOp.put(part.primaryTreeId(), pk, ds.records.encode(after)));
        for (DatasetState.Secondary sec : part.secondaries()) {
            byte[] oldKey = before == null ? null : sec.codec().keyOf(before);
            byte[] newKey = after == null ? null : sec.codec().keyOf(after);
            if (oldKey != null && (newKey == null || !Arrays.equals(oldKey, newKey))) {
                ops.add(TreeOp.delete(sec.treeId(), oldKey));
            }
            if (newKey != null && (oldKey == null || !Arrays.equals(oldKey, newKey))) {
                ops.add(TreeOp.put(sec.treeId(), newKey, TreeOp.EMPTY));
            }
        }
        return ops;
    }

    TreeMap<byte[], Pending> of(DatasetState ds) {
        return byDataset.computeIfAbsent(ds, d -> new TreeMap<>(Arrays::compareUnsigned));
    }

    /** The pending entry for {@code pk}, or null if the transaction has not written it. */
    Pending get(DatasetState ds, byte[] pk) {
        TreeMap<byte[], Pending> m = byDataset.get(ds);
        return m == null ? null : m.get(pk);
    }

    Map<DatasetState, TreeMap<byte[], Pending>> all() {
        return byDataset;
    }

    boolean isEmpty() {
        return byDataset.values().stream().allMatch(Map::isEmpty);
    }

    void clear() {
        byDataset.clear();
        logBytes = CommitRecordFormat.HEADER_BYTES;
    }
}
