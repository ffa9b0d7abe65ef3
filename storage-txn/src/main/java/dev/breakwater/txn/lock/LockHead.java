package dev.breakwater.txn.lock;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The lock-table entry of one resource: who holds it in which mode, and who waits, in order.
 *
 * <p>Queue discipline. A new request is granted at once only if nobody waits and its mode is
 * compatible with every holder; otherwise it joins the tail, so a stream of compatible requests
 * cannot starve an earlier incompatible one (an X waiter is not overtaken by later S requests). A
 * conversion (a holder asking for a stronger mode) is granted at once if the combined mode is
 * compatible with the other holders; otherwise it joins the queue after the other waiting
 * conversions and ahead of every new request, since the converter already holds the resource and
 * new requests would otherwise wait behind it anyway. Granting ({@link #grantWaiters}) first
 * grants every waiting conversion compatible with the other holders, then, only if no conversion
 * still waits, grants new requests from the head of the queue until the first one that does not
 * fit.
 *
 * <p>Waits-for edges ({@link #blockersOf}): a waiting conversion waits for the other holders it is
 * incompatible with. A waiting new request waits for the holders and earlier waiters it is
 * incompatible with, and for the live waiter directly ahead of it (strict FIFO: it cannot be
 * granted before that one, even when compatible with it; the chain of such edges carries the
 * dependency to the front of the queue). Every edge is a real wait, so a cycle is a real deadlock.
 *
 * <p>Invariants: (1) at most one holder per owner; (2) in {@code waiting}, conversions precede new
 * requests; (3) a waiting conversion's owner is a holder, a waiting new request's owner is not;
 * (4) requests in {@code waiting} whose outcome is decided as aborted are ignored by granting and
 * by edges, and are removed by their own thread.
 *
 * <p>Thread safety: not thread-safe; every access holds the lock of the resource's stripe.
 */
final class LockHead {

    /** One owner's granted lock on this resource. */
    static final class Holder {
        final TxnLockOwner owner;
        LockMode mode;

        Holder(TxnLockOwner owner, LockMode mode) {
            this.owner = owner;
            this.mode = mode;
        }
    }

    final long resource;
    final List<Holder> holders = new ArrayList<>(2);
    final List<LockRequest> waiting = new ArrayList<>(2);

    LockHead(long resource) {
        this.resource = resource;
    }

    Holder holderOf(TxnLockOwner owner) {
        for (Holder h : holders) {
            if (h.owner == owner) {
                return h;
            }
        }
        return null;
    }

    /** True if {@code mode} is compatible with every holder other than {@code except}. */
    boolean compatibleWithHolders(LockMode mode, TxnLockOwner except) {
        for (Holder h : holders) {
            if (h.owner != except && !h.mode.isCompatibleWith(mode)) {
                return false;
            }
        }
        return true;
    }

    /** Appends a new request, or inserts a conversion after the last waiting conversion. */
    void enqueue(LockRequest r) {
        if (!r.conversion) {
            waiting.add(r);
            return;
        }
        int i = 0;
        while (i < waiting.size() && waiting.get(i).conversion) {
            i++;
        }
        waiting.add(i, r);
    }

    boolean removeHolder(TxnLockOwner owner) {
        for (Iterator<Holder> it = holders.iterator(); it.hasNext(); ) {
            if (it.next().owner == owner) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /**
     * Grants what the queue discipline allows after a change; each granted request is removed from
     * the queue, recorded as a holder and added to {@code granted}.
     */
    void grantWaiters(List<LockRequest> granted) {
        boolean conversionWaits = false;
        for (Iterator<LockRequest> it = waiting.iterator(); it.hasNext(); ) {
            LockRequest r = it.next();
            if (!r.conversion) {
                break;
            }
            if (!r.isWaiting()) {
                continue;
            }
            if (compatibleWithHolders(r.mode, r.owner) && r.tryGrant()) {
                holderOf(r.owner).mode = r.mode;
                it.remove();
                granted.add(r);
            } else if (r.isWaiting()) {
                conversionWaits = true;
            }
        }
        if (conversionWaits) {
            return;
        }
        for (Iterator<LockRequest> it = waiting.iterator(); it.hasNext(); ) {
            LockRequest r = it.next();
            if (r.conversion || !r.isWaiting()) {
                continue;
            }
            if (!compatibleWithHolders(r.mode, null)) {
                return;
            }
            if (r.tryGrant()) {
                holders.add(new Holder(r.owner, r.mode));
                it.remove();
                granted.add(r);
            }
        }
    }

    /** The owners {@code r} waits for (see the class comment). Requires: {@code r} is in the queue. */
    List<TxnLockOwner> blockersOf(LockRequest r) {
        List<TxnLockOwner> out = new ArrayList<>(holders.size() + 1);
        for (Holder h : holders) {
            if (h.owner != r.owner && !h.mode.isCompatibleWith(r.mode)) {
                out.add(h.owner);
            }
        }
        if (r.conversion) {
            return out;
        }
        LockRequest ahead = null;
        for (LockRequest w : waiting) {
            if (w == r) {
                break;
            }
            if (!w.isWaiting()) {
                continue;
            }
            ahead = w;
            if (!w.mode.isCompatibleWith(r.mode) && !out.contains(w.owner)) {
                out.add(w.owner);
            }
        }
        if (ahead != null && !out.contains(ahead.owner)) {
            out.add(ahead.owner);
        }
        return out;
    }

    boolean isUnused() {
        return holders.isEmpty() && waiting.isEmpty();
    }

    /** Holders and queue, for timeout messages. */
    String describe() {
        StringBuilder sb = new StringBuilder("holders [");
        for (int i = 0; i < holders.size(); i++) {
            Holder h = holders.get(i);
            sb.append(i == 0 ? "" : ", ").append(h.owner).append(' ').append(h.mode);
        }
        sb.append("], waiting [");
        boolean first = true;
        for (LockRequest w : waiting) {
            if (w.isWaiting()) {
                sb.append(first ? "" : ", ").append(w.owner).append(' ').append(w.mode);
                first = false;
            }
        }
        return sb.append(']').toString();
    }
}
