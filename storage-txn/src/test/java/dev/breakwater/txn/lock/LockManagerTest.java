package dev.breakwater.txn.lock;

import static dev.breakwater.txn.lock.LockMode.IS;
import static dev.breakwater.txn.lock.LockMode.IX;
import static dev.breakwater.txn.lock.LockMode.S;
import static dev.breakwater.txn.lock.LockMode.SIX;
import static dev.breakwater.txn.lock.LockMode.X;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.txn.TransactionAbortedException;
import dev.breakwater.txn.TransactionAbortedException.Reason;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Single-resource semantics: re-entrancy, upgrades, blocking, queue order, timeouts, interrupts. */
class LockManagerTest {

    static final long R1 = 1;
    static final long R2 = 2;

    private final LockManager lm = new LockManager();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void reentrantRequestsReturnAtOnce() {
        TxnLockOwner a = new TxnLockOwner(1);
        lm.lock(a, R1, X);
        lm.lock(a, R1, X);
        lm.lock(a, R1, S);
        lm.lock(a, R1, IS);
        assertEquals(X, a.heldMode(R1));
        assertEquals(1, lm.stats().requests(), "covered requests do not reach the table");
        lm.releaseAll(a);
        assertNull(a.heldMode(R1));
        assertEquals(0, a.heldCount());
    }

    @Test
    void soleHolderUpgradesAtOnceToTheSupremum() {
        TxnLockOwner a = new TxnLockOwner(1);
        lm.lock(a, R1, IS);
        lm.lock(a, R1, S);
        assertEquals(S, a.heldMode(R1));
        lm.lock(a, R1, IX);
        assertEquals(SIX, a.heldMode(R1));
        lm.lock(a, R1, X);
        assertEquals(X, a.heldMode(R1));
        assertEquals(0, lm.stats().waits());
        lm.releaseAll(a);
    }

    @Test
    void compatibleModesAreHeldTogether() {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(a, R1, IS);
        lm.lock(b, R1, IX);
        lm.lock(c, R1, IS);
        assertEquals(0, lm.stats().waits());
        lm.releaseAll(a);
        lm.releaseAll(b);
        lm.releaseAll(c);
    }

