package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static dev.breakwater.txn.log.LogTestSupport.replay;
import static dev.breakwater.txn.log.LogTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.txn.log.LogTestSupport.Rec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupCommitTest {

    private static final int THREADS = 16;
    private static final int COMMITS_PER_THREAD = 300;

    @Test
    void sixteenSyncCommittersShareFsyncsAndReturnOnlyOnceDurable() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        Map<Long, byte[]> committed = new ConcurrentHashMap<>();
        AtomicReference<Throwable> error = new AtomicReference<>();
        AtomicBoolean done = new AtomicBoolean();
        LogStatistics stats;
        try (LogManager log = open(fs, options(1 << 16, Durability.SYNC))) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < COMMITS_PER_THREAD; i++) {
                            byte[] p = payload(thread * 100_000L + i);
                            long lsn = log.commit(p);
                            assertTrue(lsn < log.durableLsn(), "commit returned before its record was durable");
                            committed.put(lsn, p);
                            if (i % 50 == 0) {
                                // What a crash right now would leave must hold this record.
                                assertDurableIn(fs.crashClone(), lsn, p);
                            }
                        }
                    } catch (Throwable e) {
                        error.compareAndSet(null, e);
                    }
                }, "committer-" + t));
            }
            // An observer: everything durableLsn() ever reported is in the crash image taken after.
            Thread observer = new Thread(() -> {
                try {
                    while (!done.get()) {
                        long durable = log.durableLsn();
                        MemFileSystem image = fs.crashClone();
                        ReplayResult r = replay(image, 0, new ArrayList<>());
                        assertTrue(r.endLsn() >= durable, "durableLsn " + durable + " but a crash keeps only "
                                + r.endLsn());
                        assertFalse(r.tornTail());
                        Thread.sleep(1);
                    }
                } catch (Throwable e) {
                    error.compareAndSet(null, e);
                }
            }, "observer");
            threads.forEach(Thread::start);
            observer.start();
            start.countDown();
            for (Thread th : threads) {
                th.join();
            }
            done.set(true);
            observer.join();
            stats = log.statistics();
        }
        if (error.get() != null) {
            throw new AssertionError(error.get());
        }
        System.out.println("16 SYNC committers: " + stats);
        int commits = THREADS * COMMITS_PER_THREAD;
        assertEquals(commits, stats.appendedRecords());
        assertEquals(commits, stats.writtenRecords());
        assertTrue(stats.fsyncs() < commits, "group commit: " + stats.fsyncs() + " fsyncs for " + commits + " commits");
        assertTrue(stats.recordsPerFsync() > 1.0, stats.toString());

        List<Rec> recs = replayAll(fs);
        assertEquals(commits, recs.size());
        for (Rec rec : recs) {
            assertArrayEquals(committed.get(rec.lsn()), rec.payload(), "record at " + rec.lsn());
        }
    }

    @Test
    void lsnsAreStrictlyIncreasingAndGapFreeAcrossThreads() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        List<Long> lsns = Collections.synchronizedList(new ArrayList<>());
        try (LogManager log = open(fs, options(LogTestSupport.SMALL_SEGMENT, Durability.ASYNC))) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    for (int i = 0; i < 500; i++) {
                        try {
                            lsns.add(log.append(payload(thread * 1000L + i)));
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread th : threads) {
                th.join();
            }
        }
        List<Rec> recs = replayAll(fs);
        assertEquals(4000, recs.size());
        List<Long> sorted = new ArrayList<>(lsns);
        Collections.sort(sorted);
        long expected = 0;
        for (int i = 0; i < recs.size(); i++) {
            Rec rec = recs.get(i);
            assertEquals(sorted.get(i), rec.lsn());
            // Each record starts where the previous ended (segment ends are not padded).
            assertEquals(expected, rec.lsn());
            expected = rec.lsn() + LogRecordFormat.recordLength(rec.payload().length);
        }
    }

    static void assertDurableIn(MemFileSystem image, long lsn, byte[] payload) throws Exception {
        List<Rec> out = new ArrayList<>();
        long[] segments = SegmentFiles.list(image, LogTestSupport.DIR);
        long from = segments[0];
        for (long s : segments) {
            if (s <= lsn) {
                from = s;
            }
        }
        replay(image, from, out);
        for (Rec rec : out) {
            if (rec.lsn() == lsn) {
                assertArrayEquals(payload, rec.payload());
                return;
            }
        }
        throw new AssertionError("record at LSN " + lsn + " is not in the crash image");
    }
}
