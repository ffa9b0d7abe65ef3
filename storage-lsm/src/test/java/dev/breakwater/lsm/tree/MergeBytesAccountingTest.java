package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjector;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Merge bytes ({@code merge_i}) and the last-level size ({@code |L_N|}) checked against what the
 * file system saw. The file system is wrapped so that every write to an SSTable by a merge thread is
 * counted independently of the tree, and so that a merge can be held after writing its outputs but
 * before installing them (at its directory sync): a statistics snapshot then must already show the
 * bytes, as a tuning cycle shorter than a merge would read it.
 */
class MergeBytesAccountingTest {

    /** Counts bytes written to table files by merge threads, per file; holds merges at their directory sync on request. */
    private static final class MergeWatcher implements FaultInjector {
        final Map<Path, AtomicLong> writtenByMerges = new ConcurrentHashMap<>();
        final AtomicBoolean hold = new AtomicBoolean();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public IOException maybeFail(FileOperation op, Path path) {
            return maybeFail(op, path, 0);
        }

        @Override
        public IOException maybeFail(FileOperation op, Path path, long bytes) {
            if (!Thread.currentThread().getName().startsWith("breakwater-merge")) {
                return null;
            }
            if (op == FileOperation.WRITE && path.getFileName().toString().endsWith(TableFiles.SUFFIX)) {
                writtenByMerges.computeIfAbsent(path, p -> new AtomicLong()).addAndGet(bytes);
            } else if (op == FileOperation.SYNC_DIRECTORY && hold.get()) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return null;
        }

        long total() {
            return writtenByMerges.values().stream().mapToLong(AtomicLong::get).sum();
        }
    }

    @Test
    void mergeBytesAreCountedAsWrittenPerLevelAndMatchTheFiles() throws Exception {
        MergeWatcher watcher = new MergeWatcher();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        fs.setInjector(watcher);
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        try (TreeFixture fx = new TreeFixture(fs, Path.of("/db"), options, 8L << 20); LsmTree tree = fx.open()) {
            TreeStatisticsSnapshot fresh = tree.statistics();
            assertEquals(-1, fresh.deepestLevel(), "a new tree holds no data: " + fresh);
            assertEquals(0, fresh.deepestLevelBytes());

            SplittableRandom rnd = new SplittableRandom(11);
            int lsn = 0;
            // Hold every merge before it installs from the start: a merge the first flush triggers
            // may otherwise install before the first snapshot below is taken.
            watcher.hold.set(true);
            // One flush: only L0 holds data, and the tree's last level (its initial L1) is empty.
            lsn = write(tree, rnd, lsn, 3_000);
            tree.flush();
            TreeStatisticsSnapshot flushed = tree.statistics();
            assertTrue(flushed.levelBytes().size() >= 2 && flushed.levelBytes().get(flushed.levelBytes().size() - 1) == 0,
                    "the last level starts empty: " + flushed.levelBytes());
            assertEquals(0, flushed.deepestLevel(), "only L0 holds data: " + flushed.levelBytes());
            assertEquals(flushed.levelBytes().get(0), flushed.deepestLevelBytes());

            // Flush until a merge has written its outputs and is held before installing them.
            while (watcher.held.getCount() > 0) {
                lsn = write(tree, rnd, lsn, 3_000);
                tree.flush();
                watcher.held.await(50, TimeUnit.MILLISECONDS);
            }
            TreeStatisticsSnapshot during = tree.statistics();
            long seenByFs = watcher.total();
            watcher.hold.set(false);
            watcher.release.countDown();
            assertTrue(seenByFs > 0, "the held merge wrote its outputs");
            assertEquals(0, during.merges(), "no merge installed yet");
            assertEquals(seenByFs, during.mergeBytesWritten(), "merge bytes counted as written, before the merge installs");
            assertEquals(seenByFs, sum(during.mergeBytesWrittenByLevel()), "per-level merge bytes add up: " + during.mergeBytesWrittenByLevel());

            lsn = write(tree, rnd, lsn, 20_000);
            tree.flush();
            tree.awaitMerges();
            TreeStatisticsSnapshot settled = tree.statistics();
            assertTrue(settled.merges() > 2, "several merges ran: " + settled);
            assertEquals(watcher.total(), settled.mergeBytesWritten(), "merge bytes = bytes merge threads wrote to tables");
            assertEquals(settled.mergeBytesWritten(), sum(settled.mergeBytesWrittenByLevel()));
            assertEquals(0L, settled.mergeBytesWrittenByLevel().get(0), "leveling merges write into L1 and below, never L0");
            // Every merge output still on disk has exactly the size the merge threads were seen writing.
            for (var e : watcher.writtenByMerges.entrySet()) {
                if (fs.exists(e.getKey())) {
                    assertEquals(e.getValue().get(), fs.size(e.getKey()), "size of " + e.getKey());
                }
            }

            int deepest = settled.deepestLevel();
            assertTrue(deepest >= 1, "merges moved data below L0: " + settled.levelBytes());
            assertEquals(settled.levelBytes().get(deepest), settled.deepestLevelBytes());
            assertEquals(tree.version().levelBytes(deepest), settled.deepestLevelBytes());
            for (int i = deepest + 1; i < settled.levelBytes().size(); i++) {
                assertEquals(0L, settled.levelBytes().get(i), "levels below the deepest are empty");
            }
            assertTrue(settled.deepestLevelBytes() > 0);
        }
    }

    private static int write(LsmTree tree, SplittableRandom rnd, int lsn, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[60];
            rnd.nextBytes(value);
            tree.put(LsmTreeModelTest.key(rnd.nextInt(30_000)), value, ++lsn);
        }
        return lsn;
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }
}
