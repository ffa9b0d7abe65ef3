package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.SMALL_SEGMENT;
import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static dev.breakwater.txn.log.LogTestSupport.replay;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.InjectedIOException;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LogFailureTest {

    private final MemFileSystem mem = new MemFileSystem();
    private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);

    private static boolean isSegment(Path p) {
        return SegmentFiles.parse(p.getFileName().toString()) >= 0;
    }

    @Test
    void failedFsyncFailsTheCommitterAndEveryLaterCallWithoutRetrying() throws Exception {
        try (LogManager log = open(fs, options(1 << 16, Durability.SYNC))) {
            for (int i = 0; i < 5; i++) {
                log.commit(payload(i));
            }
            long durableBefore = log.durableLsn();
            fs.setInjector(FaultInjectors.failAlways(FileOperation.SYNC, LogFailureTest::isSegment));

            LogFailedException e = assertThrows(LogFailedException.class, () -> log.commit(payload(5)));
            assertInstanceOf(InjectedIOException.class, e.getCause());
            assertTrue(e.getMessage().contains("fsync of"), e.getMessage());
            assertTrue(e.getMessage().contains(SegmentFiles.fileName(0)), "names the file: " + e.getMessage());
            assertEquals(durableBefore, e.firstNonDurableLsn());
            assertFalse(e.noSpace());
            long syncsAfterFailure = fs.operationCount(FileOperation.SYNC);

            // Every later call fails fast with the same cause, even once the disk "recovers".
            fs.clearInjector();
            LogFailedException later = assertThrows(LogFailedException.class, () -> log.append(payload(6)));
            assertEquals(e.getMessage(), later.getMessage());
            assertThrows(LogFailedException.class, () -> log.commit(payload(7)));
            assertThrows(LogFailedException.class, () -> log.awaitDurable(durableBefore));
            assertSame(log.failure().getCause(), later.getCause());
            assertEquals(durableBefore, log.durableLsn(), "nothing after the failed fsync is reported durable");
            Thread.sleep(50);
            assertEquals(syncsAfterFailure, fs.operationCount(FileOperation.SYNC), "fsync is never retried");
            // A record that was durable before the failure still is.
            log.awaitDurable(0);
        }
        List<LogTestSupport.Rec> out = new ArrayList<>();
        ReplayResult r = replay(fs.crashClone(), 0, out);
        assertEquals(5, out.size());
        assertFalse(r.tornTail());
    }

    @Test
    void everyWaiterOfTheFailedBatchGetsTheException() throws Exception {
        int threads = 8;
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger succeeded = new AtomicInteger();
        try (LogManager log = open(fs, options(1 << 16, Durability.SYNC))) {
            fs.setInjector(FaultInjectors.failNth(FileOperation.SYNC, LogFailureTest::isSegment, 20));
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            List<Long> reportedDurable = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                ts.add(new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; ; i++) {
                            long lsn = log.commit(payload(thread * 1000L + i));
                            synchronized (reportedDurable) {
                                reportedDurable.add(lsn);
                            }
                            succeeded.incrementAndGet();
                        }
                    } catch (LogFailedException e) {
                        failed.incrementAndGet();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }));
            }
            ts.forEach(Thread::start);
            start.countDown();
            for (Thread t : ts) {
                t.join();
            }
            assertEquals(threads, failed.get(), "every committer ends with the failure, none hangs");
            long durable = log.durableLsn();
            MemFileSystem image = fs.crashClone();
            ReplayResult r = replay(image, 0, new ArrayList<>());
            assertTrue(r.endLsn() >= durable);
            for (long lsn : reportedDurable) {
                assertTrue(lsn < durable, "commit " + lsn + " returned but durableLsn is " + durable);
            }
        }
        assertTrue(succeeded.get() > 0);
    }

    @Test
    void diskFullGivesAClearNoSpaceFailure() throws Exception {
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            fs.setInjector(FaultInjectors.diskFull(10_000));
            LogFailedException e = assertThrows(LogFailedException.class, () -> {
                for (int i = 0; ; i++) {
                    log.commit(payload(i));
                }
            });
            assertTrue(e.noSpace());
            assertTrue(e.getMessage().startsWith("transaction log failed: no space left on device"), e.getMessage());
            assertTrue(e.getMessage().contains(".seg"), e.getMessage());
            assertThrows(LogFailedException.class, () -> log.append(new byte[1]));
        }
        fs.clearInjector();
        // After freeing space the log reopens at its last durable record and works again.
        long end;
        try (LogManager log = open(fs.crashClone(), options(SMALL_SEGMENT, Durability.SYNC))) {
            end = log.endLsn();
            assertEquals(end, log.commit(payload(1)));
        }
    }

    @Test
    void failedSegmentCreationFailsTheLog() throws Exception {
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            fs.setInjector(FaultInjectors.failAlways(FileOperation.OPEN, LogFailureTest::isSegment));
            LogFailedException e = assertThrows(LogFailedException.class, () -> {
                for (int i = 0; ; i++) {
                    log.commit(payload(i));
                }
            });
            assertTrue(e.getMessage().contains("creation of segment"), e.getMessage());
            assertEquals(1, log.segmentCount());
        }
    }

    @Test
    void failedDirectorySyncKeepsRecordsOfTheNewSegmentNonDurable() throws Exception {
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            fs.setInjector(FaultInjectors.failAlways(FileOperation.SYNC_DIRECTORY, p -> true));
            long lastDurable = -1;
            try {
                for (int i = 0; ; i++) {
                    lastDurable = log.commit(payload(i));
                }
            } catch (LogFailedException e) {
                assertTrue(e.getMessage().contains("directory entry"), e.getMessage());
            }
            assertTrue(lastDurable >= 0);
            assertTrue(log.durableLsn() <= SMALL_SEGMENT, "nothing in the unsynced segment is durable");
        }
    }

    @Test
    void asyncFlusherFailureSurfacesOnTheNextCall() throws Exception {
        try (LogManager log = open(fs, LogOptions.of(1 << 16, Durability.ASYNC).withAsyncSyncIntervalMillis(5))) {
            fs.setInjector(FaultInjectors.failAlways(FileOperation.WRITE, LogFailureTest::isSegment));
            long lsn = log.commit(payload(1));
            while (log.failure() == null) {
                Thread.sleep(1);
            }
            assertThrows(LogFailedException.class, () -> log.commit(payload(2)));
            assertThrows(LogFailedException.class, () -> log.awaitDurable(lsn));
            assertTrue(log.failure().getMessage().contains("write of"), log.failure().getMessage());
        }
    }

    @Test
    void appendAfterCloseIsRefused() throws Exception {
        LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC));
        log.close();
        assertThrows(IllegalStateException.class, () -> log.append(new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> log.awaitDurable(log.endLsn()));
    }
}
