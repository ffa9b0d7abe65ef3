package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers, readers and background flushes and merges at once. Each writer walks its own keys in
 * order, writing a growing version number into each key several times; a snapshot is consistent
 * iff, per writer, it reflects a prefix of that writer's writes: versions never increase along the
 * writer's key order except across its one current position. One scanner reads forward, the other
 * backward (reverse scans pin the same snapshot). Finally, no update is lost.
 */
class LsmTreeConcurrencyTest {

    private static final int WRITERS = 3;
    private static final int KEYS = 3000;
    private static final int ROUNDS = 4;

    static byte[] key(int writer, int i) {
        return ByteBuffer.allocate(8).putInt(writer).putInt(i).array();
    }

    /**
     * A partitioned component gets a small M0, so seals (and, when the background keeps up, memory
     * merges: LsmTreeModelTest asserts those run) happen while scans read.
     */
    private static LsmTreeOptions options(int memoryLevels) {
        LsmTreeOptions o = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryLevels(memoryLevels);
        return memoryLevels == 0 ? o : o.withMemoryTableBytes(16 * 1024);
    }

    @ParameterizedTest(name = "memory levels {0}")
    @ValueSource(ints = {0, 2, 3})
    void scansSeeOneSnapshotAndNoUpdateIsLost(int memoryLevels) throws Exception {
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/t"),
                options(memoryLevels), 2L << 20);
             LsmTree tree = fx.open()) {
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger scansChecked = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    try {
                        byte[] value = new byte[64];
                        for (int round = 1; round <= ROUNDS; round++) {
                            for (int i = 0; i < KEYS; i++) {
                                ByteBuffer.wrap(value).putInt(round);
                                tree.put(key(writer, i), value, 0);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "writer-" + w));
            }
            for (int r = 0; r < 2; r++) {
                boolean descending = r == 1;
                threads.add(new Thread(() -> {
                    try {
                        while (!done.get()) {
                            checkSnapshot(tree, descending);
                            scansChecked.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "scanner-" + r));
            }
            for (Thread t : threads) {
                t.start();
            }
            for (int w = 0; w < WRITERS; w++) {
                threads.get(w).join();
            }
            done.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " failures, first: " + failures.peek());
                failures.forEach(e::addSuppressed);
                throw e;
            }
            ValueHolder out = new ValueHolder();
            for (int w = 0; w < WRITERS; w++) {
                for (int i = 0; i < KEYS; i++) {
                    assertEquals(LookupResult.FOUND, tree.get(key(w, i), out));
                    assertEquals(ROUNDS, ByteBuffer.wrap(out.bytes()).getInt(), "final version of " + w + ":" + i);
                }
            }
            assertTrue(scansChecked.get() > 0);
            TreeStatisticsSnapshot s = tree.statistics();
            // The run must span several flushes and merges; how many depends on how much the memory
            // levels absorb before one fills (a build saw exactly 3 flushes with 2 memory levels).
            assertTrue(s.flushes() >= 3 && s.merges() > 0, s.toString());
        }
    }

    /**
     * Per writer: the versions seen along its key order must be some {@code v+1} for a prefix and
     * {@code v} after it (or all equal), with no key missing once the first round passed it.
     */
    private static void checkSnapshot(LsmTree tree, boolean descending) throws Exception {
        int[][] seen = new int[WRITERS][KEYS];
        long previous = descending ? Long.MAX_VALUE : -1;
        try (EntryCursor c = descending ? tree.reverseScan(null, null) : tree.scan(null, null)) {
            while (c.next()) {
                long k = ByteBuffer.wrap(c.key(), 0, c.keyLength()).getLong();
                if (descending ? k >= previous : k <= previous) {
                    throw new AssertionError("keys out of order: " + Long.toHexString(k) + " after " + Long.toHexString(previous)
                            + (descending ? " in a reverse scan" : ""));
                }
                previous = k;
                seen[(int) (k >>> 32)][(int) k] = ByteBuffer.wrap(c.value()).getInt();
            }
        }
        for (int w = 0; w < WRITERS; w++) {
            int first = seen[w][0];
            boolean dropped = false;
            for (int i = 1; i < KEYS; i++) {
                int v = seen[w][i];
                if (v == first) {
                    if (dropped) {
                        throw new AssertionError("writer " + w + ": key " + i + " has version " + v + " after a key with " + (first - 1)
                                + ": the scan saw a later write without an earlier one");
                    }
                } else if (v == first - 1 && !dropped) {
                    dropped = true;
                } else if (v != first - 1) {
                    throw new AssertionError("writer " + w + ": key " + i + " has version " + v + ", first key has " + first);
                }
            }
        }
    }
}
