package dev.breakwater.txn.lock;

import dev.breakwater.txn.TransactionAbortedException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One request that had to wait: a new request for a resource, or a conversion (upgrade) of a lock
 * the owner already holds, in which case {@link #mode} is the combined target mode.
 *
 * <p>Its outcome is decided exactly once, by compare-and-set from "waiting" to either granted (by
 * a thread that holds the resource's stripe lock) or aborted (by the deadlock detector, or by the
 * waiter itself on timeout or interrupt). The waiting thread then observes the outcome and, if
 * aborted, takes the request out of the queue itself. The compare-and-set is what makes a grant
 * racing with a victim choice safe: whichever comes first wins and the loser backs off.
 *
 * <p>Invariants: (1) the outcome goes from null to {@code GRANTED} or to an {@link Abort} and
 * never changes again. (2) While the outcome is null, {@link #thread} is parked in
 * {@code LockManager.lock} or about to be.
 *
 * <p>Thread safety: fields are final except the outcome, which is updated atomically.
 */
final class LockRequest {

    /** Why and with what message a waiting request was aborted. */
    record Abort(TransactionAbortedException.Reason reason, String message) {
    }

    private static final Object GRANTED = new Object();
    private static final VarHandle OUTCOME;

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(LockRequest.class, "outcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final TxnLockOwner owner;
    final long resource;
    /** The mode to hold once granted (for a conversion, the supremum of the held and asked modes). */
    final LockMode mode;
    final boolean conversion;
    final Thread thread;
    final long startNanos;
    /** Null while waiting, then {@link #GRANTED} or an {@link Abort}. */
    @SuppressWarnings("unused") // accessed through OUTCOME
    private volatile Object outcome;

    LockRequest(TxnLockOwner owner, long resource, LockMode mode, boolean conversion) {
        this.owner = owner;
        this.resource = resource;
        this.mode = mode;
        this.conversion = conversion;
        this.thread = Thread.currentThread();
        this.startNanos = System.nanoTime();
    }

    boolean isWaiting() {
        return OUTCOME.getVolatile(this) == null;
    }

    boolean isGranted() {
        return OUTCOME.getVolatile(this) == GRANTED;
    }

    /** The abort decided for this request, or null if it is waiting or granted. */
    Abort abort() {
        Object o = OUTCOME.getVolatile(this);
        return o instanceof Abort a ? a : null;
    }

    /** Decides "granted" if still undecided. Requires: the resource's stripe lock. */
    boolean tryGrant() {
        return OUTCOME.compareAndSet(this, null, GRANTED);
    }

    /** Decides "aborted" if still undecided. */
    boolean tryAbort(Abort abort) {
        return OUTCOME.compareAndSet(this, null, abort);
    }

    /** "txn 7 waits for X on 0x…", for messages. */
    String describe() {
        return owner + " waits for " + mode + (conversion ? " (upgrade)" : "") + " on " + LockManager.hex(resource);
    }
}
