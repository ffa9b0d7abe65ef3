package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every handle (cursor, dataset, index, transaction) used after its engine closed throws
 * {@link EngineClosedException} and touches no freed memory; before the engine had a gate, a cursor
 * step after close read a freed buffer-cache or write-memory page and crashed the JVM (SIGSEGV).
 * Close invalidates open cursors, also one being iterated on another thread.
 */
class ClosedEngineHandlesTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/data");

    private static void load(Dataset c, int rows) {
        for (int i = 0; i < rows; i++) {
            c.upsert(EngineFixture.customer(1, i % 10, i, "NAME" + (i % 7), i));
        }
    }

    @Test
    void everyHandleThrowsEngineClosedAfterClose() {
        StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 2_000);
        engine.flushAndAwaitMerges(); // part of the data in SSTables read through the buffer cache
        load(c, 200);
        Cursor<Tuple> primary = c.scan(KeyRange.all());
        Cursor<Tuple> secondary = c.index("by_last").scan(KeyRange.all());
        primary.next();
        secondary.next();
        Index index = c.index("by_last");
        Transaction tx = engine.begin();
        tx.get(c, Key.of(1, 1, 1));

        engine.close();

        assertThrows(EngineClosedException.class, primary::hasNext);
        assertThrows(EngineClosedException.class, primary::next);
        assertThrows(EngineClosedException.class, secondary::hasNext);
        primary.close(); // a no-op: the engine released it
        secondary.close();
        assertThrows(EngineClosedException.class, () -> c.get(Key.of(1, 1, 1)));
        assertThrows(EngineClosedException.class, () -> c.upsert(EngineFixture.customer(1, 1, 1, "X", 1)));
        assertThrows(EngineClosedException.class, () -> c.scan(KeyRange.all()));
        assertThrows(EngineClosedException.class, () -> index.scan(KeyRange.all()));
        assertThrows(EngineClosedException.class, () -> c.index("by_last"));
        assertThrows(EngineClosedException.class, c::spec);
        assertThrows(EngineClosedException.class, () -> tx.get(c, Key.of(1, 1, 2)));
        assertThrows(EngineClosedException.class, () -> tx.upsert(c, EngineFixture.customer(1, 1, 1, "X", 1)));
        assertThrows(EngineClosedException.class, tx::commit);
        tx.close();
        assertThrows(EngineClosedException.class, engine::begin);
        engine.close(); // idempotent
    }

    @Test
    void aCursorBeingIteratedOnAnotherThreadEndsWithEngineClosed() throws Exception {
        long offHeapBefore = OffHeapMemory.reservedBytes();
        StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        int rows = 20_000;
        load(c, rows);
        CountDownLatch iterating = new CountDownLatch(1);
        AtomicInteger seen = new AtomicInteger();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (Cursor<Tuple> cur = c.index("by_last").scan(KeyRange.all())) {
                while (cur.hasNext()) {
                    cur.next();
                    if (seen.incrementAndGet() == 1) {
                        iterating.countDown();
                    }
                }
            } catch (Throwable t) {
                ended.set(t);
            }
        }, "reader");
        reader.start();
        assertTrue(iterating.await(30, TimeUnit.SECONDS));
        engine.close();
        reader.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(reader.isAlive());
        Throwable t = ended.get();
        if (t != null) {
            assertTrue(t instanceof EngineClosedException, "the reader ends with EngineClosedException, not " + t);
            assertTrue(seen.get() < rows, "stopped part way: " + seen.get());
        } else {
            assertEquals(rows, seen.get(), "a reader that finished before close saw every row");
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "close released every off-heap byte");
    }

    @Test
    void closeWaitsForNoCursorButReleasesItsSnapshotSoReopenWorks() {
        StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 500);
        Cursor<Tuple> open = c.scan(KeyRange.all());
        open.next();
        engine.close(); // returns although the cursor was never closed
        try (StorageEngine again = StorageEngine.open(fs, dir, EngineFixture.smallConfig())) {
            try (Cursor<Tuple> all = again.dataset("customer").scan(KeyRange.all())) {
                int n = 0;
                while (all.hasNext()) {
                    all.next();
                    n++;
                }
                assertEquals(500, n);
            }
        }
        assertThrows(EngineClosedException.class, open::hasNext);
    }

    @Test
    void aCursorStepRacingCloseNeverSeesFreedMemory() throws Exception {
        // Many short rounds: a reader opens cursors and steps them while the main thread closes.
        for (int round = 0; round < 20; round++) {
            MemFileSystem roundFs = new MemFileSystem();
            StorageEngine engine = StorageEngine.open(roundFs, dir, EngineFixture.smallConfig());
            Dataset c = engine.createDataset(EngineFixture.customers());
            load(c, 300);
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                started.countDown();
                try {
                    while (true) {
                        try (Cursor<Tuple> cur = c.scan(KeyRange.all())) {
                            cur.forEachRemaining(x -> { });
                        }
                        c.get(Key.of(1, 3, 3));
                    }
                } catch (EngineClosedException expected) {
                    // the only way out
                } catch (Throwable t) {
                    unexpected.set(t);
                }
            });
            reader.start();
            started.await();
            engine.close();
            reader.join();
            if (unexpected.get() != null) {
                fail("round " + round, unexpected.get());
            }
        }
    }
}
