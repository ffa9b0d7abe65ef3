package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjector;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.InjectedIOException;
import dev.breakwater.common.io.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A commit's outcome is true (issue 11 item 6). Before: after a secondary index's flush failed, a
 * commit logged its record, applied it to the primary, failed on the secondary and reported
 * "failed and was not acknowledged", although the row was visible, durable after restart and
 * missing from the index. Now every tree is checked before the log append, so the commit is refused
 * with nothing written anywhere, and secondary indexes keep equal to their primary.
 */
class CommitOutcomeTest {

    private final MemFileSystem mem = new MemFileSystem();
    private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
    private final Path dir = Path.of("/data");

    private static List<Tuple> all(Cursor<Tuple> c) {
        List<Tuple> out = new ArrayList<>();
        try (c) {
            c.forEachRemaining(out::add);
        }
        return out;
    }

    private static void assertIndexEqualsPrimary(Dataset c) {
        List<Tuple> primary = all(c.scan(KeyRange.all()));
        List<Tuple> viaIndex = all(c.index("by_last").scan(KeyRange.all()));
        viaIndex.sort((a, b) -> Integer.compare(a.getInt(2), b.getInt(2)));
        primary.sort((a, b) -> Integer.compare(a.getInt(2), b.getInt(2)));
        assertEquals(primary, viaIndex, "the secondary index holds exactly the primary's records");
    }

    @Test
    void aCommitAfterAFailedIndexFlushIsRefusedBeforeLoggingAndNothingAppears() throws IOException {
        StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        for (int i = 0; i < 100; i++) {
            c.upsert(EngineFixture.customer(1, 1, i, "NAME" + i, i));
        }
        DatasetState.Secondary index = engine.state(c).secondaries.get(0);
        String treeDir = "tree-" + index.treeId();
        FaultInjector failIndexWrites = (op, path) -> (op == FileOperation.WRITE || op == FileOperation.APPEND
                || op == FileOperation.OPEN) && path.toString().contains(treeDir + "/") && path.toString().endsWith(".sst")
                ? new InjectedIOException(op, path, "index flush") : null;
        fs.setInjector(failIndexWrites);
        assertThrows(IOException.class, () -> index.tree().flush(), "the index's flush fails");
        fs.clearInjector();

        StorageFailedException refused = assertThrows(StorageFailedException.class,
                () -> c.upsert(EngineFixture.customer(1, 1, 1000, "NEW", 1)));
        assertTrue(refused.getMessage().contains("refused before logging, nothing was written"), refused.getMessage());
        assertNull(c.get(Key.of(1, 1, 1000)), "a refused commit is in no tree");
        assertIndexEqualsPrimary(c);
        long logEnd = engine.log.endLsn();
        assertThrows(StorageFailedException.class, () -> engine.inTransaction(tx -> tx.delete(c, Key.of(1, 1, 5))));
        assertEquals(logEnd, engine.log.endLsn(), "nothing was logged");
        engine.close();

        try (StorageEngine reopened = StorageEngine.open(mem, dir, EngineFixture.smallConfig())) {
            Dataset again = reopened.dataset("customer");
            assertNull(again.get(Key.of(1, 1, 1000)), "and it does not appear after a restart");
            assertEquals(5L, again.get(Key.of(1, 1, 5)).getLong(4));
            assertEquals(100, all(again.scan(KeyRange.all())).size());
            assertIndexEqualsPrimary(again);
            again.upsert(EngineFixture.customer(1, 1, 1000, "NEW", 1));
            assertIndexEqualsPrimary(again);
        }
    }
}
