package dev.breakwater.tpcc;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Row access patterns shared by the transactions.
 *
 * <p>{@link #forUpdate} is SELECT ... FOR UPDATE: it takes the row's exclusive lock <em>before</em>
 * reading it, so two transactions that read-modify-write the same row (D_NEXT_O_ID, W_YTD, S_QUANTITY)
 * queue on the exclusive lock instead of both taking a shared lock and deadlocking on the upgrade.
 * The engine has no lock-only call, so it upserts the row's current committed image (same primary and
 * secondary keys) to take the lock, then reads the committed row again — stable now that the lock is
 * held — and buffers that as the row's value. The caller normally upserts a modified row after.
 *
 * <p>Thread safety: stateless; the transaction belongs to the calling thread.
 */
final class Rows {

    private Rows() {
    }

    /**
     * The row with {@code key}, exclusively locked by {@code tx}, or null (then only shared-locked).
     * Requires: {@code tx} has not written this row yet.
     */
    static Tuple forUpdate(Transaction tx, Dataset ds, Key key) {
        Tuple peek = ds.get(key); // unlocked committed read: only to build a same-key image for the lock
        if (peek == null) {
            return tx.get(ds, key);
        }
        tx.upsert(ds, peek); // exclusive lock on the row and its index entries
        Tuple current = ds.get(key); // no other writer can commit this row now
        if (current == null) {
            tx.delete(ds, key);
            return null;
        }
        if (!current.equals(peek)) {
            tx.upsert(ds, current);
        }
        return current;
    }

    /**
     * Customer selection by last name (clause 2.5.2.2): the customers of district (w, d) with
     * {@code last}, sorted by C_FIRST, and the one at position ceil(n / 2). Scans the
     * {@value Schema#CUSTOMER_BY_LAST} index in {@code tx} (locks the district's index node shared).
     */
    static Tuple customerByLastName(Transaction tx, Tables t, int w, int d, String last) {
        List<Tuple> found = new ArrayList<>();
        try (Cursor<Tuple> c = tx.scan(t.customer(), Schema.CUSTOMER_BY_LAST, KeyRange.exactly(Key.of(w, d, last)))) {
            c.forEachRemaining(found::add);
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no customer named " + last + " in district " + w + "/" + d);
        }
        return found.get((found.size() + 1) / 2 - 1);
    }
}
