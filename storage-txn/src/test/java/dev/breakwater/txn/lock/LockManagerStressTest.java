package dev.breakwater.txn.lock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.txn.TransactionAbortedException;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Many threads run short transactions that lock a few random keys of a small key space in random
 * order (S, X, or S then upgrade to X) under an intention or scan lock on their parent, retrying on
 * abort with the same owner. Checks that every transaction commits, no thread hangs, deadlocks
 * happen and are all resolved by detection (no timeouts), that the locks really exclude (per-key
 * reader/writer counters that a holder changes only while it holds the lock), and that nothing is
 * left in the table afterwards. Seeded per thread; a few seconds at most.
 */
class LockManagerStressTest {

    private static final int THREADS = 8;
    private static final int TXNS_PER_THREAD = 400;
    private static final int KEYS = 12;
    private static final long PARENT = 1_000;

    private final LockManager lm = new LockManager();
    private final AtomicInteger[] readers = counters(KEYS);
    private final AtomicInteger[] writers = counters(KEYS);
    private final AtomicInteger parentScanners = new AtomicInteger();
    private final AtomicInteger parentWriters = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong();
    private final LongAdder commits = new LongAdder();
    private final LongAdder aborts = new LongAdder();
    private final AtomicInteger violations = new AtomicInteger();

    @Test
    void randomTransactionsAllCommitDespiteDeadlocks() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long start = System.nanoTime();
        Future<?>[] workers = new Future<?>[THREADS];
        for (int t = 0; t < THREADS; t++) {
            long seed = 0x5eed_0000L + t;
            workers[t] = pool.submit(() -> runWorker(new Random(seed)));
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "a worker hung; stats " + lm.stats());
        for (Future<?> w : workers) {
            w.get(); // rethrows a worker's failure
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        LockStats stats = lm.stats();
        System.out.printf("stress: %d commits, %d aborts in %d ms; %s%n", commits.sum(), aborts.sum(), millis, stats);

        assertEquals(THREADS * TXNS_PER_THREAD, commits.sum());
        assertEquals(0, violations.get(), "lock exclusion violated");
        assertTrue(stats.deadlocks() > 0, "the workload should deadlock sometimes: " + stats);
        assertEquals(0, stats.timeouts(), "every deadlock is found by detection, not by timeout");
        assertEquals(stats.deadlocks(), aborts.sum());
        assertArrayEquals(new int[] {0, 0}, lm.tableSizes(), "lock table and waits-for graph are empty");
    }

    private void runWorker(Random rnd) {
        for (int i = 0; i < TXNS_PER_THREAD; i++) {
            TxnLockOwner owner = new TxnLockOwner(nextId.incrementAndGet());
            long seed = rnd.nextLong();
            while (true) {
                // Replaying the same choices on retry, as a real transaction would re-execute.
                Map<Integer, LockMode> mine = new HashMap<>();
                LockMode parentMode = null;
                try {
                    parentMode = runTransaction(owner, new Random(seed), mine);
                    undo(mine, parentMode);
                    lm.releaseAll(owner);
                    commits.increment();
                    break;
                } catch (TransactionAbortedException e) {
                    aborts.increment();
                    undo(mine, owner.heldMode(PARENT));
                    lm.releaseAll(owner);
                }
            }
        }
    }

    /** Takes the transaction's locks, recording each in the counters; returns the parent's mode. */
    private LockMode runTransaction(TxnLockOwner owner, Random rnd, Map<Integer, LockMode> mine) {
        boolean scan = rnd.nextInt(10) == 0;
        boolean writes = !scan && rnd.nextBoolean();
        LockMode parentMode = scan ? LockMode.S : writes ? LockMode.IX : LockMode.IS;
        lm.lock(owner, PARENT, parentMode);
        if (parentMode == LockMode.S) {
            check(parentScanners.incrementAndGet() > 0 && parentWriters.get() == 0);
        } else if (parentMode == LockMode.IX) {
            parentWriters.incrementAndGet();
            check(parentScanners.get() == 0);
        }
        int n = 2 + rnd.nextInt(4);
        for (int j = 0; j < n; j++) {
            int key = rnd.nextInt(KEYS);
            int kind = writes ? rnd.nextInt(3) : 0; // 0 = read, 1 = write, 2 = read then upgrade
            lockKey(owner, key, kind == 1 ? LockMode.X : LockMode.S, mine);
            pause(rnd);
            if (kind == 2) {
                lockKey(owner, key, LockMode.X, mine);
                pause(rnd);
            }
        }
        return parentMode;
    }

    private void lockKey(TxnLockOwner owner, int key, LockMode mode, Map<Integer, LockMode> mine) {
        lm.lock(owner, key, mode);
        LockMode before = mine.get(key);
        if (before == LockMode.X || before == mode) {
            return;
        }
        if (mode == LockMode.S) {
            readers[key].incrementAndGet();
            check(writers[key].get() == 0);
        } else {
            if (before == LockMode.S) {
                readers[key].decrementAndGet();
            }
            check(writers[key].incrementAndGet() == 1 && readers[key].get() == 0);
        }
        mine.put(key, mode);
    }

    /** Takes back this transaction's marks; requires that it still holds its locks. */
    private void undo(Map<Integer, LockMode> mine, LockMode parentMode) {
        mine.forEach((key, mode) -> (mode == LockMode.X ? writers : readers)[key].decrementAndGet());
        mine.clear();
        if (parentMode == LockMode.S) {
            parentScanners.decrementAndGet();
        } else if (parentMode == LockMode.IX) {
            parentWriters.decrementAndGet();
        }
    }

    private void check(boolean ok) {
        if (!ok) {
            violations.incrementAndGet();
        }
    }

    private static void pause(Random rnd) {
        if (rnd.nextInt(4) == 0) {
            LockSupport.parkNanos(20_000);
        } else {
            Thread.yield();
        }
    }

    private static AtomicInteger[] counters(int n) {
        AtomicInteger[] a = new AtomicInteger[n];
        for (int i = 0; i < n; i++) {
            a[i] = new AtomicInteger();
        }
        return a;
    }
}
