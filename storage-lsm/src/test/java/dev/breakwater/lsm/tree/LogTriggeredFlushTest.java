package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjector;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Log-triggered flushes under the B+-dynamic scheme (one monolithic memory table per tree), as the
 * engine's monitor asks for them: on every tick while the log is too long, of each tree holding the
 * oldest LSN. The flush thread is held inside its first table write, so the table holding the oldest
 * LSN stays queued while the "monitor" keeps asking; then the flush counts and causes are checked.
 */
class LogTriggeredFlushTest {

    private static final long POOL = 8L << 20;
    private static final double THRESHOLD = 0.9;

    /** Holds flush threads at their first SSTable write while {@link #hold} is set. */
    private static final class FlushGate implements FaultInjector {
        final AtomicBoolean hold = new AtomicBoolean();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public IOException maybeFail(FileOperation op, Path path) {
            if (op == FileOperation.WRITE && hold.get() && Thread.currentThread().getName().startsWith("breakwater-flush")
                    && path.getFileName().toString().endsWith(TableFiles.SUFFIX)) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return null;
        }
    }

    private interface Body {
        void run(TreeFixture fx, LsmTree tree, FlushGate gate) throws Exception;
    }

    private static void withManagedTree(Body body) throws Exception {
        FlushGate gate = new FlushGate();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        fs.setInjector(gate);
        // B+-dynamic: the memory table never fills on its own; only requests seal it.
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
        try (TreeFixture fx = new TreeFixture(fs, Path.of("/db"), options, POOL)) {
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC,
                    FlushPolicyKind.MIN_LSN, THRESHOLD, 8, 1L << 20, 16 * 1024), () -> 0L);
            try (LsmTree tree = fx.open()) {
                m.register(tree, "d");
                body.run(fx, tree, gate);
            } finally {
                gate.release.countDown();
            }
        }
    }

    private static long lsn;

    private static void write(LsmTree tree, SplittableRandom rnd, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[100];
            rnd.nextBytes(value);
            tree.put(LsmTreeModelTest.key(rnd.nextInt(1_000_000)), value, ++lsn);
        }
    }

    @Test
    void noNewSealWhileTheTableHoldingTheOldestLsnIsQueued() throws Exception {
        withManagedTree((fx, tree, gate) -> {
            SplittableRandom rnd = new SplittableRandom(5);
            write(tree, rnd, 2_000);
            gate.hold.set(true);
            tree.requestFlush(FlushCause.LOG);                 // seals the table holding the oldest LSN
            assertTrue(gate.held.await(30, TimeUnit.SECONDS), "the flush started");
            long firstTable = tree.flushingBytes();
            for (int tick = 0; tick < 50; tick++) {            // the monitor keeps asking while it flushes
                write(tree, rnd, 50);
                tree.requestFlush(FlushCause.LOG);
            }
            gate.hold.set(false);
            gate.release.countDown();
            tree.flush();                                       // the rest, explicitly
            TreeStatisticsSnapshot s = tree.statistics();
            assertEquals(2, s.flushes(), "one log-triggered flush and the explicit one, not one per tick: " + s);
            assertTrue(s.bytesFlushedForLog() > 0 && s.bytesFlushedForMemory() == 0, "the first flush is the log's: " + s);
            assertTrue(firstTable > 0);
        });
    }

    @Test
    void aLogRequestWhilePoolIsAtTheFlushThresholdCountsAsMemory() throws Exception {
        withManagedTree((fx, tree, gate) -> {
            SplittableRandom rnd = new SplittableRandom(6);
            while (fx.pool.usedBytes() < THRESHOLD * fx.pool.capacityBytes()) {
                write(tree, rnd, 100);
            }
            tree.requestFlush(FlushCause.LOG);
            tree.flush();
            TreeStatisticsSnapshot s = tree.statistics();
            assertEquals(1, s.flushes(), s.toString());
            assertEquals(0, s.bytesFlushedForLog(), "the pool was full enough to force this flush: " + s);
            assertEquals(s.bytesFlushed(), s.bytesFlushedForMemory());
        });
    }

    @Test
    void aLogRequestWithMemoryToSpareCountsAsLog() throws Exception {
        withManagedTree((fx, tree, gate) -> {
            write(tree, new SplittableRandom(7), 2_000);
            assertTrue(fx.pool.usedBytes() < 0.5 * fx.pool.capacityBytes());
            tree.requestFlush(FlushCause.LOG);
            tree.flush();
            TreeStatisticsSnapshot s = tree.statistics();
            assertEquals(1, s.flushes(), s.toString());
            assertEquals(s.bytesFlushed(), s.bytesFlushedForLog(), s.toString());
        });
    }

    @Test
    void aLogFlushAWriterStallsOnCountsAsMemory() throws Exception {
        withManagedTree((fx, tree, gate) -> {
            SplittableRandom rnd = new SplittableRandom(8);
            write(tree, rnd, 2_000);
            gate.hold.set(true);
            tree.requestFlush(FlushCause.LOG);                 // memory to spare: sealed as the log's
            assertTrue(gate.held.await(30, TimeUnit.SECONDS), "the flush started");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    write(tree, new SplittableRandom(9), 90_000); // more than the pool holds: the writer stalls
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "writer");
            writer.start();
            while (tree.statistics().writeStalls() == 0 && writer.isAlive()) {
                LockSupport.parkNanos(1_000_000);
            }
            gate.hold.set(false);
            gate.release.countDown();
            writer.join();
            assertTrue(failure.get() == null, () -> "writer failed: " + failure.get());
            tree.flush();
            TreeStatisticsSnapshot s = tree.statistics();
            assertTrue(s.writeStalls() > 0, s.toString());
            assertEquals(0, s.bytesFlushedForLog(), "the writer waited for that flush's memory: it is memory-triggered: " + s);
        });
    }
}