    @Test
    void sharedHoldersBlockExclusiveUntilAllRelease() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(a, R1, S);
        lm.lock(b, R1, S);
        Future<?> x = pool.submit(() -> lm.lock(c, R1, X));
        awaitWaits(1);
        lm.releaseAll(a);
        assertStillBlocked(x);
        lm.releaseAll(b);
        x.get(5, TimeUnit.SECONDS);
        assertEquals(X, c.heldMode(R1));
        lm.releaseAll(c);
    }

    @Test
    void upgradeWaitsForTheOtherHolders() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        lm.lock(a, R1, S);
        lm.lock(b, R1, S);
        Future<?> up = pool.submit(() -> lm.lock(a, R1, X));
        awaitWaits(1);
        assertStillBlocked(up);
        lm.releaseAll(b);
        up.get(5, TimeUnit.SECONDS);
        assertEquals(X, a.heldMode(R1));
        lm.releaseAll(a);
    }

    @Test
    void conversionIsGrantedBeforeEarlierNewRequests() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(a, R1, S);
        lm.lock(b, R1, S);
        Future<?> cx = pool.submit(() -> lm.lock(c, R1, X)); // new request, queued first
        awaitWaits(1);
        Future<?> ax = pool.submit(() -> lm.lock(a, R1, X)); // conversion, queued ahead of c
        awaitWaits(2);
        lm.releaseAll(b);
        ax.get(5, TimeUnit.SECONDS);
        assertStillBlocked(cx);
        lm.releaseAll(a);
        cx.get(5, TimeUnit.SECONDS);
        lm.releaseAll(c);
    }

    @Test
    void exclusiveWaiterIsNotStarvedByLaterSharedRequests() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(a, R1, S);
        Future<?> bx = pool.submit(() -> lm.lock(b, R1, X));
        awaitWaits(1);
        // Compatible with the holder, but must queue behind the X waiter.
        Future<?> cs = pool.submit(() -> lm.lock(c, R1, S));
        awaitWaits(2);
        assertStillBlocked(cs);
        lm.releaseAll(a);
        bx.get(5, TimeUnit.SECONDS);
        assertStillBlocked(cs);
        lm.releaseAll(b);
        cs.get(5, TimeUnit.SECONDS);
        lm.releaseAll(c);
    }

    @Test
    void compatibleWaitersAreGrantedTogether() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(a, R1, X);
        Future<?> bs = pool.submit(() -> lm.lock(b, R1, S));
        Future<?> cs = pool.submit(() -> lm.lock(c, R1, IS));
        awaitWaits(2);
        lm.releaseAll(a);
        bs.get(5, TimeUnit.SECONDS);
        cs.get(5, TimeUnit.SECONDS);
        lm.releaseAll(b);
        lm.releaseAll(c);
    }

    @Test
    void scanOnPrefixBlocksWritersBelowItButNotReaders() throws Exception {
        long index = 100;
        long prefix = 101;
        long key = 102;
        TxnLockOwner scanner = new TxnLockOwner(1);
        TxnLockOwner reader = new TxnLockOwner(2);
        TxnLockOwner writer = new TxnLockOwner(3);
        lm.lock(scanner, index, IS);
        lm.lock(scanner, prefix, S);
        lm.lock(reader, index, IS);
        lm.lock(reader, prefix, IS);
        lm.lock(reader, key, S);
        lm.lock(writer, index, IX);
        Future<?> w = pool.submit(() -> {
            lm.lock(writer, prefix, IX);
            lm.lock(writer, key, X);
        });
        awaitWaits(1);
        assertStillBlocked(w);
        lm.releaseAll(scanner);
        assertStillBlocked(w); // now waits for the reader's S on the key
        lm.releaseAll(reader);
        w.get(5, TimeUnit.SECONDS);
        lm.releaseAll(writer);
    }

    @Test
    void waitLongerThanTheTimeoutAbortsWithAClearMessage() throws Exception {
        LockManager shortWait = new LockManager(Duration.ofMillis(200));
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        shortWait.lock(a, R1, X);
        shortWait.lock(b, R2, S);
        long start = System.nanoTime();
        TransactionAbortedException e =
                assertThrows(TransactionAbortedException.class, () -> shortWait.lock(b, R1, S));
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(Reason.LOCK_TIMEOUT, e.reason());
        assertTrue(waitedMs >= 190 && waitedMs < 5_000, "waited " + waitedMs + " ms");
        assertTrue(e.getMessage().contains(LockManager.hex(R1)), e.getMessage());
        assertTrue(e.getMessage().contains("txn 1 X"), e.getMessage());
        assertEquals(1, shortWait.stats().timeouts());
        assertEquals(S, b.heldMode(R2), "a failed request keeps what was held");
        assertNull(b.heldMode(R1));
        shortWait.releaseAll(b);
        shortWait.releaseAll(a);
        // The timed-out request left the queue: the resource is free again.
        TxnLockOwner c = new TxnLockOwner(3);
        shortWait.lock(c, R1, X);
        assertEquals(0, shortWait.stats().deadlocks());
        shortWait.releaseAll(c);
    }

    @Test
    void timedOutWaiterUnblocksThoseQueuedBehindIt() throws Exception {
        LockManager shortWait = new LockManager(Duration.ofMillis(300));
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        TxnLockOwner c = new TxnLockOwner(3);
        shortWait.lock(a, R1, S);
        Future<?> bx = pool.submit(() -> shortWait.lock(b, R1, X));
        awaitWaits(shortWait, 1);
        Thread.sleep(150); // so that c's own 300 ms run out well after b's
        Future<?> cs = pool.submit(() -> shortWait.lock(c, R1, S)); // queued behind b's X
        ExecutionException e = assertThrows(ExecutionException.class, () -> bx.get(5, TimeUnit.SECONDS));
        assertEquals(Reason.LOCK_TIMEOUT, ((TransactionAbortedException) e.getCause()).reason());
        cs.get(5, TimeUnit.SECONDS); // granted when b left, before its own timeout
        shortWait.releaseAll(b);
        shortWait.releaseAll(a);
        shortWait.releaseAll(c);
    }

    @Test
    void interruptedWaitAbortsAndKeepsTheInterrupt() throws Exception {
        TxnLockOwner a = new TxnLockOwner(1);
        TxnLockOwner b = new TxnLockOwner(2);
        lm.lock(a, R1, X);
        AtomicReference<TransactionAbortedException> thrown = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                lm.lock(b, R1, X);
            } catch (TransactionAbortedException e) {
                thrown.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        awaitWaits(1);
        t.interrupt();
        t.join(5_000);
        assertFalse(t.isAlive());
        assertEquals(Reason.INTERRUPTED, thrown.get().reason());
        assertTrue(stillInterrupted.get());
        lm.releaseAll(b);
        lm.releaseAll(a);
        TxnLockOwner c = new TxnLockOwner(3);
        lm.lock(c, R1, X); // the interrupted request left the queue
        lm.releaseAll(c);
    }

    @Test
    void rejectsBadConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new LockManager(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new LockManager(Duration.ofSeconds(1), 3));
        assertFalse(new LockManager(Duration.ofSeconds(1), 1).lockWaitTimeout().isZero());
    }

    private void awaitWaits(long n) throws InterruptedException {
        awaitWaits(lm, n);
    }

    static void awaitWaits(LockManager m, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (m.stats().waits() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + n + " waits, saw " + m.stats());
            }
            Thread.sleep(1);
        }
    }

    static void assertStillBlocked(Future<?> f) throws Exception {
        try {
            f.get(100, TimeUnit.MILLISECONDS);
            throw new AssertionError("request was granted but should still wait");
        } catch (TimeoutException expected) {
            // still waiting
        }
    }
}
