package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A write-only load reads nothing for queries: the footer each new SSTable's reader reads when a
 * flush or merge installs it is flush or merge I/O, and the footers read when a tree reopens are
 * recovery metadata (LOG), so the tuner's query-read counters stay at zero without queries.
 */
class WriteOnlyReadPurposeTest {

    @Test
    void writeOnlyLoadShowsZeroQueryReads() throws Exception {
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), options, 8L << 20)) {
            long tablesOpenedAtReopen;
            try (LsmTree tree = fx.open()) {
                SplittableRandom rnd = new SplittableRandom(3);
                for (int i = 0; i < 40_000; i++) {
                    byte[] value = new byte[60];
                    rnd.nextBytes(value);
                    tree.put(LsmTreeModelTest.key(rnd.nextInt(20_000)), value, i + 1);
                    if (i % 4_000 == 3_999) {
                        tree.flush();
                    }
                }
                tree.flush();
                tree.awaitMerges();
                TreeStatisticsSnapshot s = tree.statistics();
                assertTrue(s.flushes() > 3 && s.merges() > 3, "the load must flush and merge: " + s);
                BufferCacheSnapshot c = fx.cache.snapshot();
                assertEquals(0, c.pins(IoPurpose.QUERY), "query pins in a write-only load");
                assertEquals(0, fx.io.snapshot().pagesRead(IoPurpose.QUERY), "query page reads in a write-only load");
                assertTrue(c.misses(IoPurpose.FLUSH) >= s.flushes(), "each flushed table's footer read counts as FLUSH: " + c);
                assertTrue(c.pins(IoPurpose.MERGE) > 0, "merges read their inputs as MERGE");
                tablesOpenedAtReopen = tree.version().allTables().size();
            }
            long logMissesBefore = fx.cache.snapshot().misses(IoPurpose.LOG);
            try (LsmTree reopened = fx.open()) {
                assertEquals(0, fx.cache.snapshot().pins(IoPurpose.QUERY), "reopening reads footers as recovery metadata");
                assertEquals(tablesOpenedAtReopen, fx.cache.snapshot().misses(IoPurpose.LOG) - logMissesBefore,
                        "one LOG footer read per table opened");
            }
        }
    }
}
