package dev.breakwater.txn.lock;

import dev.breakwater.common.util.Hashing;
import dev.breakwater.txn.TransactionAbortedException;
import dev.breakwater.txn.TransactionAbortedException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Multi-granularity lock manager for strict two-phase locking: transactions take locks with
 * {@link #lock} as they go and give all of them back at once with {@link #releaseAll} when they
 * commit or abort; nothing is released earlier.
 *
 * <p>Resources are 64-bit ids. The engine derives them by hashing (dataset, index, hierarchy level,
 * key bytes), one id per node of an index's lock hierarchy (index, key prefixes, key). Two nodes
 * whose ids collide are treated as one resource: that can only make transactions wait for each
 * other needlessly (a false conflict, at worst a false deadlock and a retry), never let
 * conflicting transactions run together, so collisions cost throughput, not correctness.
 *
 * <p>Semantics of {@code lock(owner, resource, mode)}:
 * <ul>
 *   <li>Re-entrant: if the owner already holds a mode that {@linkplain LockMode#covers covers}
 *       {@code mode}, it returns at once without touching the shared table.
 *   <li>Upgrades: if the owner holds a weaker or incomparable mode, it asks for the
 *       {@linkplain LockMode#supremum supremum} and waits for the other holders that conflict;
 *       waiting conversions queue ahead of new requests.
 *   <li>Fairness: a new request waits if anyone waits before it (FIFO), so an X waiter is not
 *       starved by a stream of S requests. See {@link LockHead} for the exact discipline.
 *   <li>Deadlocks: a waiting request publishes its waits-for edges and searches for a cycle
 *       through itself, again whenever it wakes up and the graph has changed, and at least every
 *       {@value #DEADLOCK_RECHECK_MILLIS} ms while the graph changes. The youngest transaction of a
 *       cycle gets {@link TransactionAbortedException} with reason {@code DEADLOCK}, whose message
 *       lists the cycle ({@link WaitsForGraph} explains the policy).
 *   <li>Timeout: a wait longer than the lock-wait timeout (a backstop; deadlocks are detected
 *       long before) throws {@code TransactionAbortedException} with reason {@code LOCK_TIMEOUT}.
 *       An interrupted wait throws it with reason {@code INTERRUPTED} and keeps the interrupt.
 * </ul>
 * After any {@code TransactionAbortedException} the owner still holds what it held before the
 * failed call and must call {@code releaseAll}.
 *
 * <p>Concurrency design: the lock table is split into stripes by a hash of the resource id, each
 * stripe with its own lock, so the acquire path takes one stripe lock and nothing global. The
 * waits-for graph has a lock of its own, taken only when a request waits or a contended resource
 * changes (lock order: stripe, then graph; never two stripes at once). A waiter parks its own
 * thread; whoever grants its request unparks it after deciding the request's outcome.
 *
 * <p>Invariants: (1) an owner's {@link TxnLockOwner} map agrees with the holders recorded in the
 * heads whenever the owner is not inside {@code lock}; (2) a head exists only while it has a holder
 * or a waiter; (3) an owner waits for at most one request.
 *
 * <p>Thread safety: safe. Calls for different owners may run concurrently from any threads;
 * calls for one owner must not overlap (see {@link TxnLockOwner}).
 */
public final class LockManager {

    public static final Duration DEFAULT_LOCK_WAIT_TIMEOUT = Duration.ofSeconds(10);
    /** Enough stripes that 2–3 dozen threads rarely meet on one; a stripe costs a lock and a map. */
    public static final int DEFAULT_STRIPES = 128;
    /**
     * How often a waiter wakes to re-run detection if the graph has changed. Detection on enqueue
     * already finds a cycle that the waiter closes; this is the safety net for edges that appear
     * while it sleeps, cheap because detection is skipped when nothing changed.
     */
    static final long DEADLOCK_RECHECK_MILLIS = 20;

    private final LockStripe[] stripes;
    private final int stripeMask;
    private final long waitTimeoutNanos;
    private final WaitsForGraph graph = new WaitsForGraph();

    private final LongAdder requests = new LongAdder();
    private final LongAdder waits = new LongAdder();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();

    public LockManager() {
        this(DEFAULT_LOCK_WAIT_TIMEOUT, DEFAULT_STRIPES);
    }

    public LockManager(Duration lockWaitTimeout) {
        this(lockWaitTimeout, DEFAULT_STRIPES);
    }

    /** Requires: a positive timeout; {@code stripes} a power of two, at least 1. */
    public LockManager(Duration lockWaitTimeout, int stripes) {
        if (lockWaitTimeout.isNegative() || lockWaitTimeout.isZero()) {
            throw new IllegalArgumentException("lock-wait timeout must be positive: " + lockWaitTimeout);
        }
        if (stripes < 1 || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two: " + stripes);
        }
        this.waitTimeoutNanos = lockWaitTimeout.toNanos();
        this.stripes = new LockStripe[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new LockStripe();
        }
        this.stripeMask = stripes - 1;
    }

    public Duration lockWaitTimeout() {
        return Duration.ofNanos(waitTimeoutNanos);
    }

    /**
     * Acquires {@code mode} on {@code resource} for {@code owner}, waiting if needed; returns once
     * the owner holds a mode covering it.
     *
     * @throws TransactionAbortedException on deadlock (this owner was the victim), lock-wait
     *     timeout, or interrupt; the owner must then call {@link #releaseAll}
     */
    public void lock(TxnLockOwner owner, long resource, LockMode mode) {
        Objects.requireNonNull(mode, "mode");
        LockMode held = owner.heldMode(resource);
        if (held != null && held.covers(mode)) {
            return;
        }
        requests.increment();
        LockStripe stripe = stripeOf(resource);
        LockRequest waiter;
        stripe.lock.lock();
        try {
            LockHead head = stripe.heads.computeIfAbsent(resource, LockHead::new);
            if (held == null) {
                if (head.waiting.isEmpty() && head.compatibleWithHolders(mode, null)) {
                    head.holders.add(new LockHead.Holder(owner, mode));
                    owner.recordHeld(resource, mode);
                    return;
                }
                waiter = new LockRequest(owner, resource, mode, false);
            } else {
                LockMode target = LockMode.supremum(held, mode);
                if (head.compatibleWithHolders(target, owner)) {
                    head.holderOf(owner).mode = target;
                    owner.recordHeld(resource, target);
                    if (!head.waiting.isEmpty()) {
                        graph.publish(head, List.of()); // stronger holder, new edges
                    }
                    return;
                }
                waiter = new LockRequest(owner, resource, target, true);
            }
            head.enqueue(waiter);
            graph.publish(head, List.of());
        } finally {
            stripe.lock.unlock();
        }
        waits.increment();
        try {
            await(waiter);
        } finally {
            waitNanos.add(System.nanoTime() - waiter.startNanos);
        }
    }

    /**
     * Releases every lock of {@code owner} and grants what waiters can now have. Call at commit or
     * abort, exactly once per transaction attempt; the owner may then be reused.
     *
     * <p>Requires: the owner is not waiting in {@link #lock} (the same thread runs both).
     */
    public void releaseAll(TxnLockOwner owner) {
        List<LockRequest> granted = new ArrayList<>();
        for (long resource : owner.heldResources()) {
            LockStripe stripe = stripeOf(resource);
            int before = granted.size();
            stripe.lock.lock();
            try {
                LockHead head = stripe.heads.get(resource);
                if (head == null || !head.removeHolder(owner)) {
                    throw new IllegalStateException(owner + " does not hold " + hex(resource) + " in the lock table");
                }
                releasedLocked(stripe, head, granted, before);
            } finally {
                stripe.lock.unlock();
            }
        }
        owner.clearHeld();
        for (LockRequest r : granted) {
            LockSupport.unpark(r.thread);
        }
    }

    /** Counters since creation. */
    public LockStats stats() {
        return new LockStats(requests.sum(), waits.sum(), deadlocks.sum(), timeouts.sum(), waitNanos.sum());
    }

    /**
     * Resources with a holder or a waiter, and owners in the waits-for graph; for tests and
     * diagnostics (takes every stripe lock in turn, so it is not an atomic cut).
     */
    int[] tableSizes() {
        int heads = 0;
        for (LockStripe stripe : stripes) {
            stripe.lock.lock();
            try {
                heads += stripe.heads.size();
            } finally {
                stripe.lock.unlock();
            }
        }
        return new int[] {heads, graph.size()};
    }

    /** Parks until {@code waiter} is decided; returns if granted, cleans up and throws if aborted. */
    private void await(LockRequest waiter) {
        long deadline = waiter.startNanos + waitTimeoutNanos;
        long checkedVersion = graph.version();
        boolean interrupted = false;
        deadlocks.add(graph.resolveDeadlocks(waiter));
        while (true) {
            if (waiter.isGranted()) {
                waiter.owner.recordHeld(waiter.resource, waiter.mode);
                if (interrupted) {
                    Thread.currentThread().interrupt(); // granted before the interrupt could abort it
                }
                return;
            }
            LockRequest.Abort abort = waiter.abort();
            if (abort != null) {
                cancel(waiter);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw new TransactionAbortedException(abort.reason(), abort.message());
            }
            long now = System.nanoTime();
            if (Thread.interrupted()) {
                interrupted = true;
                waiter.tryAbort(new LockRequest.Abort(Reason.INTERRUPTED,
                        waiter.owner + " interrupted while waiting for " + waiter.mode + " on resource "
                                + hex(waiter.resource)));
            } else if (now - deadline >= 0) {
                timeOut(waiter);
            } else {
                long recheck = TimeUnit.MILLISECONDS.toNanos(DEADLOCK_RECHECK_MILLIS);
                LockSupport.parkNanos(this, Math.min(deadline - now, recheck));
                long v = graph.version();
                if (v != checkedVersion && waiter.isWaiting()) {
                    checkedVersion = v;
                    deadlocks.add(graph.resolveDeadlocks(waiter));
                }
            }
        }
    }

    /** Decides a timeout for {@code waiter}, naming the holders at this moment. */
    private void timeOut(LockRequest waiter) {
        LockStripe stripe = stripeOf(waiter.resource);
        stripe.lock.lock();
        try {
            LockHead head = stripe.heads.get(waiter.resource);
            String message = waiter.owner + " waited longer than the lock-wait timeout ("
                    + TimeUnit.NANOSECONDS.toMillis(waitTimeoutNanos) + " ms) for " + waiter.mode
                    + (waiter.conversion ? " (upgrade)" : "") + " on resource " + hex(waiter.resource)
                    + "; " + head.describe();
            if (waiter.tryAbort(new LockRequest.Abort(Reason.LOCK_TIMEOUT, message))) {
                timeouts.increment();
            }
        } finally {
            stripe.lock.unlock();
        }
    }

    /** Takes an aborted {@code waiter} out of its queue and grants what that unblocks. */
    private void cancel(LockRequest waiter) {
        List<LockRequest> left = new ArrayList<>();
        LockStripe stripe = stripeOf(waiter.resource);
        stripe.lock.lock();
        try {
            LockHead head = stripe.heads.get(waiter.resource);
            head.waiting.remove(waiter);
            left.add(waiter);
            releasedLocked(stripe, head, left, 0);
        } finally {
            stripe.lock.unlock();
        }
        for (int i = 1; i < left.size(); i++) {
            LockSupport.unpark(left.get(i).thread);
        }
    }

    /**
     * After a holder or waiter left {@code head}: grants waiters, republishes edges and drops the
     * head if unused. Requests that left the queue are in {@code left} from index {@code from} on
     * (granted ones are appended). Requires: the stripe lock.
     */
    private void releasedLocked(LockStripe stripe, LockHead head, List<LockRequest> left, int from) {
        head.grantWaiters(left);
        if (!head.waiting.isEmpty() || left.size() > from) {
            graph.publish(head, left.subList(from, left.size()));
        }
        if (head.isUnused()) {
            stripe.heads.remove(head.resource);
        }
    }

    private LockStripe stripeOf(long resource) {
        // the finalizer spreads ids that differ only in high bits over the stripes
        return stripes[(int) Hashing.fmix64(resource) & stripeMask];
    }

    static String hex(long resource) {
        return String.format("0x%016x", resource);
    }
}
