package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Issue 5: "Level add and retire happen when write memory is resized across the thresholds, and the
 * tree stays correct throughout." Unlike
 * {@link WriteMemoryManagerTreeTest#levelsAreAddedAndRetiredAsTheWriteMemoryShareCrossesTheThresholds},
 * nothing here sets a tree's share: the pool is resized through {@link WriteMemoryManager#resize} and
 * each tree's share ({@code a_i·M_w}, which sizes its levels) is the time-averaged memory the
 * manager's ticks observe it holding.
 */
class WriteMemoryResizeLevelsTest {

    private static final long SEED = Long.getLong("breakwater.seed", 20261122L);
    private static final int TREES = 2;
    private static final int KEYS = 12_000;
    private static final long SMALL_POOL = 256 * 1024;
    private static final long LARGE_POOL = 8L << 20;
    private static final int MAX_ROUNDS = 30;

    @Test
    void growingWriteMemoryRetiresL1AndShrinkingItAddsLevelsBack() throws Exception {
        String where = " (seed " + SEED + ")";
        SplittableRandom rnd = new SplittableRandom(SEED);
        AtomicLong logPosition = new AtomicLong();
        // Monolithic components that never seal on their own (B+-dynamic): a tree's memory, and so
        // its share, follows the pool.
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), options, SMALL_POOL)) {
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC,
                    FlushPolicyKind.MAX_MEMORY, 0.9, 8, 1L << 20, 16 * 1024)
                    // the test is about levels following the share across the thresholds, in a few
                    // seconds of writes: the share follows the trees' memory within milliseconds
                    .withLevelShareTimeConstantNanos(20_000_000), logPosition::get);
            List<LsmTree> trees = new ArrayList<>();
            List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
            for (int i = 0; i < TREES; i++) {
                LsmTree t = LsmTree.open("t" + i, fx.dir.resolve("t" + i), options, fx.resources);
                trees.add(t);
                models.add(TreeFixture.newModel());
                m.register(t, "d" + i);
            }
            m.tick(); // from now on the share is the manager's, not the options' memory-table size
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread ticker = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        m.tick();
                        LockSupport.parkNanos(500_000);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "manager-ticker");
            ticker.setDaemon(true);
            ticker.start();
            try {
                // 1. Small write memory: deep trees.
                long started = System.nanoTime();
                write(trees, models, rnd, logPosition, 60_000, where + " phase 1");
                int[] small = settledLevels(trees, models, where + " after phase 1");
                long smallShare = maxShare(trees);
                System.out.printf("small pool (%d ms): shares %s, levels %s%n", millisSince(started), shares(trees), Arrays.toString(small));
                for (int i = 0; i < TREES; i++) {
                    assertTrue(small[i] >= 3, "small write memory gives L0, L1 and L2 at least" + where + ": " + trees.get(i));
                }

                // 2. Write memory grows 32x: as the trees fill it, the manager sees them hold more, their
                // shares grow past the retire threshold (M·T > 1.5·|L2|) and L1 is retired.
                started = System.nanoTime();
                m.resize(LARGE_POOL, 1_000);
                writeUntil(trees, models, rnd, logPosition, () -> minShare(trees) >= 8 * smallShare, where + " phase 2");
                int[] large = settledLevels(trees, models, where + " after phase 2");
                long largeShare = minShare(trees);
                System.out.printf("large pool (%d ms): shares %s, levels %s -> %s%n", millisSince(started), shares(trees),
                        Arrays.toString(small), Arrays.toString(large));
                assertTrue(largeShare >= 8 * smallShare, "the manager saw the trees hold more memory: shares "
                        + shares(trees) + ", were at most " + smallShare + where);
                for (int i = 0; i < TREES; i++) {
                    assertTrue(large[i] < small[i], "levels retired: " + small[i] + " -> " + trees.get(i) + where);
                }

                // 3. Back to the small pool: the shares fall and levels are added again as data flows in.
                started = System.nanoTime();
                m.resize(SMALL_POOL, 5_000);
                writeUntil(trees, models, rnd, logPosition, () -> maxShare(trees) <= largeShare / 8, where + " phase 3");
                write(trees, models, rnd, logPosition, 20_000, where + " phase 3");
                int[] again = settledLevels(trees, models, where + " after phase 3");
                System.out.printf("small pool again (%d ms): shares %s, levels %s -> %s%n", millisSince(started), shares(trees),
                        Arrays.toString(large), Arrays.toString(again));
                assertTrue(maxShare(trees) < largeShare / 4, "the shares fell with the pool: " + shares(trees) + where);
                for (int i = 0; i < TREES; i++) {
                    assertTrue(again[i] > large[i], "levels added: " + large[i] + " -> " + trees.get(i) + where);
                }
            } finally {
                stop.set(true);
                ticker.join();
                for (LsmTree t : trees) {
                    t.close();
                }
            }
            assertTrue(failures.isEmpty(), () -> "ticker failed: " + failures + where);
        }
    }

    /** Puts and deletes over {@value #KEYS} keys per tree, with point gets checked against the model. */
    private static void write(List<LsmTree> trees, List<TreeMap<byte[], byte[]>> models, SplittableRandom rnd,
                              AtomicLong logPosition, int ops, String where) throws IOException {
        ValueHolder out = new ValueHolder();
        for (int op = 0; op < ops; op++) {
            int ti = rnd.nextInt(TREES);
            LsmTree tree = trees.get(ti);
            TreeMap<byte[], byte[]> model = models.get(ti);
            int k = rnd.nextInt(KEYS);
            byte[] key = LsmTreeModelTest.key(k);
            int dice = rnd.nextInt(100);
            if (dice < 75) {
                byte[] value = new byte[40 + rnd.nextInt(40)];
                rnd.nextBytes(value);
                tree.put(key, value, logPosition.addAndGet(16 + key.length + value.length));
                model.put(key, value);
            } else if (dice < 80) {
                tree.delete(key, logPosition.addAndGet(16 + key.length));
                model.remove(key);
            } else {
                LookupResult r = tree.get(key, out);
                byte[] expected = model.get(key);
                String at = " get " + k + " of tree " + ti + " at op " + op + where;
                assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, at);
                if (expected != null) {
                    assertArrayEquals(expected, out.toArray(), at);
                }
            }
            if (op % 64 == 0) {
                // Pace the writer so the manager's ticks see the trees' memory over time.
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /**
     * Writes in rounds of 10,000 operations until {@code done} holds (at most {@value #MAX_ROUNDS}
     * rounds; the assertions that follow say what was missed), then one more round so flushes and
     * merges act on the new shares.
     */
    private static void writeUntil(List<LsmTree> trees, List<TreeMap<byte[], byte[]>> models, SplittableRandom rnd,
                                   AtomicLong logPosition, BooleanSupplier done, String where) throws IOException {
        for (int round = 0; round < MAX_ROUNDS && !done.getAsBoolean(); round++) {
            write(trees, models, rnd, logPosition, 10_000, where);
        }
        write(trees, models, rnd, logPosition, 10_000, where);
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static long minShare(List<LsmTree> trees) {
        return shares(trees).stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    private static long maxShare(List<LsmTree> trees) {
        return shares(trees).stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    /** Waits for merges, checks every tree's contents, and returns each tree's number of levels (L0 included). */
    private static int[] settledLevels(List<LsmTree> trees, List<TreeMap<byte[], byte[]>> models, String where) throws IOException {
        int[] levels = new int[trees.size()];
        for (int i = 0; i < trees.size(); i++) {
            trees.get(i).awaitMerges();
            levels[i] = trees.get(i).version().levelCount();
            assertEquals("equal", TreeFixture.describeDifference(models.get(i), TreeFixture.contents(trees.get(i))), "tree " + i + where);
        }
        return levels;
    }

    private static List<Long> shares(List<LsmTree> trees) {
        List<Long> s = new ArrayList<>();
        for (LsmTree t : trees) {
            s.add(t.mergeSettings().writeMemoryBytes());
        }
        return s;
    }
}
