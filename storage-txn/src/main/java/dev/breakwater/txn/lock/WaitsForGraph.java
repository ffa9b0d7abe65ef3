package dev.breakwater.txn.lock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.breakwater.txn.TransactionAbortedException.Reason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The waits-for graph over waiting transactions, and the deadlock detector that searches it.
 *
 * <p>A node exists for each owner whose request waits; its out-edges are the owners that request
 * waits for ({@link LockHead#blockersOf}). Whoever changes a lock head that has or had waiters
 * republishes that head's edges here before releasing the stripe lock (lock order: stripe lock,
 * then this graph's lock), so under this graph's lock the edges of every request still undecided
 * are those of its head's current state. Edges may still point at an owner that just stopped
 * waiting (granted, aborted, or releasing); such an owner is treated as a dead end, so a cycle
 * found here is a real deadlock: no false positives other than through resource-id hash
 * collisions, which only make unrelated keys look like the same resource.
 *
 * <p>Victim policy: the youngest transaction of the cycle (largest id) is aborted. It has done the
 * least work, and since an owner keeps its id on retry, the oldest transaction of any cycle always
 * survives, so every transaction eventually commits. The victim's request is decided "aborted"
 * under this lock and its thread is unparked; it then leaves the queue and throws. The search
 * skips requests already decided, so overlapping cycles get one victim each and concurrent
 * searches agree.
 *
 * <p>The graph is touched only when a request must wait or a contended head changes, never on the
 * uncontended acquire path, so one lock for the whole graph is acceptable.
 *
 * <p>Invariants: (1) a node's request is the one its owner currently waits on, or one that has
 * just been decided and will be removed by the thread that changes its head next. (2)
 * {@code version} grows on every change.
 *
 * <p>Thread safety: safe; all state is guarded by {@code lock}; {@link #version()} is lock-free.
 */
final class WaitsForGraph {

    private record Node(LockRequest request, List<TxnLockOwner> blockers) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    @GuardedBy("lock")
    private final Map<TxnLockOwner, Node> nodes = new HashMap<>();
    /** Written under {@code lock}; read without it to tell a waiter whether edges changed. */
    private volatile long version;

    long version() {
        return version;
    }

    /** Owners currently in the graph. */
    int size() {
        lock.lock();
        try {
            return nodes.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Replaces the edges of the undecided waiters of one head and drops the nodes of requests that
     * left it. Requires: the head's stripe lock.
     */
    void publish(LockHead head, List<LockRequest> left) {
        lock.lock();
        try {
            for (LockRequest r : left) {
                Node n = nodes.get(r.owner);
                if (n != null && n.request == r) {
                    nodes.remove(r.owner);
                }
            }
            for (LockRequest r : head.waiting) {
                if (r.isWaiting()) {
                    nodes.put(r.owner, new Node(r, head.blockersOf(r)));
                }
            }
            version++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Searches for cycles through {@code start}'s owner and aborts the youngest member of each, until
     * none is left or {@code start} itself is the victim. Returns how many victims it chose.
     */
    int resolveDeadlocks(LockRequest start) {
        int victims = 0;
        lock.lock();
        try {
            while (start.isWaiting()) {
                List<LockRequest> cycle = findCycleLocked(start);
                if (cycle.isEmpty()) {
                    break;
                }
                LockRequest victim = cycle.get(0);
                for (LockRequest r : cycle) {
                    if (r.owner.id() > victim.owner.id()) {
                        victim = r;
                    }
                }
                if (victim.tryAbort(new LockRequest.Abort(Reason.DEADLOCK, deadlockMessage(victim, cycle)))) {
                    victims++;
                    if (victim != start) {
                        LockSupport.unpark(victim.thread);
                    }
                }
                // Otherwise the victim was decided meanwhile (granted or aborted); search again.
            }
        } finally {
            lock.unlock();
        }
        return victims;
    }

    /**
     * Depth-first search from {@code start} along edges between undecided waiters; returns the
     * requests of a cycle back to {@code start}, in waits-for order beginning with it, or an empty
     * list.
     */
    @GuardedBy("lock")
    private List<LockRequest> findCycleLocked(LockRequest start) {
        List<LockRequest> path = new ArrayList<>();
        List<Integer> nextEdge = new ArrayList<>();
        Set<TxnLockOwner> visited = new HashSet<>();
        path.add(start);
        nextEdge.add(0);
        visited.add(start.owner);
        while (!path.isEmpty()) {
            int top = path.size() - 1;
            LockRequest r = path.get(top);
            Node node = nodes.get(r.owner);
            int i = nextEdge.get(top);
            if (node == null || node.request != r || i >= node.blockers.size()) {
                path.remove(top);
                nextEdge.remove(top);
                continue;
            }
            nextEdge.set(top, i + 1);
            TxnLockOwner next = node.blockers.get(i);
            if (next == start.owner) {
                return path;
            }
            Node nextNode = nodes.get(next);
            if (nextNode != null && nextNode.request.isWaiting() && visited.add(next)) {
                path.add(nextNode.request);
                nextEdge.add(0);
            }
        }
        return List.of();
    }

    private static String deadlockMessage(LockRequest victim, List<LockRequest> cycle) {
        StringBuilder sb = new StringBuilder()
                .append(victim.owner).append(" aborted by deadlock detection while waiting for ")
                .append(victim.mode).append(" on resource ").append(LockManager.hex(victim.resource))
                .append("; waits-for cycle: ");
        for (LockRequest r : cycle) {
            sb.append(r.describe()).append(" -> ");
        }
        sb.append(cycle.get(0).owner)
                .append("; victim is the youngest transaction in the cycle (largest id), retry it");
        return sb.toString();
    }
}
