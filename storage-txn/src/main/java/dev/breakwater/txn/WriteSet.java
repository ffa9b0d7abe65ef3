package dev.breakwater.txn;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transaction's buffered writes, per dataset, keyed by encoded primary key. Each entry remembers
 * the committed record as it was when the transaction first wrote the key (read under an exclusive
 * lock, so it stays current until commit) whenever the dataset has secondary indexes: the commit
 * needs it to remove the old secondary entries.
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

        Pending(Tuple before, boolean beforeKnown) {
            this.before = before;
            this.beforeKnown = beforeKnown;
        }
    }

    private final Map<DatasetState, TreeMap<byte[], Pending>> byDataset = new LinkedHashMap<>();

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
    }
}
