package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hash-partitioned datasets against a {@link TreeMap} model, for N = 1, 3 and 8 partitions: random
 * single-record writes, multi-record transactions that span partitions (committed, or aborted and
 * then invisible), inserts of existing keys, point reads inside and outside transactions, primary
 * range scans and secondary-index scans (inside a transaction too, over its own pending writes),
 * flushes with merges, clean reopens, and crash clones (a copy of the in-memory file system holding
 * only what was synced) reopened through recovery. Every scan must equal the model in key order:
 * the partitions' cursors merged; every scan is repeated as a reverse scan, which must give the
 * same records in the opposite order. The N = 1 run is the unpartitioned engine.
 */
class PartitionedDatasetModelTest {

    private static final Path DIR = Path.of("/db");
    private static final int KEYS = 1_500;
    private static final int GROUPS = 40;

    private static StorageConfig config() {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.MAX_LOG_SIZE, 64L << 20) // keep most history in the log for the crash clones
                .set(ConfigOptions.RECOVERY_THREADS, 2)
                .build();
    }

    static DatasetSpec items(int partitions) {
        return DatasetSpec.builder("items")
                .field("id", INT64).field("grp", INT32).field("name", STRING)
                .primaryKey("id")
                .secondaryIndex("by_grp", "grp")
                .partitions(partitions)
                .build();
    }

    @ParameterizedTest(name = "partitions {0}")
    @ValueSource(ints = {1, 3, 8})
    void scansAndReadsEqualTheModelAcrossWritesTransactionsReopensAndCrashes(int partitions) {
        Random rnd = new Random(1000 + partitions);
        TreeMap<Long, Tuple> model = new TreeMap<>();
        MemFileSystem fs = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(fs, DIR, config());
        Dataset items = engine.createDataset(items(partitions));
        try {
            for (int step = 0; step < 6_000; step++) {
                int op = rnd.nextInt(100);
                if (op < 35) {
                    Tuple t = row(rnd);
                    items.upsert(t);
                    model.put(t.getLong(0), t);
                } else if (op < 45) {
                    long id = rnd.nextInt(KEYS);
                    assertEquals(model.remove(id) != null, items.delete(Key.of(id)), "delete " + id);
                } else if (op < 50) {
                    Tuple t = row(rnd);
                    if (model.containsKey(t.getLong(0))) {
                        Dataset d = items;
                        assertThrows(DuplicateKeyException.class, () -> d.insert(t));
                    } else {
                        items.insert(t);
                        model.put(t.getLong(0), t);
                    }
                } else if (op < 62) {
                    long id = rnd.nextInt(KEYS);
                    assertEquals(model.get(id), items.get(Key.of(id)), "get " + id);
                } else if (op < 78) {
                    transaction(engine, items, model, rnd);
                } else if (op < 88) {
                    long a = rnd.nextInt(KEYS);
                    long b = a + rnd.nextInt(300);
                    KeyRange range = KeyRange.closed(Key.of(a), Key.of(b));
                    assertEquals(new ArrayList<>(model.subMap(a, true, b, true).values()), list(items.scan(range)), "primary range " + a + ".." + b);
                    assertEquals(new ArrayList<>(model.subMap(a, true, b, true).descendingMap().values()), list(items.reverseScan(range)),
                            "reverse primary range " + a + ".." + b);
                } else if (op < 96) {
                    int g1 = rnd.nextInt(GROUPS);
                    int g2 = g1 + rnd.nextInt(5);
                    KeyRange groups = KeyRange.closed(Key.of(g1), Key.of(g2));
                    assertEquals(byGroup(model, g1, g2), list(items.index("by_grp").scan(groups)), "by_grp " + g1 + ".." + g2);
                    assertEquals(reversed(byGroup(model, g1, g2)), list(items.index("by_grp").reverseScan(groups)),
                            "reverse by_grp " + g1 + ".." + g2);
                } else if (op < 98) {
                    engine.flushAndAwaitMerges();
                } else if (op < 99) {
                    engine.close();
                    engine = StorageEngine.open(fs, DIR, config());
                    items = engine.createDatasetIfAbsent(items(partitions));
                } else {
                    MemFileSystem crashed = fs.crashClone();
                    engine.close();
                    fs = crashed;
                    engine = StorageEngine.open(fs, DIR, config());
                    items = engine.dataset("items");
                    assertEquals(partitions, items.spec().partitions());
                }
            }
            assertEquals(new ArrayList<>(model.values()), list(items.scan(KeyRange.all())), "full scan");
            assertEquals(byGroup(model, 0, GROUPS), list(items.index("by_grp").scan(KeyRange.all())), "full secondary scan");
            assertEquals(new ArrayList<>(model.descendingMap().values()), list(items.reverseScan(KeyRange.all())), "full reverse scan");
            assertEquals(reversed(byGroup(model, 0, GROUPS)), list(items.index("by_grp").reverseScan(KeyRange.all())),
                    "full reverse secondary scan");
            checkTrees(engine, partitions);
            // A last history only in the log: a crash clone replays it into the partition trees.
            for (int t = 0; t < 100; t++) {
                transaction(engine, items, model, rnd);
            }
            MemFileSystem crashed = fs.crashClone();
            engine.close();
            engine = StorageEngine.open(crashed, DIR, config());
            assertTrue(engine.recovery.records() > 0, "recovery replayed the log: " + engine.recovery);
            items = engine.dataset("items");
            assertEquals(new ArrayList<>(model.values()), list(items.scan(KeyRange.all())), "full scan after crash");
            assertEquals(byGroup(model, 0, GROUPS), list(items.index("by_grp").scan(KeyRange.all())), "secondary after crash");
            assertEquals(new ArrayList<>(model.descendingMap().values()), list(items.reverseScan(KeyRange.all())),
                    "full reverse scan after crash");
        } finally {
            engine.close();
        }
    }

    /** A transaction of 2..8 writes over random keys (so over several partitions), committed or aborted. */
    private static void transaction(StorageEngine engine, Dataset items, TreeMap<Long, Tuple> model, Random rnd) {
        TreeMap<Long, Tuple> mine = new TreeMap<>(model);
        boolean abort = rnd.nextInt(5) == 0;
        int writes = 2 + rnd.nextInt(7);
        try (Transaction tx = engine.begin()) {
            for (int w = 0; w < writes; w++) {
                if (rnd.nextInt(4) == 0) {
                    long id = rnd.nextInt(KEYS);
                    assertEquals(mine.remove(id) != null, tx.delete(items, Key.of(id)));
                } else {
                    Tuple t = row(rnd);
                    tx.upsert(items, t);
                    mine.put(t.getLong(0), t);
                }
                long probe = rnd.nextInt(KEYS);
                assertEquals(mine.get(probe), tx.get(items, Key.of(probe)), "read-your-writes " + probe);
            }
            int g = rnd.nextInt(GROUPS);
            assertEquals(byGroup(mine, g, g), list(tx.scan(items, "by_grp", KeyRange.prefix(Key.of(g)))), "tx by_grp " + g);
            assertEquals(reversed(byGroup(mine, g, g)), list(tx.reverseScan(items, "by_grp", KeyRange.prefix(Key.of(g)))),
                    "tx reverse by_grp " + g);
            long a = rnd.nextInt(KEYS);
            KeyRange range = KeyRange.closedOpen(Key.of(a), Key.of(a + 100));
            assertEquals(new ArrayList<>(mine.subMap(a, true, a + 100, false).values()), list(tx.scan(items, range)), "tx range " + a);
            assertEquals(new ArrayList<>(mine.subMap(a, true, a + 100, false).descendingMap().values()), list(tx.reverseScan(items, range)),
                    "tx reverse range " + a);
            if (abort) {
                tx.abort();
                return;
            }
            tx.commit();
        }
        model.clear();
        model.putAll(mine);
    }

    private static List<Tuple> reversed(List<Tuple> tuples) {
        List<Tuple> copy = new ArrayList<>(tuples);
        Collections.reverse(copy);
        return copy;
    }

    private static void checkTrees(StorageEngine engine, int partitions) {
        Map<String, dev.breakwater.lsm.tree.TreeStatisticsSnapshot> trees = engine.statistics().trees();
        if (partitions == 1) {
            assertTrue(trees.containsKey("items.primary") && trees.containsKey("items.by_grp"), trees.keySet().toString());
            return;
        }
        for (int p = 0; p < partitions; p++) {
            assertTrue(trees.containsKey("items.primary.p" + p), "statistics name partition " + p + ": " + trees.keySet());
            assertTrue(trees.containsKey("items.by_grp.p" + p), trees.keySet().toString());
        }
        // Routing: every record is in the partition its key hashes to, and every partition holds some.
        DatasetState ds = engine.datasetStates().get("items");
        for (int p = 0; p < partitions; p++) {
            int records = 0;
            try (dev.breakwater.lsm.EntryCursor c = ds.partition(p).primary().scan(null, null)) {
                while (c.next()) {
                    assertEquals(p, PartitionHash.partition(c.key(), c.keyLength(), partitions), "key in partition " + p);
                    records++;
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertTrue(records > 0, "partition " + p + " holds records");
        }
        assertFalse(trees.containsKey("items.primary"));
        assertEquals(2 * partitions, trees.keySet().stream().filter(n -> n.startsWith("items.")).count());
    }

    private static Tuple row(Random rnd) {
        long id = rnd.nextInt(KEYS);
        return Tuple.of(id, rnd.nextInt(GROUPS), "n" + rnd.nextInt(1000) + "x".repeat(rnd.nextInt(40)));
    }

    /** The model's records in by_grp order (grp, then id) with grp in [g1, g2]. */
    private static List<Tuple> byGroup(Map<Long, Tuple> model, int g1, int g2) {
        TreeMap<Long, Tuple> sorted = new TreeMap<>();
        for (Tuple t : model.values()) {
            int g = t.getInt(1);
            if (g >= g1 && g <= g2) {
                sorted.put(((long) g << 32) | t.getLong(0), t);
            }
        }
        return new ArrayList<>(sorted.values());
    }

    private static List<Tuple> list(Cursor<Tuple> cursor) {
        List<Tuple> out = new ArrayList<>();
        try (cursor) {
            while (cursor.hasNext()) {
                out.add(cursor.next());
            }
        }
        return out;
    }
}
