package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Crash recovery from the log, torn tails, and the failed state after fsync errors and full disks. */
class EngineRecoveryTest {

    private final Path dir = Path.of("/data");

    private static void load(Dataset c, int from, int to) {
        for (int id = from; id < to; id++) {
            int i = id;
            ((DatasetImpl) c).engine().inTransaction(tx -> {
                tx.upsert(c, EngineFixture.customer(1, i % 10, i, "N" + (i % 13), i));
                tx.upsert(c, EngineFixture.customer(2, i % 10, i, "M" + (i % 7), -i));
            });
        }
    }

    private static void checkLoaded(Dataset c, int from, int to) {
        for (int id = from; id < to; id++) {
            Tuple t = c.get(Key.of(1, id % 10, id));
            assertNotNull(t, "customer " + id + " lost");
            assertEquals(id, t.getLong(4));
            assertEquals(-id, c.get(Key.of(2, id % 10, id)).getLong(4));
        }
    }

    @Test
    void everySyncCommitSurvivesACrashIncludingFlushedAndUnflushedData() {
        MemFileSystem mem = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(mem, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 0, 3000); // several flushes happen on the way (1 MiB memory tables)
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, EngineFixture.smallConfig())) {
            Dataset again = recovered.dataset("customer");
            checkLoaded(again, 0, 3000);
            assertTrue(recovered.recovery.records() > 0, "something was replayed: " + recovered.recovery);
            try (Cursor<Tuple> byName = again.index("by_last").scan(KeyRange.prefix(Key.of(1, 3, "N5")))) {
                int n = 0;
                while (byName.hasNext()) {
                    Tuple t = byName.next();
                    assertEquals("N5", t.getString(3));
                    n++;
                }
                assertTrue(n > 0, "the secondary index was recovered too");
            }
        }
    }

    @Test
    void aTornLogTailEndsReplayCleanly() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(mem, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 0, 200);
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        // Cut the last segment in the middle of its last record.
        Path logDir = dir.resolve("log");
        List<String> segments = crashed.list(logDir);
        Path last = logDir.resolve(segments.get(segments.size() - 1));
        try (StorageFile f = crashed.open(last, OpenOption.WRITE)) {
            f.truncate(f.size() - 5);
            f.sync();
        }
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, EngineFixture.smallConfig())) {
            assertTrue(recovered.recovery.tornTail(), recovered.recovery.toString());
            Dataset again = recovered.dataset("customer");
            checkLoaded(again, 0, 199);
            assertNull(again.get(Key.of(1, 199 % 10, 199)), "the torn transaction is entirely absent");
            assertNull(again.get(Key.of(2, 199 % 10, 199)), "the torn transaction is entirely absent");
            load(again, 1000, 1010); // the log continues after the last good record
            checkLoaded(again, 1000, 1010);
        }
    }

    @Test
    void aFailedFsyncRefusesWritesKeepsReadsAndAcknowledgesNothingUndurable() {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 0, 50);
        fs.setInjector(FaultInjectors.failAlways(FileOperation.SYNC, p -> p.toString().contains("/log/")));
        StorageFailedException e = assertThrows(StorageFailedException.class, () -> c.upsert(EngineFixture.customer(1, 1, 999, "X", 1)));
        assertTrue(e.getMessage().contains("not acknowledged"), e.getMessage());
        fs.clearInjector();
        StorageFailedException later = assertThrows(StorageFailedException.class, () -> c.upsert(EngineFixture.customer(1, 1, 998, "X", 1)));
        assertTrue(later.getMessage().contains("refuses writes"), later.getMessage());
        assertEquals(7L, c.get(Key.of(1, 7, 7)).getLong(4), "reads keep working");
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, EngineFixture.smallConfig())) {
            checkLoaded(recovered.dataset("customer"), 0, 50);
        }
    }

    @Test
    void aFullDiskFailsTheCommitWithAClearMessage() {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        try (StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig())) {
            Dataset c = engine.createDataset(EngineFixture.customers());
            load(c, 0, 10);
            fs.setInjector(FaultInjectors.diskFull(0));
            StorageFailedException e = assertThrows(StorageFailedException.class, () -> load(c, 10, 200));
            assertTrue(e.getMessage().toLowerCase().contains("space"), e.getMessage());
            fs.clearInjector();
            checkLoaded(c, 0, 10);
        }
    }

    @Test
    void asyncCommitsBecomeDurableWithinTheSyncInterval() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        StorageConfig async = EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.DURABILITY, Durability.ASYNC).set(ConfigOptions.ASYNC_SYNC_INTERVAL, 20L).build();
        StorageEngine engine = StorageEngine.open(mem, dir, async);
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 0, 300);
        Thread.sleep(300);
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, async)) {
            checkLoaded(recovered.dataset("customer"), 0, 300);
        }
    }
}
