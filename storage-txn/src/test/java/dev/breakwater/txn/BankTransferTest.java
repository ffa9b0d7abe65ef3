package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads move money between random accounts in transactions while others sum all balances in
 * one transaction: every sum equals the initial total, and deadlock aborts do happen and are retried.
 */
class BankTransferTest {

    private static final int ACCOUNTS = 40;
    private static final long INITIAL = 1_000;

    @Test
    void totalNeverChanges() throws Exception {
        try (StorageEngine engine = StorageEngine.open(new MemFileSystem(), Path.of("/bank"), EngineFixture.smallConfig())) {
            Dataset accounts = engine.createDataset(DatasetSpec.builder("account").field("id", INT32).field("balance", INT64).primaryKey("id").build());
            for (int i = 0; i < ACCOUNTS; i++) {
                accounts.insert(Tuple.of(i, INITIAL));
            }
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicLong transfers = new AtomicLong();
            AtomicLong audits = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            long end = System.nanoTime() + 3_000_000_000L;
            for (int t = 0; t < 6; t++) {
                int seed = t;
                threads.add(new Thread(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    try {
                        while (System.nanoTime() < end) {
                            int from = rnd.nextInt(ACCOUNTS);
                            int to = rnd.nextInt(ACCOUNTS);
                            long amount = 1 + rnd.nextInt(50);
                            engine.inTransaction(tx -> {
                                Tuple a = tx.get(accounts, Key.of(from));
                                Tuple b = tx.get(accounts, Key.of(to));
                                tx.upsert(accounts, a.with(1, a.getLong(1) - amount));
                                b = tx.get(accounts, Key.of(to)); // re-read: from may equal to
                                tx.upsert(accounts, b.with(1, b.getLong(1) + amount));
                            });
                            transfers.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "transfer-" + t));
            }
            threads.add(new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        long total = engine.callInTransaction(tx -> {
                            long sum = 0;
                            try (Cursor<Tuple> all = tx.scan(accounts, KeyRange.all())) {
                                while (all.hasNext()) {
                                    sum += all.next().getLong(1);
                                }
                            }
                            return sum;
                        });
                        assertEquals(ACCOUNTS * INITIAL, total, "audit sum");
                        audits.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "auditor"));
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " failures; first: " + failures.peek());
                failures.forEach(e::addSuppressed);
                throw e;
            }
            long sum = 0;
            try (Cursor<Tuple> all = accounts.scan(KeyRange.all())) {
                while (all.hasNext()) {
                    sum += all.next().getLong(1);
                }
            }
            assertEquals(ACCOUNTS * INITIAL, sum);
            EngineStatistics s = engine.statistics();
            assertTrue(transfers.get() > 100 && audits.get() > 0, transfers + " transfers, " + audits + " audits");
            assertTrue(s.locks().deadlocks() > 0 && s.transactionRetries() > 0, "deadlocks and retries happen: " + s.locks());
        }
    }
}
