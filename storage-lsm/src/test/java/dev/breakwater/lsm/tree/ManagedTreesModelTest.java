package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.manager.ForwardingManagedTree;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryKinds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model-based random test of the LSM issue ({@link LsmTreeModelTest}) run the way issue 5 asks:
 * several trees of several datasets registered with one {@link WriteMemoryManager} and sharing one
 * small pool, under every write-memory scheme and every flush policy. A ticker thread runs the
 * manager and, like the engine's monitor, asks the trees holding the oldest LSN for a log-triggered
 * flush when the log grows past its maximum length. The driver thread writes, deletes, reads and
 * scans random trees against one {@link TreeMap} per tree, with explicit flushes, pool resizes and a
 * close and reopen of every tree mid-run interleaved. A watcher checks that pool usage never exceeds
 * the budget.
 *
 * <p>The operation sequence is a function of the seed ({@code -Dbreakwater.seed=S}, mixed with the
 * case); which trees the manager flushes, and when, depends on thread timing, as in the engine.
 * {@code -Dbreakwater.managedModelOps=N} runs more operations.
 */
class ManagedTreesModelTest {

    private static final int OPS = Integer.getInteger("breakwater.managedModelOps", 100_000);
    private static final long SEED = Long.getLong("breakwater.seed", 20261122L);
    private static final int TREES = 6;
    /** Trees i and i + DATASETS belong to dataset i (a primary and a secondary index, say). */
    private static final int DATASETS = 3;
    /** D for the STATIC scheme: fewer than DATASETS, so writes keep deactivating datasets. */
    private static final int STATIC_DATASETS = 2;
    private static final long POOL = 1L << 20;
    /**
     * The log length past which the ticker asks for a log-triggered flush (writes advance the log by
     * about 80 bytes): larger than the pool, so memory-triggered flushes happen too; the driver also
     * asks for log-triggered flushes now and then.
     */
    private static final long MAX_LOG_BYTES = 2L << 20;

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (WriteMemoryScheme scheme : WriteMemoryScheme.values()) {
            for (FlushPolicyKind policy : FlushPolicyKind.values()) {
                all.add(Arguments.of(scheme, policy, MemoryKinds.SKIP_LIST));
            }
        }
        // Every other memory-component kind under every scheme, with one policy (CI time).
        MemoryKinds.others().forEach(spec -> {
            for (WriteMemoryScheme scheme : WriteMemoryScheme.values()) {
                all.add(Arguments.of(scheme, FlushPolicyKind.OPTIMAL, spec));
            }
        });
        return all.stream();
    }

    /** PARTITIONED: M0 of 32 KiB sealed into two memory levels; DYNAMIC and STATIC: one unbounded table per tree. */
    private static LsmTreeOptions treeOptions(WriteMemoryScheme scheme) {
        LsmTreeOptions base = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        return scheme == WriteMemoryScheme.PARTITIONED ? base.withMemoryTableBytes(32 * 1024).withMemoryLevels(2)
                : base.withMemoryTableBytes(1L << 40).withMemoryLevels(0);
    }

    /**
     * Registers with the manager in place of the tree and counts the flush requests it receives:
     * the test sees which causes actually reached the trees.
     */
    private static final class CountingTree extends ForwardingManagedTree {
        final LsmTree tree;
        final LongAdder[] requests;
        final AtomicReference<Thread> inNoteWrite;
        final LongAdder deactivations;

        CountingTree(LsmTree tree, LongAdder[] requests, AtomicReference<Thread> inNoteWrite, LongAdder deactivations) {
            super(tree);
            this.tree = tree;
            this.requests = requests;
            this.inNoteWrite = inNoteWrite;
            this.deactivations = deactivations;
        }

        private void count(FlushCause cause) {
            requests[cause.ordinal()].increment();
            if (inNoteWrite.get() == Thread.currentThread()) {
                deactivations.increment(); // STATIC: a write to another dataset evicted this one's
            }
        }

        @Override
        public void requestFlush(FlushCause cause) {
            count(cause);
            tree.requestFlush(cause);
        }

        @Override
        public long requestFlush(FlushCause cause, long bytes) {
            count(cause);
            return tree.requestFlush(cause, bytes);
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void randomOperationsOnManagedTreesAgreeWithTreeMaps(WriteMemoryScheme scheme, FlushPolicyKind policy, MemoryComponentSpec spec)
            throws Exception {
        long seed = SEED ^ (scheme.ordinal() * 31L + policy.ordinal());
        int ops = OPS;
        String where = " (seed " + seed + ", " + scheme + " " + policy + " " + spec.kind() + "; rerun with -Dbreakwater.seed=" + SEED + ")";
        long offHeapBefore = OffHeapMemory.reservedBytes();
        Random rnd = new Random(seed);
        AtomicLong logPosition = new AtomicLong();
        LongAdder[] requests = {new LongAdder(), new LongAdder(), new LongAdder()};
        AtomicReference<Thread> inNoteWrite = new AtomicReference<>();
        LongAdder deactivations = new LongAdder();
        List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
        for (int i = 0; i < TREES; i++) {
            models.add(TreeFixture.newModel());
        }
        ValueHolder out = new ValueHolder();
        int reopenAt = ops / 2 + rnd.nextInt(ops / 4);
        int resizes = 0;
        long flushes = 0;
        long logFlushedBytes = 0;
        long memorySeals = 0;
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), treeOptions(scheme), POOL, spec)) {
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(scheme, policy, 0.9,
                    STATIC_DATASETS, 4 * MAX_LOG_BYTES, 64 * 1024), logPosition::get);
            List<CountingTree> trees = new ArrayList<>();
            openAll(fx, m, trees, logPosition, requests, inNoteWrite, deactivations);
            // The ticker pauses (takes this lock) while the driver closes and reopens the trees.
            ReentrantLock treesLock = new ReentrantLock();
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread ticker = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        treesLock.lock();
                        try {
                            m.tick();
                            requestLogFlushes(trees, logPosition.get(), MAX_LOG_BYTES);
                        } finally {
                            treesLock.unlock();
                        }
                        LockSupport.parkNanos(1_000_000);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "manager-ticker");
            // The budget the pool may be over: after a shrink, the old one until usage fell below the new.
            AtomicLong ceiling = new AtomicLong(fx.pool.capacityBytes());
            AtomicLong overBudget = new AtomicLong(-1);
            Thread watcher = new Thread(() -> {
                while (!stop.get()) {
                    long limit = ceiling.get();
                    long used = fx.pool.usedBytes();
                    if (used > limit && ceiling.get() == limit) {
                        overBudget.compareAndSet(-1, used - limit);
                    }
                    LockSupport.parkNanos(20_000);
                }
            }, "pool-watcher");
            ticker.setDaemon(true);
            watcher.setDaemon(true);
            ticker.start();
            watcher.start();
            try {
                int ti = 0;
                for (int op = 0; op < ops; op++) {
                    if (rnd.nextInt(100) == 0) {
                        ti = rnd.nextInt(TREES); // runs of operations on one tree, so one dataset leads for a while
                    }
                    int k = rnd.nextInt(4000);
                    byte[] key = LsmTreeModelTest.key(k);
                    int dice = rnd.nextInt(10_000);
                    int target = dice >= 7000 && dice < 9960 && rnd.nextBoolean() ? rnd.nextInt(TREES) : ti; // reads go anywhere
                    CountingTree ct = trees.get(target);
                    TreeMap<byte[], byte[]> model = models.get(target);
                    String at = " at op " + op + ", tree " + target + where;
                    if (dice < 6000) {
                        byte[] value = new byte[rnd.nextInt(120)];
                        rnd.nextBytes(value);
                        noteWrite(m, target, inNoteWrite);
                        ct.tree.put(key, value, logPosition.addAndGet(16 + key.length + value.length));
                        model.put(key, value);
                    } else if (dice < 7000) {
                        noteWrite(m, target, inNoteWrite);
                        ct.tree.delete(key, logPosition.addAndGet(16 + key.length));
                        model.remove(key);
                    } else if (dice < 9200) {
                        LookupResult r = ct.tree.get(key, out);
                        byte[] expected = model.get(key);
                        assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, "get " + k + at);
                        if (expected != null) {
                            assertArrayEquals(expected, out.toArray(), "value of " + k + at);
                        }
                    } else if (dice < 9960) {
                        TreeFixture.checkScan(ct.tree, model, key, rnd.nextInt(10) == 0 ? null : LsmTreeModelTest.key(k + rnd.nextInt(200)), 40, at);
                    } else if (dice < 9965) {
                        ct.tree.flush();
                    } else if (dice < 9968) {
                        // What the engine's monitor does when the log passed its maximum length.
                        requestLogFlushes(trees, Long.MAX_VALUE, 0);
                    } else if (dice < 9980) {
                        // Resize the pool between half and one and a half times its starting size.
                        long capacity = POOL / 2 + (long) rnd.nextInt(5) * (POOL / 4);
                        if (capacity >= ceiling.get()) {
                            ceiling.set(capacity);
                        }
                        m.resize(capacity, 2_000);
                        resizes++;
                    } else if (rnd.nextInt(20) == 0) {
                        // Now and then let every flush finish and settle the merges, as the LSM model test does.
                        ct.tree.awaitMerges();
                    }
                    if (fx.pool.usedBytes() <= fx.pool.capacityBytes()) {
                        // Below the new budget no allocation can take usage past it again.
                        ceiling.set(fx.pool.capacityBytes());
                    }
                    if (op == reopenAt) {
                        treesLock.lock();
                        try {
                            for (CountingTree t : trees) {
                                TreeStatisticsSnapshot s = t.tree.statistics();
                                flushes += s.flushes();
                                logFlushedBytes += s.bytesFlushedForLog();
                                memorySeals += s.memorySeals();
                                m.unregister(t);
                                t.tree.close(); // flushes first: nothing may be lost
                            }
                            trees.clear();
                            openAll(fx, m, trees, logPosition, requests, inNoteWrite, deactivations);
                        } finally {
                            treesLock.unlock();
                        }
                        for (int i = 0; i < TREES; i++) {
                            assertEquals("equal", TreeFixture.describeDifference(models.get(i), TreeFixture.contents(trees.get(i).tree)),
                                    "tree " + i + " after reopen" + where);
                        }
                    }
                }
                for (int i = 0; i < TREES; i++) {
                    assertEquals("equal", TreeFixture.describeDifference(models.get(i), TreeFixture.contents(trees.get(i).tree)),
                            "tree " + i + " at the end" + where);
                }
            } finally {
                stop.set(true);
                ticker.join();
                watcher.join();
                for (CountingTree t : trees) {
                    TreeStatisticsSnapshot s = t.tree.statistics();
                    flushes += s.flushes();
                    logFlushedBytes += s.bytesFlushedForLog();
                    memorySeals += s.memorySeals();
                    t.tree.close();
                }
            }
            assertTrue(failures.isEmpty(), () -> "ticker failed: " + failures + where);
            assertEquals(-1, overBudget.get(), "pool usage exceeded its budget by " + overBudget.get() + " bytes" + where);
            // Everything reached disk at close: reopening shows exactly the models.
            trees.clear();
            for (int i = 0; i < TREES; i++) {
                try (LsmTree again = LsmTree.open("t" + i, fx.dir.resolve("t" + i), fx.options, fx.resources, true, fx.memorySpec)) {
                    assertEquals("equal", TreeFixture.describeDifference(models.get(i), TreeFixture.contents(again)),
                            "tree " + i + " reopened after the run" + where);
                }
            }
            String summary = String.format("%s %s: %d flushes, %d bytes flushed by log, %d memory seals, %d resizes, "
                    + "requests memory/log/explicit %d/%d/%d, %d deactivation flushes", scheme, policy, flushes, logFlushedBytes,
                    memorySeals, resizes, requests[0].sum(), requests[1].sum(), requests[2].sum(), deactivations.sum());
            System.out.println(summary);
            assertTrue(resizes > 0, summary);
            assertTrue(requests[FlushCause.MEMORY.ordinal()].sum() > 0, "the manager asked for memory-triggered flushes: " + summary);
            assertTrue(requests[FlushCause.LOG.ordinal()].sum() > 0 && logFlushedBytes > 0, "log-triggered flushes happened: " + summary);
            if (scheme == WriteMemoryScheme.PARTITIONED) {
                assertTrue(memorySeals > 0, "M0 was sealed into memory levels: " + summary);
            }
            if (scheme == WriteMemoryScheme.STATIC) {
                assertTrue(deactivations.sum() > 0, "writes to a further dataset deactivated one: " + summary);
            }
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "every off-heap byte released" + where);
    }

    private static void openAll(TreeFixture fx, WriteMemoryManager m, List<CountingTree> trees, AtomicLong logPosition,
                                LongAdder[] requests, AtomicReference<Thread> inNoteWrite, LongAdder deactivations) throws IOException {
        for (int i = 0; i < TREES; i++) {
            LsmTree t = LsmTree.open("t" + i, fx.dir.resolve("t" + i), fx.options, fx.resources, true, fx.memorySpec);
            t.setLogWindow(logPosition::get, MAX_LOG_BYTES);
            CountingTree ct = new CountingTree(t, requests, inNoteWrite, deactivations);
            trees.add(ct);
            m.register(ct, "d" + (i % DATASETS));
        }
    }

    /** What the engine does before a transaction writes a dataset (STATIC activates it, maybe evicting another). */
    private static void noteWrite(WriteMemoryManager m, int tree, AtomicReference<Thread> inNoteWrite) {
        inNoteWrite.set(Thread.currentThread());
        try {
            m.noteWrite("d" + (tree % DATASETS));
        } finally {
            inNoteWrite.set(null);
        }
    }

    /**
     * The engine monitor's log-triggered flush: with no log truncation here, the log length is how
     * far the oldest LSN still in memory lies behind the log's end.
     */
    private static void requestLogFlushes(List<CountingTree> trees, long end, long maxLogBytes) {
        long oldest = Long.MAX_VALUE;
        for (CountingTree t : trees) {
            oldest = Math.min(oldest, t.oldestMemoryLsn());
        }
        if (oldest != Long.MAX_VALUE && end - oldest > maxLogBytes) {
            for (CountingTree t : trees) {
                if (t.oldestMemoryLsn() == oldest) {
                    t.requestFlush(FlushCause.LOG);
                }
            }
        }
    }
}
