package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.BYTES;
import static dev.breakwater.common.key.FieldType.INT64;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.MergePolicyKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** merge-policy RUNS_PER_LEVEL through the engine: the option reaches the trees, and data survives merges and a reopen. */
class RunsPerLevelEngineTest {

    private static final long MIB = 1L << 20;

    @Test
    void optionsReachTheTrees() {
        StorageConfig c = StorageConfig.builder().set(ConfigOptions.MERGE_POLICY, MergePolicyKind.RUNS_PER_LEVEL)
                .set(ConfigOptions.RUNS_PER_LEVEL, 3).set(ConfigOptions.SIZE_RATIO, 6).build();
        LsmTreeOptions o = DatasetDirectory.treeOptions(c);
        assertEquals(LsmTreeOptions.Policy.RUNS_PER_LEVEL, o.policy());
        assertEquals(3, o.runsPerLevel());
        assertEquals(LsmTreeOptions.Policy.LEVELING, DatasetDirectory.treeOptions(StorageConfig.defaults()).policy());
    }

    @Test
    void upsertsAndDeletesSurviveMergesAndAReopen(@TempDir Path dir) {
        StorageConfig c = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L).set(ConfigOptions.TOTAL_MEMORY, 4 * MIB).set(ConfigOptions.WRITE_MEMORY, MIB)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 128L << 10).set(ConfigOptions.TARGET_SSTABLE_SIZE, 256L << 10)
                .set(ConfigOptions.SIMULATED_CACHE, 0L).set(ConfigOptions.TUNER, false)
                .set(ConfigOptions.SIZE_RATIO, 4).set(ConfigOptions.MERGE_POLICY, MergePolicyKind.RUNS_PER_LEVEL)
                .set(ConfigOptions.RUNS_PER_LEVEL, 2).build();
        TreeMap<Long, byte[]> model = new TreeMap<>();
        Random rnd = new Random(17);
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            Dataset d = engine.createDataset(DatasetSpec.builder("kv").field("k", INT64).field("v", BYTES).primaryKey("k").build());
            for (int i = 0; i < 30_000; i++) {
                long k = rnd.nextInt(8_000);
                if (rnd.nextInt(10) == 0) {
                    d.delete(Key.of(k));
                    model.remove(k);
                } else {
                    byte[] v = new byte[50 + rnd.nextInt(100)];
                    rnd.nextBytes(v);
                    d.upsert(Tuple.of(k, v));
                    model.put(k, v);
                }
            }
            engine.flushAndAwaitMerges();
            assertTrue(engine.statistics().io().pagesWritten(dev.breakwater.common.stats.IoPurpose.MERGE) > 0, "merges ran");
            check(d, model);
        }
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            check(engine.dataset("kv"), model);
        }
    }

    private static void check(Dataset d, TreeMap<Long, byte[]> model) {
        Iterator<Map.Entry<Long, byte[]>> expected = model.entrySet().iterator();
        try (Cursor<Tuple> cur = d.scan(KeyRange.all())) {
            while (cur.hasNext()) {
                Tuple t = cur.next();
                Map.Entry<Long, byte[]> e = expected.next();
                assertEquals(e.getKey(), t.get(0));
                assertArrayEquals(e.getValue(), (byte[]) t.get(1));
            }
        }
        assertTrue(!expected.hasNext(), "every key the model holds was scanned");
    }
}
