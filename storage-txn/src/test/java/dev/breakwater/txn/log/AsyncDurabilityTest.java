package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.MemFileSystem;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncDurabilityTest {

    private static final long INTERVAL_MS = 20;

    @Test
    void asyncCommitBecomesDurableWithinTheIntervalWithoutWaiters() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        LogOptions opts = LogOptions.of(1 << 16, Durability.ASYNC).withAsyncSyncIntervalMillis(INTERVAL_MS);
        try (LogManager log = open(fs, opts)) {
            for (int round = 0; round < 5; round++) {
                long lsn = log.commit(payload(round));
                long committedAt = System.nanoTime();
                // Nobody waits; the flusher must still get there on its own, in about one interval.
                while (log.durableLsn() <= lsn) {
                    assertTrue(System.nanoTime() - committedAt < TimeUnit.SECONDS.toNanos(2),
                            "ASYNC record not durable after 2 s");
                    Thread.sleep(1);
                }
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - committedAt);
                assertTrue(tookMs < INTERVAL_MS + 500, "took " + tookMs + " ms");
                GroupCommitTest.assertDurableIn(fs.crashClone(), lsn, payload(round));
            }
            assertEquals(5, log.statistics().writtenRecords());
        }
    }

    @Test
    void asyncCommitReturnsBeforeTheFsyncAndAwaitDurableForcesOne() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        // A long interval: without a waiter the record would stay in memory for a minute.
        LogOptions opts = LogOptions.of(1 << 16, Durability.ASYNC).withAsyncSyncIntervalMillis(60_000);
        try (LogManager log = open(fs, opts)) {
            long lsn = log.commit(payload(3));
            assertTrue(log.durableLsn() <= lsn, "ASYNC commit does not wait for the fsync");
            long start = System.nanoTime();
            log.awaitDurable(lsn);
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
            assertTrue(log.durableLsn() > lsn);
            GroupCommitTest.assertDurableIn(fs.crashClone(), lsn, payload(3));
        }
    }

    @Test
    void closeMakesPendingAsyncRecordsDurable() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        LogOptions opts = LogOptions.of(1 << 16, Durability.ASYNC).withAsyncSyncIntervalMillis(60_000);
        long end;
        LogManager log = open(fs, opts);
        for (int i = 0; i < 10; i++) {
            log.commit(payload(i));
        }
        end = log.endLsn();
        log.close();
        log.close();
        assertEquals(end, log.durableLsn());
        assertEquals(10, LogTestSupport.replayAll(fs.crashClone()).size());
    }
}
