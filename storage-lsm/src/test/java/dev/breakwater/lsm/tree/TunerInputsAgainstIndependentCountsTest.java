package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjector;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The statistics the memory tuner reads, each checked against a count kept outside the engine:
 * entries written per tree ({@code w_i}) against the writes the test issued; write shares
 * ({@code a_i} and the write-rate shares) against the pool's own page count and the issued writes;
 * flush bytes by cause against the bytes flush threads wrote to table files; and the buffer cache's
 * page and byte counters against the bytes the file system was asked to read from table files.
 */
class TunerInputsAgainstIndependentCountsTest {

    private static final int TREES = 3;

    /** Counts, outside the engine, table-file bytes read (any thread) and written by flush threads. */
    private static final class IoCounter implements FaultInjector {
        final AtomicLong tableReads = new AtomicLong();
        final AtomicLong tableBytesRead = new AtomicLong();
        final AtomicLong flushBytesWritten = new AtomicLong();
        /** Table bytes read by {@code queryThread} (the test's own gets and scans), per tree directory name. */
        final java.util.Map<String, AtomicLong> queryBytesReadByTree = new java.util.concurrent.ConcurrentHashMap<>();
        /** The part of them read while {@code inScan} (the test's scans). */
        final java.util.Map<String, AtomicLong> scanBytesReadByTree = new java.util.concurrent.ConcurrentHashMap<>();
        volatile Thread queryThread;
        volatile boolean inScan;

        @Override
        public IOException maybeFail(FileOperation op, Path path) {
            return maybeFail(op, path, 0);
        }

        @Override
        public IOException maybeFail(FileOperation op, Path path, long bytes) {
            if (!path.getFileName().toString().endsWith(TableFiles.SUFFIX)) {
                return null;
            }
            if (op == FileOperation.READ) {
                tableReads.incrementAndGet();
                tableBytesRead.addAndGet(bytes);
                if (Thread.currentThread() == queryThread) {
                    queryBytesReadByTree.computeIfAbsent(path.getParent().getFileName().toString(), k -> new AtomicLong())
                            .addAndGet(bytes);
                    if (inScan) {
                        scanBytesReadByTree.computeIfAbsent(path.getParent().getFileName().toString(), k -> new AtomicLong())
                                .addAndGet(bytes);
                    }
                }
            } else if (op == FileOperation.WRITE && Thread.currentThread().getName().startsWith("breakwater-flush")) {
                flushBytesWritten.addAndGet(bytes);
            }
            return null;
        }
    }

    @Test
    void entriesSharesFlushBytesAndCacheReadsMatchIndependentCounts() throws Exception {
        IoCounter counter = new IoCounter();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        fs.setInjector(counter);
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
        AtomicLong logPosition = new AtomicLong();
        try (TreeFixture fx = new TreeFixture(fs, Path.of("/db"), options, 2L << 20)) {
            // A write-rate window far longer than the run: the rate shares cover every write.
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC,
                    FlushPolicyKind.MAX_MEMORY, 0.9, 8, 1L << 50, 16 * 1024), logPosition::get);
            List<LsmTree> trees = new ArrayList<>();
            for (int i = 0; i < TREES; i++) {
                LsmTree t = LsmTree.open("t" + i, fx.dir.resolve("t" + i), options, fx.resources);
                trees.add(t);
                m.register(t, "d" + i);
            }
            m.tick(); // the first rate sample, before any write
            counter.queryThread = Thread.currentThread();
            AtomicBoolean stop = new AtomicBoolean();
            Thread ticker = new Thread(() -> {
                while (!stop.get()) {
                    m.tick();
                    LockSupport.parkNanos(1_000_000);
                }
            }, "manager-ticker");
            ticker.start();
            long[] issued = new long[TREES];
            try {
                SplittableRandom rnd = new SplittableRandom(13);
                ValueHolder out = new ValueHolder();
                byte[] value = new byte[100];
                for (int op = 0; op < 60_000; op++) {
                    int ti = rnd.nextInt(10) < 6 ? 0 : 1 + rnd.nextInt(TREES - 1);
                    byte[] key = LsmTreeModelTest.key(rnd.nextInt(40_000));
                    int dice = rnd.nextInt(10);
                    if (dice < 7) {
                        rnd.nextBytes(value);
                        trees.get(ti).put(key, value, logPosition.addAndGet(100));
                        issued[ti]++;
                    } else if (dice < 8) {
                        trees.get(ti).delete(key, logPosition.addAndGet(20));
                        issued[ti]++;
                    } else if (dice < 9) {
                        trees.get(ti).get(key, out);
                    } else {
                        counter.inScan = true;
                        try (EntryCursor c = trees.get(ti).scan(key, null)) {
                            for (int n = 0; n < 20 && c.next(); n++) {
                                assertTrue(c.keyLength() > 0);
                            }
                        } finally {
                            counter.inScan = false;
                        }
                    }
                }
            } finally {
                counter.queryThread = null;
                stop.set(true);
                ticker.join();
            }
            for (LsmTree t : trees) {
                t.awaitMerges();
            }
            awaitNoFlushes(trees);

