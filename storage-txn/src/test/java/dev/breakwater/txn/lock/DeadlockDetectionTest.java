package dev.breakwater.txn.lock;

import static dev.breakwater.txn.lock.LockManagerTest.awaitWaits;
import static dev.breakwater.txn.lock.LockMode.IS;
import static dev.breakwater.txn.lock.LockMode.IX;
import static dev.breakwater.txn.lock.LockMode.S;
import static dev.breakwater.txn.lock.LockMode.X;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.txn.TransactionAbortedException;
import dev.breakwater.txn.TransactionAbortedException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Cycles of two and three transactions, an upgrade deadlock, and the victim policy (youngest of
 * the cycle, whoever closed it). The lock-wait timeout is left at its default of 10 s so that a
 * timeout cannot pass for detection; each test bounds detection at 2 s.
 */
class DeadlockDetectionTest {

    private final LockManager lm = new LockManager();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void twoWayCycleAbortsExactlyOneSide() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        lm.lock(a, 1, X);
        lm.lock(b, 2, X);
        Future<?> fa = pool.submit(() -> lm.lock(a, 2, X));
        awaitWaits(lm, 1);
        long start = System.nanoTime();
        Future<?> fb = pool.submit(() -> lm.lock(b, 1, X));
        TransactionAbortedException e = abortOf(fb);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "detected promptly");
        assertEquals(Reason.DEADLOCK, e.reason());
        assertTrue(e.getMessage().contains(LockManager.hex(1)), e.getMessage());
        assertTrue(e.getMessage().contains("txn 1") && e.getMessage().contains("txn 2"), e.getMessage());
        LockManagerTest.assertStillBlocked(fa);
        lm.releaseAll(b);
        fa.get(2, TimeUnit.SECONDS);
        assertEquals(X, a.heldMode(2));
        assertEquals(1, lm.stats().deadlocks());
        lm.releaseAll(a);
    }

    @Test
    void youngestIsTheVictimEvenWhenTheOldestClosesTheCycle() throws Exception {
        TxnLockOwner old = new TxnLockOwner(1);
        TxnLockOwner young = new TxnLockOwner(2);
        lm.lock(old, 1, X);
        lm.lock(young, 2, X);
        Future<?> fy = pool.submit(() -> lm.lock(young, 1, X));
        awaitWaits(lm, 1);
        Future<?> fo = pool.submit(() -> lm.lock(old, 2, X)); // closes the cycle
        TransactionAbortedException e = abortOf(fy);
        assertEquals(Reason.DEADLOCK, e.reason());
        assertTrue(e.getMessage().startsWith("txn 2 aborted"), e.getMessage());
        lm.releaseAll(young);
        fo.get(2, TimeUnit.SECONDS);
        lm.releaseAll(old);
    }

    @Test
    void threeWayCycleAbortsTheYoungestAndTheOthersFinish() throws Exception {
        TxnLockOwner[] t = {new TxnLockOwner(1), new TxnLockOwner(2), new TxnLockOwner(3)};
        for (int i = 0; i < 3; i++) {
            lm.lock(t[i], i, X);
        }
        List<Future<?>> waits = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TxnLockOwner owner = t[i];
            long next = (i + 1) % 3;
            waits.add(pool.submit(() -> lm.lock(owner, next, X)));
            awaitWaits(lm, i + 1);
        }
        TransactionAbortedException e = abortOf(waits.get(2));
        assertEquals(Reason.DEADLOCK, e.reason());
        for (int i = 0; i < 3; i++) {
            assertTrue(e.getMessage().contains("txn " + (i + 1) + " waits for X on " + LockManager.hex((i + 1) % 3)),
                    e.getMessage());
        }
        lm.releaseAll(t[2]);
        waits.get(1).get(2, TimeUnit.SECONDS); // txn 2 gets resource 2
        lm.releaseAll(t[1]);
        waits.get(0).get(2, TimeUnit.SECONDS); // txn 1 gets resource 1
        lm.releaseAll(t[0]);
        assertEquals(1, lm.stats().deadlocks());
    }

    @Test
    void twoSharedHoldersUpgradingIsADeadlock() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        lm.lock(a, 7, S);
        lm.lock(b, 7, S);
        Future<?> fa = pool.submit(() -> lm.lock(a, 7, X));
        awaitWaits(lm, 1);
        Future<?> fb = pool.submit(() -> lm.lock(b, 7, X));
        TransactionAbortedException e = abortOf(fb);
        assertEquals(Reason.DEADLOCK, e.reason());
        assertTrue(e.getMessage().contains("(upgrade)"), e.getMessage());
        assertEquals(S, b.heldMode(7), "the victim still holds its S until releaseAll");
        lm.releaseAll(b);
        fa.get(2, TimeUnit.SECONDS);
        assertEquals(X, a.heldMode(7));
        lm.releaseAll(a);
    }

    @Test
    void cycleThroughTheFifoQueueIsDetected() throws Exception {
        // c holds r1 in S; a waits for IX on r1 (conflicts with c); b asks IS on r1, compatible with
        // both c and a, but queued behind a (FIFO), so its only edge is to a. c then asks for r3,
        // held by b: c -> b -> a -> c, a cycle that exists only through queue order.
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(c, 1, S);
        lm.lock(b, 3, X);
        Future<?> fa = pool.submit(() -> lm.lock(a, 1, IX)); // waits for c
        awaitWaits(lm, 1);
        Future<?> fb = pool.submit(() -> lm.lock(b, 1, IS)); // waits behind a (FIFO)
        awaitWaits(lm, 2);
        Future<?> fc = pool.submit(() -> lm.lock(c, 3, S)); // waits for b: c -> b -> a -> c
        TransactionAbortedException e = abortOf(fc);
        assertEquals(Reason.DEADLOCK, e.reason());
        lm.releaseAll(c);
        fa.get(2, TimeUnit.SECONDS);
        lm.releaseAll(a);
        fb.get(2, TimeUnit.SECONDS);
        lm.releaseAll(b);
    }

    private static TransactionAbortedException abortOf(Future<?> f) throws Exception {
        try {
            f.get(2, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TransactionAbortedException t) {
                return t;
            }
            throw e;
        }
        throw new AssertionError("expected an abort");
    }
}
