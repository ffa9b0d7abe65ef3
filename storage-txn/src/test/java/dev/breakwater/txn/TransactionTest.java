package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Multi-record transactions: visibility, read-your-writes, abort, isolation, deadlocks, phantoms. */
class TransactionTest {

    private StorageEngine engine;
    private Dataset c;

    @BeforeEach
    void open() {
        engine = StorageEngine.open(new MemFileSystem(), Path.of("/data"), EngineFixture.smallConfig());
        c = engine.createDataset(EngineFixture.customers());
        for (int id = 1; id <= 10; id++) {
            c.insert(EngineFixture.customer(1, 1, id, "L" + id, 100));
        }
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static List<Integer> ids(Cursor<Tuple> cur) {
        List<Integer> out = new ArrayList<>();
        try (cur) {
            cur.forEachRemaining(t -> out.add(t.getInt(2)));
        }
        return out;
    }

    @Test
    void writesAreVisibleToTheTransactionAtOnceAndToOthersAfterCommit() {
        try (Transaction tx = engine.begin()) {
            tx.upsert(c, EngineFixture.customer(1, 1, 3, "NEW", 1));
            tx.insert(c, EngineFixture.customer(1, 1, 20, "L20", 1));
            tx.delete(c, Key.of(1, 1, 5));
            assertEquals("NEW", tx.get(c, Key.of(1, 1, 3)).getString(3));
            assertNull(tx.get(c, Key.of(1, 1, 5)));
            assertEquals(List.of(1, 2, 3, 4, 6, 7, 8, 9, 10, 20), ids(tx.scan(c, KeyRange.prefix(Key.of(1, 1)))));
            assertEquals(List.of(3), ids(tx.scan(c, "by_last", KeyRange.prefix(Key.of(1, 1, "NEW")))));
            assertTrue(ids(tx.scan(c, "by_last", KeyRange.prefix(Key.of(1, 1, "L5")))).isEmpty(), "own delete hides the index entry");
            assertThrows(DuplicateKeyException.class, () -> tx.insert(c, EngineFixture.customer(1, 1, 20, "again", 1)));
            // Not yet visible outside.
            assertEquals("L3", c.get(Key.of(1, 1, 3)).getString(3));
            tx.commit();
        }
        assertEquals("NEW", c.get(Key.of(1, 1, 3)).getString(3));
        assertNull(c.get(Key.of(1, 1, 5)));
        assertEquals(List.of(3), ids(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 1, "NEW")))));
    }

    @Test
    void writesInOneTransactionCombineWithAndWithoutSecondaryIndexes() {
        Dataset plain = engine.createDataset(DatasetSpec.builder("plain").field("k", dev.breakwater.common.key.FieldType.INT32)
                .field("v", dev.breakwater.common.key.FieldType.STRING).primaryKey("k").build());
        plain.insert(Tuple.of(1, "one"));
        engine.inTransaction(tx -> {
            tx.insert(plain, Tuple.of(2, "two"));
            tx.delete(plain, Key.of(2));          // inserted and deleted: nothing
            tx.upsert(plain, Tuple.of(1, "uno")); // blind upsert: the old record is not read
            tx.upsert(plain, Tuple.of(3, "three"));
            tx.delete(plain, Key.of(3));
            tx.insert(c, EngineFixture.customer(1, 1, 50, "L50", 1));
            tx.delete(c, Key.of(1, 1, 50));        // with an index: no entry may remain
            tx.upsert(c, EngineFixture.customer(1, 1, 2, "RENAMED", 2));
        });
        assertEquals("uno", plain.get(Key.of(1)).getString(1));
        assertNull(plain.get(Key.of(2)));
        assertNull(plain.get(Key.of(3)));
        assertNull(c.get(Key.of(1, 1, 50)));
        assertTrue(ids(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 1, "L50")))).isEmpty());
        assertTrue(ids(c.index("by_last").scan(KeyRange.exactly(Key.of(1, 1, "L2")))).isEmpty(), "old entry removed");
        assertEquals(List.of(2), ids(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 1, "RENAMED")))));
    }

    @Test
    void abortAndCloseDiscardEverything() {
        try (Transaction tx = engine.begin()) {
            tx.upsert(c, EngineFixture.customer(1, 1, 3, "NEW", 1));
            tx.abort();
            assertThrows(IllegalStateException.class, () -> tx.get(c, Key.of(1, 1, 3)));
        }
        try (Transaction tx = engine.begin()) {
            tx.delete(c, Key.of(1, 1, 4));
        } // closed without commit
        assertEquals("L3", c.get(Key.of(1, 1, 3)).getString(3));
        assertEquals("L4", c.get(Key.of(1, 1, 4)).getString(3));
    }

    @Test
    void aWriterWaitsForAReaderOfTheSameRecord() throws Exception {
        Transaction reader = engine.begin();
        reader.get(c, Key.of(1, 1, 1));
        CountDownLatch written = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            c.upsert(EngineFixture.customer(1, 1, 1, "W", 0));
            written.countDown();
        });
        writer.start();
        assertTrue(!written.await(200, TimeUnit.MILLISECONDS), "the writer must wait for the reader's shared lock");
        assertEquals("L1", reader.get(c, Key.of(1, 1, 1)).getString(3), "repeatable read");
        reader.commit();
        assertTrue(written.await(5, TimeUnit.SECONDS));
        writer.join();
        assertEquals("W", c.get(Key.of(1, 1, 1)).getString(3));
    }

    @Test
    void noPhantomsInAScannedRange() throws Exception {
        Transaction scanner = engine.begin();
        assertEquals(10, ids(scanner.scan(c, KeyRange.prefix(Key.of(1, 1)))).size());
        AtomicBoolean inserted = new AtomicBoolean();
        Thread inserter = new Thread(() -> {
            c.insert(EngineFixture.customer(1, 1, 11, "L11", 0));
            inserted.set(true);
        });
        inserter.start();
        Thread.sleep(200);
        assertTrue(!inserted.get(), "an insert into the scanned prefix waits for the scanning transaction");
        assertEquals(10, ids(scanner.scan(c, KeyRange.prefix(Key.of(1, 1)))).size(), "the rescan sees the same records");
        // A write elsewhere (another district) is not blocked.
        c.insert(EngineFixture.customer(1, 2, 1, "other", 0));
        scanner.commit();
        inserter.join(5000);
        assertTrue(inserted.get());
        assertEquals(11, ids(c.scan(KeyRange.prefix(Key.of(1, 1)))).size());
    }

    @Test
    void deadlockAbortsOneTransactionAndInTransactionRetriesIt() throws Exception {
        CountDownLatch bothLocked = new CountDownLatch(2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long retriesBefore = engine.statistics().transactionRetries();
        Runnable a = () -> engine.inTransaction(tx -> {
            tx.upsert(c, EngineFixture.customer(1, 1, 1, "A", 1));
            bothLocked.countDown();
            await(bothLocked);
            tx.upsert(c, EngineFixture.customer(1, 1, 2, "A", 1));
        });
        Runnable b = () -> engine.inTransaction(tx -> {
            tx.upsert(c, EngineFixture.customer(1, 1, 2, "B", 2));
            bothLocked.countDown();
            await(bothLocked);
            tx.upsert(c, EngineFixture.customer(1, 1, 1, "B", 2));
        });
        Thread ta = new Thread(() -> run(a, failure));
        Thread tb = new Thread(() -> run(b, failure));
        ta.start();
        tb.start();
        ta.join(20_000);
        tb.join(20_000);
        assertNull(failure.get());
        // Both committed in some serial order: both keys carry the same writer's name.
        assertEquals(c.get(Key.of(1, 1, 1)).getString(3), c.get(Key.of(1, 1, 2)).getString(3));
        EngineStatistics s = engine.statistics();
        assertTrue(s.locks().deadlocks() >= 1, "deadlocks: " + s.locks());
        assertTrue(s.transactionRetries() > retriesBefore);
    }

    private static void await(CountDownLatch l) {
        try {
            l.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }

    private static void run(Runnable r, AtomicReference<Throwable> failure) {
        try {
            r.run();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }
}
