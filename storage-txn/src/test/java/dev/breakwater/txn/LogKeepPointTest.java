package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.key.FieldType;
import dev.breakwater.lsm.manager.ForwardingManagedTree;
import dev.breakwater.lsm.manager.ManagedTree;
import dev.breakwater.lsm.tree.LsmTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keep point the monitor truncates the log to and records as the checkpoint's replay start
 * must never pass an acknowledged commit some tree holds only in memory, even when that commit runs
 * wholly while the trees are being scanned. Such a commit, applied to tree "a" after "a" was
 * scanned empty and flushed out of tree "b" before "b" was scanned, made the keep point the log's
 * durable end past the commit: after a crash recovery skipped it for "a" while "b" had it on disk
 * (the partly lost transaction of KillRecoverTest in docs/benchmarks-safety.md).
 */
class LogKeepPointTest {

    @TempDir
    Path dir;

    @Test
    void commitDuringTheTreeScanStaysAboveTheKeepPoint() throws Exception {
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            Dataset a = engine.createDataset(DatasetSpec.builder("a").field("k", FieldType.INT32)
                    .field("v", FieldType.STRING).primaryKey("k").build());
            Dataset b = engine.createDataset(DatasetSpec.builder("b").field("k", FieldType.INT32)
                    .field("v", FieldType.STRING).primaryKey("k").build());
            LsmTree treeA = engine.datasetStates().get("a").partition(0).primary();
            LsmTree treeB = engine.datasetStates().get("b").partition(0).primary();
            treeA.flush();
            treeB.flush();
            long[] commitLsnAtLeast = {-1};
            // Scanning "a" (empty): the commit runs to the end right after, and "b" flushes it.
            ManagedTree scanA = new Scanned(treeA) {
                @Override
                public long oldestMemoryLsn() {
                    long before = delegate().oldestMemoryLsn();
                    commitLsnAtLeast[0] = engine.log.endLsn();
                    engine.inTransaction(tx -> {
                        tx.upsert(a, Tuple.of(1, "counter"));
                        tx.upsert(b, Tuple.of(1, "ledger"));
                    });
                    try {
                        treeB.flush(); // waits for the log to be durable through the commit
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return before;
                }
            };
            ManagedTree scanB = new Scanned(treeB);
            long keepFrom = LogKeepPoint.compute(engine.log::durableLsn, engine::oldestUnappliedLsn, List.of(scanA, scanB));
            assertTrue(treeA.oldestMemoryLsn() >= commitLsnAtLeast[0] && treeA.oldestMemoryLsn() != Long.MAX_VALUE,
                    "the commit is only in tree a's memory");
            assertTrue(treeB.durableLsn() >= commitLsnAtLeast[0], "tree b has the commit on disk");
            assertTrue(keepFrom <= commitLsnAtLeast[0], "keep point " + keepFrom + " passes the commit at LSN >= "
                    + commitLsnAtLeast[0] + " that tree a holds only in memory");
        }
    }

    /** Forwards every call to the engine's tree; the test overrides the scan. */
    private static class Scanned extends ForwardingManagedTree {
        Scanned(ManagedTree tree) {
            super(tree);
        }
    }
}
