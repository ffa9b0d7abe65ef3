package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A level change that falls due while a merge runs is applied when that merge ends, before the next
 * merge starts. Issue 18 measured the opposite under a steady load: L0 was due again whenever a merge
 * ended, so the scheduler (which changes levels only while no merge runs) kept picking L0 merges into
 * the one over-full level, and the change waited for the load to stop (5 of 17 leveling runs, write
 * amplification up to 27.8 against about 8). The merge pool here is gated, so the test decides when
 * each merge runs and sees what the scheduler picked next.
 */
class LevelChangeHoldTest {

    private static final int KEYS = 4_000;

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(Long.reverse(k)).array();
    }

    @Test
    void aDueLevelAdditionGoesBeforeTheNextL0Merge() throws Exception {
        GatedExecutor merges = new GatedExecutor();
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withL0(2, 10, 14); // l0MaxGroups 8
        Random rnd = new Random(18);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/hold"), options, 8L << 20, merges); LsmTree tree = fx.open()) {
            try {
                run(tree, merges, model, rnd);
            } finally {
                merges.open(); // a failed assertion must not leave merges the tree's close waits for
            }
            tree.awaitMerges();
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
            assertTrue(tree.versions.current().levelCount() >= 3);
        } finally {
            merges.shutdownNow();
        }
    }

    private static void run(LsmTree tree, GatedExecutor merges, TreeMap<byte[], byte[]> model, Random rnd) throws Exception {
        tree.setWriteMemoryShare(1L << 20); // B*T = 4 MiB: one disk level for what follows
        for (long k = 0; k < KEYS; k++) {
            put(tree, model, rnd, k);
        }
        tree.flush();
        updateAndFlush(tree, model, rnd);
        updateAndFlush(tree, model, rnd);
        tree.awaitMerges();
        Version before = tree.versions.current();
        assertEquals(2, before.levelCount(), "L0 and one disk level: " + before);

        merges.close();
        updateAndFlush(tree, model, rnd);
        updateAndFlush(tree, model, rnd); // L0 is due: its merge into L1 is picked and held
        assertEquals(1, merges.held(), "an L0 merge waits at the gate: " + tree.versions.current());
        tree.setWriteMemoryShare(16 * 1024); // B*T = 64 KiB < |L1|: an empty L1 is now due
        updateAndFlush(tree, model, rnd);
        updateAndFlush(tree, model, rnd); // L0 is due again, as under a steady load
        assertEquals(1, merges.held(), "no second merge starts while the level change is due");

        merges.releaseOne(); // the first merge runs; when it ends the scheduler picks again
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (merges.held() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, merges.held(), "the next L0 merge was picked");
        Version next = tree.versions.current();
        assertEquals(3, next.levelCount(), "the empty L1 was added before the next L0 merge started, not after the load: " + next);
        assertEquals(0, next.levelBytes(1), next.toString());
    }

    private static void put(LsmTree tree, TreeMap<byte[], byte[]> model, Random rnd, long k) throws IOException {
        byte[] v = new byte[40];
        rnd.nextBytes(v);
        tree.put(key(k), v, 0);
        model.put(key(k), v);
    }

    /** One L0 group spanning the key space: updates of half the keys, then a flush. */
    private static void updateAndFlush(LsmTree tree, TreeMap<byte[], byte[]> model, Random rnd) throws IOException {
        for (int i = 0; i < KEYS / 2; i++) {
            put(tree, model, rnd, rnd.nextInt(KEYS));
        }
        tree.flush();
    }

    /** A single merge thread behind a gate: while closed, submitted merges wait in order. Thread-safe. */
    static final class GatedExecutor extends AbstractExecutorService {
        private final ExecutorService delegate = Executors.newSingleThreadExecutor();
        private final List<Runnable> held = new ArrayList<>();
        private boolean open = true;

        synchronized void close() {
            open = false;
        }

        synchronized int held() {
            return held.size();
        }

        synchronized void releaseOne() {
            delegate.execute(held.remove(0));
        }

        synchronized void open() {
            open = true;
            held.forEach(delegate::execute);
            held.clear();
        }

        @Override
        public synchronized void execute(Runnable command) {
            if (open) {
                delegate.execute(command);
            } else {
                held.add(command);
            }
        }

        @Override
        public void shutdown() {
            open();
            delegate.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return delegate.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return delegate.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return delegate.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return delegate.awaitTermination(timeout, unit);
        }
    }
}
