package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.L0MergePolicy;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The engine with {@code l0-merge-policy = BATCHED} (L0 merges at l0-slowdown-groups − 2 groups,
 * levels sized from that batch): every committed write survives a crash taken in the middle of
 * flushes and merges, and the reopened engine keeps merging and keeps every record.
 */
class BatchedL0EngineTest {

    private final Path dir = Path.of("/data");

    private static StorageConfig batched() {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.WRITE_MEMORY, 2L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 256L << 10)
                .set(ConfigOptions.L0_MERGE_POLICY, L0MergePolicy.BATCHED)
                .set(ConfigOptions.L0_SLOWDOWN_GROUPS, 5)
                .set(ConfigOptions.L0_STOP_GROUPS, 8)
                .build();
    }

    private static final int KEYS = 12_000;
    private static final String PAD = "x".repeat(200);

    private static void load(Dataset c, int from, int to) {
        for (int id = from; id < to; id++) {
            int i = id;
            ((DatasetImpl) c).engine().inTransaction(tx -> tx.upsert(c, EngineFixture.customer(1, i % 10, i % KEYS, "N" + (i % 13) + PAD, i)));
        }
    }

    private static void check(Dataset c, int to) {
        // Keys repeat every KEYS ids: the last write of each key is the one with the largest id below `to`.
        for (int k = 0; k < Math.min(KEYS, to); k++) {
            int last = k + ((to - 1 - k) / KEYS) * KEYS;
            Tuple t = c.get(Key.of(1, last % 10, k));
            assertNotNull(t, "customer " + k + " lost");
            assertEquals(last, t.getLong(4), "customer " + k);
        }
    }

    @Test
    void committedWritesSurviveACrashAndMergesContinueAfterRecovery() {
        MemFileSystem mem = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(mem, dir, batched());
        Dataset c = engine.createDataset(EngineFixture.customers());
        load(c, 0, 16_000);
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, batched())) {
            Dataset again = recovered.dataset("customer");
            check(again, 16_000);
            load(again, 16_000, 32_000);
            recovered.flushAndAwaitMerges();
            check(again, 32_000);
            long merges = recovered.statistics().trees().values().stream().mapToLong(t -> t.merges()).sum();
            assertTrue(merges > 0, "L0 merges ran under BATCHED: " + recovered.statistics().trees());
            int groups = recovered.statistics().trees().values().stream().mapToInt(t -> t.l0Groups()).max().orElse(0);
            assertTrue(groups < 8, "L0 stays below the stop limit once settled: " + groups);
        }
    }
}
