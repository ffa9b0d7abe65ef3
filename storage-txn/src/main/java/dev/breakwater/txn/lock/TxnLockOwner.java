package dev.breakwater.txn.lock;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The lock-manager side of one transaction: its id, which is also its age, and the resources it
 * holds with their modes, so that {@link LockManager#releaseAll} costs O(locks held) and a
 * re-entrant request is answered without touching the shared lock table. The engine's
 * transaction owns one.
 *
 * <p>Ids must be unique among live owners; a larger id means a younger transaction, and the
 * deadlock detector aborts the youngest member of a cycle. An owner may be reused after
 * {@code releaseAll} (for instance to retry an aborted transaction): keeping its id on retry makes
 * it relatively older with every retry, so it cannot be chosen as a deadlock victim forever.
 *
 * <p>Parking: while a request waits, the waiting thread is recorded in that request (see
 * {@code LockRequest}), which is what releasers and the deadlock detector unpark; an owner waits
 * for at most one request at a time.
 *
 * <p>Invariants: (1) {@code held} maps a resource to the mode this owner holds on it in the lock
 * table, between the moment {@code lock} returns and the moment {@code releaseAll} releases it.
 * (2) Identity is object identity.
 *
 * <p>Thread safety: confined. One thread at a time calls {@code lock} or {@code releaseAll} for a
 * given owner (the thread running the transaction); {@link #id()} and {@link #toString()} are safe
 * from any thread.
 */
public final class TxnLockOwner {

    private final long id;
    /** Confined to the thread running the transaction. */
    private final Map<Long, LockMode> held = new HashMap<>();

    /** Requires: {@code id} unique among live owners and increasing with the transaction's start. */
    public TxnLockOwner(long id) {
        this.id = id;
    }

    /** The transaction's id; larger means younger. */
    public long id() {
        return id;
    }

    /** The mode this owner holds on {@code resource}, or null. Requires: the owner's thread. */
    public LockMode heldMode(long resource) {
        return held.get(resource);
    }

    /** How many resources this owner holds. Requires: the owner's thread. */
    public int heldCount() {
        return held.size();
    }

    void recordHeld(long resource, LockMode mode) {
        held.put(resource, mode);
    }

    Set<Long> heldResources() {
        return held.keySet();
    }

    void clearHeld() {
        held.clear();
    }

    @Override
    public String toString() {
        return "txn " + id;
    }
}
