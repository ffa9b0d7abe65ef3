package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.tree.LsmTree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A dataset's own memory-component kind ({@link DatasetSpec#memoryComponent()}): used by its primary
 * and secondary trees, persisted in the catalog across restarts and crashes, validated with clear
 * errors, and compatible with datasets of other kinds in one engine.
 */
class MemoryComponentOverrideTest {

    private static final Path DIR = Path.of("/data");

    /** Small memory (256 KiB M0s) so that the datasets seal and flush; the engine's own kind is the hash linked list. */
    private static StorageConfig config() {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 256L << 10)
                .set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.HASH_LINKED_LIST)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX, 6)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 256)
                .build();
    }

    private static DatasetSpec customers(String name, MemoryComponentOverride memory) {
        return DatasetSpec.builder(name)
                .field("w", dev.breakwater.common.key.FieldType.INT32).field("d", dev.breakwater.common.key.FieldType.INT32)
                .field("id", dev.breakwater.common.key.FieldType.INT32).field("last", dev.breakwater.common.key.FieldType.STRING)
                .field("balance", dev.breakwater.common.key.FieldType.INT64)
                .primaryKey("w", "d", "id")
                .secondaryIndex("by_last", "w", "d", "last")
                .memoryComponent(memory)
                .build();
    }

    /** The datasets of the model test: every kind in one engine, one of them the engine's own. */
    private static Map<String, MemoryComponentOverride> overrides() {
        Map<String, MemoryComponentOverride> m = new LinkedHashMap<>();
        m.put("skip", MemoryComponentOverride.of(MemoryComponentKind.SKIP_LIST));
        m.put("vec", MemoryComponentOverride.vector(500));
        m.put("hash", MemoryComponentOverride.hash(MemoryComponentKind.HASH_SKIP_LIST, 7, 32));
        m.put("plain", null);
        return m;
    }

    /** What each dataset's trees must build, with the engine's parameters filled in where the override leaves them out. */
    private static MemoryComponentSpec expectedSpec(String dataset, StorageConfig c) {
        return switch (dataset) {
            case "skip" -> new MemoryComponentSpec(MemoryComponentKind.SKIP_LIST, 6, 256, 0);
            case "vec" -> new MemoryComponentSpec(MemoryComponentKind.VECTOR, 6, 256, 500);
            case "hash" -> new MemoryComponentSpec(MemoryComponentKind.HASH_SKIP_LIST, 7, 32, 0);
            default -> new MemoryComponentSpec(c.get(ConfigOptions.MEMORY_COMPONENT_KIND), 6, 256, 0);
        };
    }

    private static void assertTreesBuild(StorageEngine engine, StorageConfig c) {
        for (String name : overrides().keySet()) {
            DatasetState state = engine.datasetStates().get(name);
            assertEquals(2, state.trees().size());
            for (LsmTree t : state.trees()) {
                assertEquals(expectedSpec(name, c), t.memorySpec(), name + ": tree " + t.name());
            }
            assertEquals(overrides().get(name), engine.dataset(name).spec().memoryComponent(), name);
        }
    }

    private static void check(StorageEngine engine, Map<String, TreeMap<Integer, Tuple>> models, String when) {
        for (var e : models.entrySet()) {
            Dataset d = engine.dataset(e.getKey());
            TreeMap<Integer, Tuple> model = e.getValue();
            List<Tuple> scanned = new ArrayList<>();
            try (Cursor<Tuple> c = d.scan(KeyRange.all())) {
                while (c.hasNext()) {
                    scanned.add(c.next());
                }
            }
            List<Tuple> expected = new ArrayList<>();
            for (int dist = 0; dist < 10; dist++) {
                for (Tuple t : model.values()) {
                    if (t.getInt(1) == dist) {
                        expected.add(t);
                    }
                }
            }
            assertEquals(expected, scanned, e.getKey() + ": primary scan " + when);
            for (int dist = 0; dist < 10; dist += 3) {
                for (int n = 0; n < 13; n += 4) {
                    String last = "N" + n;
                    int count = 0;
                    int previous = -1;
                    try (Cursor<Tuple> c = d.index("by_last").scan(KeyRange.prefix(Key.of(1, dist, last)))) {
                        while (c.hasNext()) {
                            Tuple t = c.next();
                            assertEquals(last, t.getString(3));
                            assertTrue(t.getInt(2) > previous, "in key order");
                            previous = t.getInt(2);
                            count++;
                        }
                    }
                    int d0 = dist;
                    long want = model.values().stream().filter(t -> t.getInt(1) == d0 && t.getString(3).equals(last)).count();
                    assertEquals(want, count, e.getKey() + ": index scan (" + dist + ", " + last + ") " + when);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(WriteMemoryScheme.class)
    void datasetsOfEveryKindInOneEngineMatchTheirModelsAcrossFlushesARestartAndACrash(WriteMemoryScheme scheme) {
        StorageConfig c = config().toBuilder().set(ConfigOptions.WRITE_MEMORY_SCHEME, scheme).build();
        MemFileSystem mem = new MemFileSystem();
        Map<String, TreeMap<Integer, Tuple>> models = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(overrides().keySet());
        StorageEngine engine = StorageEngine.open(mem, DIR, c);
        for (String name : names) {
            engine.createDataset(customers(name, overrides().get(name)));
            models.put(name, new TreeMap<>());
        }
        assertTreesBuild(engine, c);
        Random rnd = new Random(42);
        for (int op = 0; op < 16_000; op++) {
            if (op == 8_000) {
                check(engine, models, "before the restart");
                engine.close();
                engine = StorageEngine.open(mem, DIR, c);
                assertTreesBuild(engine, c);
                check(engine, models, "after the restart");
            }
            if (op == 12_000) {
                engine.flushAndAwaitMerges(); // every kind's components sealed and written to disk
            }
            String name = names.get(rnd.nextInt(names.size()));
            Dataset d = engine.dataset(name);
            int id = rnd.nextInt(2_000);
            if (rnd.nextInt(8) == 0) {
                d.delete(Key.of(1, id % 10, id));
                models.get(name).remove(id);
            } else {
                Tuple t = EngineFixture.customer(1, id % 10, id, "N" + rnd.nextInt(13), rnd.nextLong());
                d.upsert(t);
                models.get(name).put(id, t);
            }
        }
        check(engine, models, "at the end");
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, DIR, c)) {
            assertTreesBuild(recovered, c);
            check(recovered, models, "after a crash");
        }
    }

    /** A partitioned dataset with its own kind: every partition's trees use it, and both survive a crash. */
    @Test
    void aPartitionedDatasetKeepsItsKindInEveryPartition() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        DatasetSpec spec = DatasetSpec.builder("hp")
                .field("id", dev.breakwater.common.key.FieldType.INT32).field("v", dev.breakwater.common.key.FieldType.INT64)
                .primaryKey("id").secondaryIndex("by_v", "v")
                .partitions(3).memoryComponent(MemoryComponentKind.VECTOR).build();
        StorageEngine engine = StorageEngine.open(mem, DIR, config());
        engine.createDataset(spec);
        Dataset d = engine.dataset("hp");
        for (int i = 0; i < 300; i++) {
            d.upsert(Tuple.of(i, (long) i * 7));
        }
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, DIR, config())) {
            Dataset again = recovered.dataset("hp");
            assertEquals(spec, again.spec());
            List<LsmTree> trees = recovered.datasetStates().get("hp").trees();
            assertEquals(6, trees.size(), "3 partitions x (primary + by_v)");
            for (LsmTree t : trees) {
                assertEquals(MemoryComponentKind.VECTOR, t.memorySpec().kind(), t.name());
            }
            for (int i = 0; i < 300; i++) {
                assertEquals((long) i * 7, again.get(Key.of(i)).getLong(1));
            }
        }
    }

    @Test
    void theOverrideSurvivesACrashAndUnsetParametersFollowTheEngineAtEachOpen() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        StorageEngine engine = StorageEngine.open(mem, DIR, config());
        engine.createDataset(customers("h", MemoryComponentOverride.of(MemoryComponentKind.HASH_SKIP_LIST)));
        Dataset d = engine.dataset("h");
        for (int i = 0; i < 500; i++) {
            d.upsert(EngineFixture.customer(1, i % 10, i, "N" + (i % 13), i));
        }
        MemFileSystem crashed = mem.crashClone(); // no close: the catalog must already be durable
        engine.close();
        StorageConfig other = config().toBuilder().set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.VECTOR)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 64).build();
        try (StorageEngine recovered = StorageEngine.open(crashed, DIR, other)) {
            Dataset again = recovered.dataset("h");
            assertEquals(MemoryComponentOverride.of(MemoryComponentKind.HASH_SKIP_LIST), again.spec().memoryComponent());
            for (LsmTree t : recovered.datasetStates().get("h").trees()) {
                assertEquals(new MemoryComponentSpec(MemoryComponentKind.HASH_SKIP_LIST, 6, 64, 0), t.memorySpec(),
                        "the dataset's kind, with the engine's new bucket count");
            }
            for (int i = 0; i < 500; i++) {
                assertEquals(i, again.get(Key.of(1, i % 10, i)).getLong(4));
            }
            recovered.addIndex("h", new IndexSpec("by_balance", List.of("balance")));
            DatasetState state = recovered.datasetStates().get("h");
            assertEquals(3, state.trees().size());
            for (LsmTree t : state.trees()) {
                assertEquals(MemoryComponentKind.HASH_SKIP_LIST, t.memorySpec().kind(), "an index added later too: " + t.name());
            }
            assertEquals(MemoryComponentOverride.of(MemoryComponentKind.HASH_SKIP_LIST), recovered.dataset("h").spec().memoryComponent());
        }
        String catalog = read(crashed, Catalog.FILE);
        assertTrue(catalog.contains("\"memoryComponent\""), catalog);
        assertFalse(catalog.contains("\"hashBuckets\""), "parameters left to the engine are not written: " + catalog);
    }

    private static String read(MemFileSystem fs, String file) throws Exception {
        try (var f = fs.open(DIR.resolve(file), dev.breakwater.common.io.OpenOption.READ)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return new String(b.array(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static void write(MemFileSystem fs, String file, String text) throws Exception {
        fs.createDirectories(DIR);
        try (var f = fs.open(DIR.resolve(file), dev.breakwater.common.io.OpenOption.CREATE, dev.breakwater.common.io.OpenOption.WRITE,
                dev.breakwater.common.io.OpenOption.TRUNCATE)) {
            f.write(0, java.nio.ByteBuffer.wrap(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            f.sync();
        }
    }

    /** A catalog as the build before the override wrote it (5b9463b): byte for byte what it saved for one dataset. */
    private static final String OLD_CATALOG = """
            {
              "formatVersion" : 1,
              "nextId" : 4,
              "datasets" : [ {
                "id" : 1,
                "name" : "customer",
                "fields" : [ {
                  "name" : "w",
                  "type" : "INT32",
                  "nullable" : false
                }, {
                  "name" : "d",
                  "type" : "INT32",
                  "nullable" : false
                }, {
                  "name" : "id",
                  "type" : "INT32",
                  "nullable" : false
                }, {
                  "name" : "last",
                  "type" : "STRING",
                  "nullable" : false
                }, {
                  "name" : "balance",
                  "type" : "INT64",
                  "nullable" : false
                } ],
                "primaryKey" : [ "w", "d", "id" ],
                "primaryTree" : 2,
                "indexes" : [ {
                  "name" : "by_last",
                  "fields" : [ "w", "d", "last" ],
                  "tree" : 3
                } ]
              } ],
              "garbage" : [ ]
            }""";

    @Test
    void aCatalogWrittenBeforeTheOverrideExistedReadsAsTheEnginesKindAndIsWrittenTheSameWay() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        try (StorageEngine engine = StorageEngine.open(mem, DIR, config())) {
            Dataset c = engine.createDataset(EngineFixture.customers());
            c.upsert(EngineFixture.customer(1, 2, 3, "X", 4));
        }
        assertEquals(OLD_CATALOG, read(mem, Catalog.FILE), "a dataset without an override is written as before");
        write(mem, Catalog.FILE, OLD_CATALOG.replace("\n", "\r\n").replace("  ", "\t")); // any old JSON layout reads
        Catalog loaded = Catalog.load(mem, DIR);
        assertNull(loaded.get("customer").spec().memoryComponent());
        try (StorageEngine engine = StorageEngine.open(mem, DIR, config())) {
            assertEquals(4L, engine.dataset("customer").get(Key.of(1, 2, 3)).getLong(4));
            for (LsmTree t : engine.datasetStates().get("customer").trees()) {
                assertEquals(MemoryComponentKind.HASH_LINKED_LIST, t.memorySpec().kind(), "the engine's kind");
            }
        }
    }

    @Test
    void aDamagedOverrideInTheCatalogIsRefusedNamingTheFile() throws Exception {
        String withOverride = OLD_CATALOG.replace("\"tree\" : 3\n    } ]", "\"tree\" : 3\n    } ],\n    \"memoryComponent\" : %s");
        assertTrue(withOverride.contains("%s"));
        MemFileSystem mem = new MemFileSystem();
        write(mem, Catalog.FILE, String.format(withOverride, "{ \"kind\" : \"VECTOR\", \"vectorReserve\" : 100 }"));
        assertEquals(MemoryComponentOverride.vector(100), Catalog.load(mem, DIR).get("customer").spec().memoryComponent());
        for (String bad : List.of("{ \"hashBuckets\" : 4 }", "{ \"kind\" : \"HASH_SKIP_LIST\", \"hashBuckets\" : 0 }",
                "{ \"kind\" : \"VECTOR\", \"hashPrefix\" : 4 }", "{ \"kind\" : \"BTREE\" }")) {
            write(mem, Catalog.FILE, String.format(withOverride, bad));
            java.io.IOException e = assertThrows(java.io.IOException.class, () -> Catalog.load(mem, DIR), bad);
            assertTrue(e.getMessage().contains("catalog.json"), e.getMessage());
        }
    }

    @Test
    void badOverridesAreRefusedWithClearErrors() {
        SchemaException e = assertThrows(SchemaException.class, () -> MemoryComponentOverride.hash(MemoryComponentKind.HASH_SKIP_LIST, 0, 64));
        assertTrue(e.getMessage().contains("memory-component-hash-prefix = 0 is out of range"), e.getMessage());
        e = assertThrows(SchemaException.class, () -> MemoryComponentOverride.hash(MemoryComponentKind.HASH_LINKED_LIST, 8, 0));
        assertTrue(e.getMessage().contains("memory-component-hash-buckets = 0"), e.getMessage());
        e = assertThrows(SchemaException.class, () -> MemoryComponentOverride.hash(MemoryComponentKind.VECTOR, 8, 64));
        assertTrue(e.getMessage().contains("kind VECTOR takes no memory-component-hash-prefix"), e.getMessage());
        e = assertThrows(SchemaException.class, () -> new MemoryComponentOverride(MemoryComponentKind.SKIP_LIST, null, null, 10));
        assertTrue(e.getMessage().contains("applies to VECTOR only"), e.getMessage());
        e = assertThrows(SchemaException.class, () -> MemoryComponentOverride.vector(-1));
        assertTrue(e.getMessage().contains("memory-component-vector-reserve = -1"), e.getMessage());
        e = assertThrows(SchemaException.class, () -> MemoryComponentOverride.of(null));
        assertTrue(e.getMessage().contains("needs a kind"), e.getMessage());

        MemFileSystem mem = new MemFileSystem();
        try (StorageEngine engine = StorageEngine.open(mem, DIR, config())) {
            // 65,536 buckets are 512 KiB of bucket array in a 256 KiB M0.
            e = assertThrows(SchemaException.class, () -> engine.createDataset(customers("big",
                    MemoryComponentOverride.hash(MemoryComponentKind.HASH_SKIP_LIST, 8, 65_536))));
            assertTrue(e.getMessage().contains("dataset big") && e.getMessage().contains("bucket array"), e.getMessage());
            e = assertThrows(SchemaException.class, () -> engine.createDataset(customers("big", MemoryComponentOverride.vector(100_000))));
            assertTrue(e.getMessage().contains("dataset big") && e.getMessage().contains("reserved entries"), e.getMessage());
            assertTrue(engine.datasetStates().isEmpty(), "nothing created");
            engine.createDataset(customers("ok", MemoryComponentOverride.vector(100)));
            e = assertThrows(SchemaException.class, () -> engine.createDatasetIfAbsent(customers("ok", null)));
            assertTrue(e.getMessage().contains("memory component is"), e.getMessage());
            assertEquals(MemoryComponentOverride.vector(100),
                    engine.createDatasetIfAbsent(customers("ok", MemoryComponentOverride.vector(100))).spec().memoryComponent());
        }
    }
}
