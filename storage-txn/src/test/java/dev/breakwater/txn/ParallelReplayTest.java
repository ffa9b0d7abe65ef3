package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recovery with several replay threads ({@code recovery-threads}) ends in exactly the state a model
 * of the committed transactions says: random multi-dataset transactions (upserts and deletes, so
 * secondary keys move) are committed, the directory is crash-cloned with part of the data flushed
 * and part only in the log, and the reopened engine's primary and secondary contents are compared
 * with {@link TreeMap} models of every dataset.
 */
class ParallelReplayTest {

    private static final int DATASETS = 5;
    private final Path dir = Path.of("/db");

    private static StorageConfig config(int recoveryThreads) {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.MAX_LOG_SIZE, 64L << 20) // no log-triggered flush: most history stays in the log
                .set(ConfigOptions.RECOVERY_THREADS, recoveryThreads)
                .build();
    }

    private static DatasetSpec spec(int i) {
        return DatasetSpec.builder("d" + i)
                .field("id", INT32).field("tag", STRING).field("n", INT64)
                .primaryKey("id")
                .secondaryIndex("by_tag", "tag", "id")
                .build();
    }

    @ParameterizedTest(name = "recovery-threads {0}")
    @ValueSource(ints = {1, 2, 4})
    void everyDatasetEndsAsTheModelSaysWhateverTheReplayThreads(int threads) {
        Random random = new Random(42 + threads);
        List<TreeMap<Integer, Tuple>> models = new ArrayList<>();
        MemFileSystem mem = new MemFileSystem();
        MemFileSystem crashed;
        try (StorageEngine engine = StorageEngine.open(mem, dir, config(threads))) {
            List<Dataset> datasets = new ArrayList<>();
            for (int i = 0; i < DATASETS; i++) {
                datasets.add(engine.createDataset(spec(i)));
                models.add(new TreeMap<>());
            }
            for (int t = 0; t < 6_000; t++) {
                if (t == 2_500) {
                    engine.flushAndAwaitMerges(); // part of the history on disk, the rest only in the log
                }
                int writes = 1 + random.nextInt(4);
                int[] ds = new int[writes];
                int[] ids = new int[writes];
                boolean[] deletes = new boolean[writes];
                Tuple[] rows = new Tuple[writes];
                for (int w = 0; w < writes; w++) {
                    ds[w] = random.nextInt(DATASETS);
                    ids[w] = random.nextInt(800);
                    deletes[w] = random.nextInt(5) == 0;
                    rows[w] = Tuple.of(ids[w], "t" + random.nextInt(30), random.nextLong());
                }
                engine.inTransaction(tx -> {
                    for (int w = 0; w < writes; w++) {
                        Dataset d = datasets.get(ds[w]);
                        if (deletes[w]) {
                            tx.delete(d, Key.of(ids[w]));
                        } else {
                            tx.upsert(d, rows[w]);
                        }
                    }
                });
                for (int w = 0; w < writes; w++) {
                    if (deletes[w]) {
                        models.get(ds[w]).remove(ids[w]);
                    } else {
                        models.get(ds[w]).put(ids[w], rows[w]);
                    }
                }
            }
            crashed = mem.crashClone();
        }
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, config(threads))) {
            assertTrue(recovered.recovery.records() > 1_000, "most of the history was replayed: " + recovered.recovery);
            for (int i = 0; i < DATASETS; i++) {
                Dataset d = recovered.dataset("d" + i);
                assertEquals(primary(models.get(i)), scan(d.scan(KeyRange.all())), "primary of d" + i);
                assertEquals(byTag(models.get(i)), scan(d.index("by_tag").scan(KeyRange.all())), "by_tag of d" + i);
            }
        }
    }

    private static List<String> primary(Map<Integer, Tuple> model) {
        List<String> out = new ArrayList<>();
        model.values().forEach(t -> out.add(t.toString()));
        return out;
    }

    /** The records in secondary-key order: tag, then id. */
    private static List<String> byTag(Map<Integer, Tuple> model) {
        TreeMap<String, String> sorted = new TreeMap<>();
        model.values().forEach(t -> sorted.put(t.getString(1) + "\u0000" + String.format("%08d", t.getInt(0)), t.toString()));
        return new ArrayList<>(sorted.values());
    }

    private static List<String> scan(Cursor<Tuple> cursor) {
        List<String> out = new ArrayList<>();
        try (cursor) {
            while (cursor.hasNext()) {
                out.add(cursor.next().toString());
            }
        }
        return out;
    }
}
