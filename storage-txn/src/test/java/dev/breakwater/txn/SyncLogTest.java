package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link StorageEngine#syncLog()}: after it returns, a crash loses no ASYNC commit made before it. */
class SyncLogTest {

    private final Path dir = Path.of("/db");

    /** ASYNC with a sync interval far longer than the test: only syncLog can make the commits durable. */
    private static StorageConfig lazyAsync() {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.DURABILITY, Durability.ASYNC).set(ConfigOptions.ASYNC_SYNC_INTERVAL, 60_000L).build();
    }

    @Test
    void asyncCommitsSurviveACrashOnceSyncLogReturns() {
        MemFileSystem mem = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(mem, dir, lazyAsync());
        Dataset c = engine.createDataset(EngineFixture.customers());
        for (int i = 0; i < 200; i++) {
            c.upsert(EngineFixture.customer(1, 1, i, "L" + i, i));
        }
        engine.syncLog();
        assertEquals(engine.log.endLsn(), engine.log.durableLsn(), "the whole log is durable");
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, lazyAsync())) {
            Dataset r = recovered.dataset("customer");
            for (int i = 0; i < 200; i++) {
                assertEquals(EngineFixture.customer(1, 1, i, "L" + i, i), r.get(Key.of(1, 1, i)), "customer " + i);
            }
        }
    }

    @Test
    void returnsAtOnceWhenNothingIsPendingAndFailsAfterClose() {
        StorageEngine engine = StorageEngine.open(new MemFileSystem(), dir, lazyAsync());
        engine.syncLog(); // an empty log
        engine.syncLog();
        assertTrue(engine.log.durableLsn() >= 0);
        engine.close();
        assertThrows(EngineClosedException.class, engine::syncLog);
    }
}
