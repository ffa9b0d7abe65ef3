package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.BYTES;
import static dev.breakwater.common.key.FieldType.FLOAT64;
import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The public API: datasets, records, scans, secondary indexes, the catalog and every error. */
class StorageEngineApiTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/data");
    private StorageEngine engine;

    @BeforeEach
    void open() {
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static List<Tuple> all(Cursor<Tuple> c) {
        List<Tuple> out = new ArrayList<>();
        try (c) {
            c.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void insertUpsertGetDeleteAndScans() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        for (int id = 1; id <= 30; id++) {
            c.insert(EngineFixture.customer(1, id % 3, id, "NAME" + (id % 5), id * 10L));
        }
        assertEquals(EngineFixture.customer(1, 1, 4, "NAME4", 40L), c.get(Key.of(1, 1, 4)));
        assertNull(c.get(Key.of(1, 2, 4)));
        c.upsert(EngineFixture.customer(1, 1, 4, "CHANGED", 41L));
        assertEquals("CHANGED", c.get(Key.of(1, 1, 4)).getString(3));
        assertTrue(c.delete(Key.of(1, 1, 4)));
        assertFalse(c.delete(Key.of(1, 1, 4)));
        assertNull(c.get(Key.of(1, 1, 4)));

        // Prefix scan: district 2 of warehouse 1, in id order.
        List<Tuple> d2 = all(c.scan(KeyRange.prefix(Key.of(1, 2))));
        assertEquals(10, d2.size());
        for (int i = 1; i < d2.size(); i++) {
            assertTrue(d2.get(i - 1).getInt(2) < d2.get(i).getInt(2));
        }
        // Closed, half-open and open ranges over full keys.
        assertEquals(3, all(c.scan(KeyRange.closed(Key.of(1, 0, 3), Key.of(1, 0, 9)))).size());   // 3, 6, 9
        assertEquals(2, all(c.scan(KeyRange.closedOpen(Key.of(1, 0, 3), Key.of(1, 0, 9)))).size()); // 3, 6
        assertEquals(1, all(c.scan(KeyRange.open(Key.of(1, 0, 3), Key.of(1, 0, 9)))).size());       // 6
        assertEquals(29, all(c.scan(KeyRange.all())).size());

        // Secondary index: customers of (1, 2) named NAME2, through the index, with updates reflected.
        List<Tuple> byLast = all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "NAME2"))));
        assertEquals(List.of(2, 17), byLast.stream().map(t -> t.getInt(2)).toList());
        c.upsert(EngineFixture.customer(1, 2, 17, "OTHER", 0L)); // moves out of NAME2
        assertEquals(List.of(2), all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "NAME2")))).stream().map(t -> t.getInt(2)).toList());
        c.delete(Key.of(1, 2, 2));
        assertTrue(all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "NAME2")))).isEmpty(), "deleting removes old index entries");
    }

    @Test
    void flushAndAwaitMergesEmptiesWriteMemoryAndKeepsData() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        for (int id = 1; id <= 2_000; id++) {
            c.insert(EngineFixture.customer(1, id % 3, id, "NAME" + (id % 5), id));
        }
        engine.flushAndAwaitMerges();
        EngineStatistics s = engine.statistics();
        assertEquals(0, s.trees().values().stream().mapToLong(t -> t.memoryBytes()).sum());
        assertTrue(s.trees().values().stream().mapToLong(t -> t.bytesFlushed()).sum() > 0);
        assertEquals(2_000L, c.get(Key.of(1, 2_000 % 3, 2_000)).getLong(4));
    }

    @Test
    void aPrefixRangeMatchesTheLastStringAsAPrefixAndExactlyMatchesWholeValues() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        c.insert(EngineFixture.customer(1, 2, 1, "BAR", 0));
        c.insert(EngineFixture.customer(1, 2, 2, "BARBARBAR", 0));
        c.insert(EngineFixture.customer(1, 2, 3, "BARN", 0));
        c.insert(EngineFixture.customer(1, 2, 4, "BAS", 0));
        c.insert(EngineFixture.customer(1, 3, 5, "BAR", 0));
        assertEquals(List.of(1, 2, 3), all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "BAR")))).stream().map(t -> t.getInt(2)).toList());
        assertEquals(List.of(1), all(c.index("by_last").scan(KeyRange.exactly(Key.of(1, 2, "BAR")))).stream().map(t -> t.getInt(2)).toList());
        assertEquals(4, all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "BA")))).size());
        assertEquals(4, all(c.index("by_last").scan(KeyRange.prefix(Key.of(1, 2, "")))).size(), "the empty prefix is the whole district");
    }

    @Test
    void allFieldTypesAndNullsRoundTrip() {
        Dataset d = engine.createDataset(DatasetSpec.builder("typed")
                .field("k", STRING).nullableField("f", FLOAT64).nullableField("b", BYTES).nullableField("i", INT32)
                .primaryKey("k").build());
        d.insert(Tuple.of("a", 1.5, new byte[] {1, 2}, null));
        d.insert(Tuple.of("b", null, null, 7));
        Tuple a = d.get(Key.of("a"));
        assertEquals(1.5, a.getDouble(1));
        assertArrayEquals(new byte[] {1, 2}, a.getBytes(2));
        assertTrue(a.isNull(3));
        assertEquals(7, d.get(Key.of("b")).getInt(3));
    }

    @Test
    void catalogAndDataSurviveReopen() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        c.insert(EngineFixture.customer(1, 1, 1, "X", 5));
        engine.close();
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        assertEquals(0, engine.recovery.records(), "a clean close leaves nothing to replay: " + engine.recovery);
        assertEquals(List.of("customer"), engine.datasetNames());
        Dataset again = engine.dataset("customer");
        assertEquals(EngineFixture.customers(), again.spec());
        assertEquals(5L, again.get(Key.of(1, 1, 1)).getLong(4));
        assertEquals(1, all(again.index("by_last").scan(KeyRange.prefix(Key.of(1, 1, "X")))).size());
    }

    @Test
    void errorsNameWhatWentWrong() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        c.insert(EngineFixture.customer(1, 1, 1, "X", 5));
        DuplicateKeyException dup = assertThrows(DuplicateKeyException.class, () -> c.insert(EngineFixture.customer(1, 1, 1, "Y", 6)));
        assertTrue(dup.getMessage().contains("customer"), dup.getMessage());
        SchemaException type = assertThrows(SchemaException.class, () -> c.insert(Tuple.of(1, 1, "not an int", "X", 5L)));
        assertTrue(type.getMessage().contains("field id") && type.getMessage().contains("INT32"), type.getMessage());
        SchemaException nul = assertThrows(SchemaException.class, () -> c.insert(Tuple.of(1, 1, 2, null, 5L)));
        assertTrue(nul.getMessage().contains("field last"), nul.getMessage());
        assertThrows(SchemaException.class, () -> c.insert(Tuple.of(1, 1, 2)));
        UnknownDatasetException unknown = assertThrows(UnknownDatasetException.class, () -> engine.dataset("nope"));
        assertTrue(unknown.getMessage().contains("nope"), unknown.getMessage());
        SchemaException index = assertThrows(SchemaException.class, () -> c.index("nope"));
        assertTrue(index.getMessage().contains("no index nope"), index.getMessage());
        assertThrows(SchemaException.class, () -> c.get(Key.of(1, 1)), "a primary-key lookup needs every key field");
        assertThrows(SchemaException.class, () -> c.get(Key.of(1, 1, "x")));
        assertThrows(SchemaException.class, () -> engine.createDataset(EngineFixture.customers()), "exists already");
        RecordTooLargeException big = assertThrows(RecordTooLargeException.class,
                () -> c.insert(EngineFixture.customer(1, 1, 9, "x".repeat(100_000), 0)));
        assertTrue(big.getMessage().contains("exceeds the limit"), big.getMessage());
        for (String bad : new String[] {"../etc", "a/b", "", "9lives", "x".repeat(65), "a.b"}) {
            SchemaException e = assertThrows(SchemaException.class, () -> DatasetSpec.builder(bad).field("k", INT32).primaryKey("k").build());
            assertTrue(e.getMessage().contains("invalid dataset name"), e.getMessage());
        }
        assertThrows(SchemaException.class, () -> DatasetSpec.builder("ok").field("k", INT32).primaryKey("missing").build());
        assertThrows(SchemaException.class, () -> DatasetSpec.builder("ok").nullableField("k", INT32).primaryKey("k").build());
        engine.close();
        EngineClosedException closed = assertThrows(EngineClosedException.class, () -> c.get(Key.of(1, 1, 1)));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        engine.close(); // idempotent
    }

    @Test
    void dropAndRecreateLeavesNothingBehind() {
        Dataset c = engine.createDataset(EngineFixture.customers());
        c.insert(EngineFixture.customer(1, 1, 1, "X", 5));
        engine.dropDataset("customer");
        assertThrows(UnknownDatasetException.class, () -> c.get(Key.of(1, 1, 1)));
        Dataset again = engine.createDataset(EngineFixture.customers());
        assertNull(again.get(Key.of(1, 1, 1)));
        engine.close();
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        assertNull(engine.dataset("customer").get(Key.of(1, 1, 1)), "the dropped dataset's log records are not replayed into the new one");
    }

    @Test
    void addIndexBuildsFromThePrimaryAndIsMaintainedAfterwards() {
        Dataset d = engine.createDataset(DatasetSpec.builder("item").field("id", INT32).field("name", STRING).primaryKey("id").build());
        for (int i = 0; i < 500; i++) {
            d.insert(Tuple.of(i, "n" + (i % 7)));
        }
        engine.addIndex("item", new IndexSpec("by_name", List.of("name")));
        assertEquals(71, all(d.index("by_name").scan(KeyRange.prefix(Key.of("n3")))).size());
        d.upsert(Tuple.of(3, "n4"));
        assertEquals(70, all(d.index("by_name").scan(KeyRange.prefix(Key.of("n3")))).size());
        engine.close();
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        assertEquals(70, all(engine.dataset("item").index("by_name").scan(KeyRange.prefix(Key.of("n3")))).size());
    }
}
