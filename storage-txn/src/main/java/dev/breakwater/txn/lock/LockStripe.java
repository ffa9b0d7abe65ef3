package dev.breakwater.txn.lock;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One stripe of the lock table: the heads of the resources that hash to it, under one lock, so
 * that requests for resources of different stripes never contend.
 *
 * <p>Invariants: (1) a head is present exactly while it has a holder or a waiter; (2) every
 * resource in {@code heads} hashes to this stripe.
 *
 * <p>Thread safety: {@code heads} and everything reachable from it are guarded by {@code lock}.
 */
final class LockStripe {

    final ReentrantLock lock = new ReentrantLock();
    @GuardedBy("lock")
    final Map<Long, LockHead> heads = new HashMap<>();
}