            // w_i and the write-rate shares.
            long totalIssued = 0;
            for (long n : issued) {
                totalIssued += n;
            }
            WriteMemorySnapshot shares = m.snapshot();
            long memory = 0;
            for (int i = 0; i < TREES; i++) {
                TreeStatisticsSnapshot s = trees.get(i).statistics();
                assertEquals(issued[i], s.entriesWritten(), "w_" + i);
                WriteMemorySnapshot.TreeShare share = shares.trees().get("t" + i);
                assertEquals((double) issued[i] / totalIssued, share.writeShare(), 1e-9, "write share of t" + i);
                memory += share.memoryBytes();
            }
            // a_i: the trees' memory adds up to exactly the pages the pool has handed out.
            assertEquals(fx.pool.usedBytes(), memory, "memory held by trees vs pool pages in use");
            for (int i = 0; i < TREES; i++) {
                WriteMemorySnapshot.TreeShare share = shares.trees().get("t" + i);
                assertEquals(memory == 0 ? 0 : (double) share.memoryBytes() / memory, share.memoryShare(), 1e-9, "a_" + i);
            }

            // Flush bytes (all causes) against what flush threads wrote to table files.
            long flushed = 0;
            long byCause = 0;
            for (LsmTree t : trees) {
                TreeStatisticsSnapshot s = t.statistics();
                assertTrue(s.flushes() > 0, "the pool forced flushes: " + s);
                flushed += s.bytesFlushed();
                byCause += s.bytesFlushedForMemory() + s.bytesFlushedForLog();
            }
            assertEquals(counter.flushBytesWritten.get(), flushed, "flush bytes vs bytes flush threads wrote");
            assertEquals(flushed, byCause, "every flush here was memory- or log-triggered");

            // Buffer cache misses and I/O counters against the reads the file system served.
            BufferCacheSnapshot c = fx.cache.snapshot();
            IoStatisticsSnapshot io = fx.io.snapshot();
            // Merges read their inputs in chunks without the cache (LeafReadAhead): they are no cache misses,
            // but I/O statistics pages of purpose MERGE; queries (and the opening of merge outputs) read single pages
            // through the cache.
            assertTrue(c.misses(IoPurpose.QUERY) > 0 && io.pagesRead(IoPurpose.MERGE) > 0, "queries and merges read from disk: " + c + ", " + io);
            assertTrue(c.misses(IoPurpose.MERGE) < io.pagesRead(IoPurpose.MERGE) / 2,
                    "merge inputs are not read through the cache (what is: the footers of the tables merges install): " + c + ", " + io);
            long readAheadPages = io.pagesRead(IoPurpose.MERGE) - c.misses(IoPurpose.MERGE);
            assertEquals(counter.tableBytesRead.get(), (c.totalMisses() + readAheadPages) * TreeFixture.PAGE,
                    "cache-miss bytes plus merge read-ahead bytes vs table bytes read");
            assertTrue(counter.tableReads.get() < c.totalMisses() + readAheadPages, "read-ahead reads several pages at once");
            // read_q_i: each tree's query misses against the table pages the querying thread read in its directory.
            long perTree = 0;
            for (int i = 0; i < TREES; i++) {
                long q = trees.get(i).statistics().queryPagesRead();
                AtomicLong read = counter.queryBytesReadByTree.get("t" + i);
                assertEquals(read == null ? 0 : read.get() / TreeFixture.PAGE, q, "query pages read of t" + i);
                perTree += q;
            }
            assertTrue(trees.get(0).statistics().queryPagesRead() > 0, "the hot tree's queries read from disk");
            // ... and split by kind: what the point lookups read against what the thread read outside its scans
            for (int i = 0; i < TREES; i++) {
                TreeStatisticsSnapshot s = trees.get(i).statistics();
                AtomicLong scanned = counter.scanBytesReadByTree.get("t" + i);
                assertEquals(scanned == null ? 0 : scanned.get() / TreeFixture.PAGE, s.scanQueryPagesRead(), "scan pages read of t" + i);
                assertEquals(s.queryPagesRead() - s.scanQueryPagesRead(), s.pointQueryPagesRead(), "point pages read of t" + i);
            }
            assertTrue(trees.get(0).statistics().pointQueryPagesRead() > 0 && trees.get(0).statistics().scanQueryPagesRead() > 0,
                    "the hot tree's point lookups and scans both read from disk: " + trees.get(0).statistics());
            assertEquals(c.misses(IoPurpose.QUERY), perTree, "the trees' query reads add up to the cache's query misses");
            long ioPages = 0;
            long ioTableBytes = 0;
            for (IoPurpose p : IoPurpose.values()) {
                ioPages += io.pagesRead(p);
                // LOG bytes also count manifest reads (no pages); table reads are whole pages.
                ioTableBytes += p == IoPurpose.LOG ? io.pagesRead(p) * TreeFixture.PAGE : io.bytesRead(p);
            }
            assertEquals(counter.tableBytesRead.get() / TreeFixture.PAGE, ioPages, "I/O statistics pages read vs table pages read");
            assertEquals(counter.tableBytesRead.get(), ioTableBytes, "I/O statistics bytes read vs table bytes read");
            for (LsmTree t : trees) {
                t.close();
            }
        }
    }

    @Test
    void flushBytesByCauseMatchTheBytesEachFlushWrote() throws Exception {
        IoCounter counter = new IoCounter();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        fs.setInjector(counter);
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
        try (TreeFixture fx = new TreeFixture(fs, Path.of("/db"), options, 8L << 20); LsmTree tree = fx.open()) {
            SplittableRandom rnd = new SplittableRandom(17);
            long[] lsn = {0};
            long[] fsBytes = new long[FlushCause.values().length];
            for (FlushCause cause : new FlushCause[] {FlushCause.LOG, FlushCause.MEMORY, FlushCause.EXPLICIT, FlushCause.LOG}) {
                for (int i = 0; i < 3_000; i++) {
                    byte[] value = new byte[80];
                    rnd.nextBytes(value);
                    tree.put(LsmTreeModelTest.key(rnd.nextInt(100_000)), value, ++lsn[0]);
                }
                long before = counter.flushBytesWritten.get();
                long flushesBefore = tree.statistics().flushes();
                if (cause == FlushCause.EXPLICIT) {
                    tree.flush();
                } else {
                    tree.requestFlush(cause);
                    while (tree.statistics().flushes() == flushesBefore) {
                        LockSupport.parkNanos(1_000_000);
                    }
                }
                fsBytes[cause.ordinal()] += counter.flushBytesWritten.get() - before;
            }
            TreeStatisticsSnapshot s = tree.statistics();
            assertEquals(4, s.flushes(), s.toString());
            assertEquals(fsBytes[FlushCause.LOG.ordinal()], s.bytesFlushedForLog(), "flush_log");
            assertEquals(fsBytes[FlushCause.MEMORY.ordinal()], s.bytesFlushedForMemory(), "flush_mem");
            assertEquals(fsBytes[FlushCause.EXPLICIT.ordinal()], s.bytesFlushed() - s.bytesFlushedForLog() - s.bytesFlushedForMemory(),
                    "explicit flush bytes");
        }
    }

    /** Waits until no tree has a flush queued or running (flushes are asynchronous to the writers). */
    private static void awaitNoFlushes(List<LsmTree> trees) {
        for (LsmTree t : trees) {
            while (t.flushingBytes() > 0) {
                LockSupport.parkNanos(1_000_000);
            }
        }
    }
}
