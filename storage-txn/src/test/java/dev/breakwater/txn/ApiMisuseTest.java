package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Misuse of the API fails at once with a message that says what is wrong (issue 11, items 9 and 11). */
class ApiMisuseTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/data");
    private StorageEngine engine;
    private Dataset c;

    @BeforeEach
    void open() {
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        c = engine.createDataset(EngineFixture.customers());
    }

    @AfterEach
    void close() {
        engine.close();
    }

    private static void assertNamesArgument(String argument, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertEquals(argument, e.getMessage());
    }

    @Test
    void nullArgumentsAreNamed() {
        assertNamesArgument("dir", () -> StorageEngine.open(null));
        assertNamesArgument("config", () -> StorageEngine.open(dir, null));
        assertNamesArgument("spec", () -> engine.createDataset(null));
        assertNamesArgument("spec", () -> engine.createDatasetIfAbsent(null));
        assertNamesArgument("name", () -> engine.dataset(null));
        assertNamesArgument("name", () -> engine.dropDataset(null));
        assertNamesArgument("index", () -> engine.addIndex("customer", null));
        assertNamesArgument("body", () -> engine.inTransaction(null));
        assertNamesArgument("body", () -> engine.callInTransaction(null));
        assertNamesArgument("record", () -> c.insert(null));
        assertNamesArgument("record", () -> c.upsert(null));
        assertNamesArgument("primaryKey", () -> c.get(null));
        assertNamesArgument("primaryKey", () -> c.delete(null));
        assertNamesArgument("range", () -> c.scan(null));
        assertNamesArgument("indexName", () -> c.index(null));
        assertNamesArgument("range", () -> c.index("by_last").scan(null));
        assertNamesArgument("values", () -> Tuple.of((Object[]) null));
        assertNamesArgument("values", () -> Key.of((Object[]) null));
        assertNamesArgument("prefix", () -> KeyRange.prefix(null));
        try (Transaction tx = engine.begin()) {
            assertNamesArgument("dataset", () -> tx.get(null, Key.of(1, 1, 1)));
            assertNamesArgument("primaryKey", () -> tx.get(c, null));
            assertNamesArgument("record", () -> tx.insert(c, null));
            assertNamesArgument("record", () -> tx.upsert(c, null));
            assertNamesArgument("dataset", () -> tx.upsert(null, EngineFixture.customer(1, 1, 1, "A", 1)));
            assertNamesArgument("primaryKey", () -> tx.delete(c, null));
            assertNamesArgument("range", () -> tx.scan(c, null));
            assertNamesArgument("index", () -> tx.scan(c, null, KeyRange.all()));
        }
    }

    @Test
    void commitInsideInTransactionIsRejectedAndNothingIsCommitted() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> engine.inTransaction(tx -> {
            tx.upsert(c, EngineFixture.customer(1, 1, 1, "A", 1));
            tx.commit();
        }));
        assertTrue(e.getMessage().contains("commits when the body returns"), e.getMessage());
        assertNull(c.get(Key.of(1, 1, 1)), "the body's write was neither committed nor half-committed");
    }

    @Test
    void nestedTransactionsOnOneThreadAreRejectedAtOnce() {
        // Before: the inner transaction waited 10 s for the outer one's lock, or committed separately.
        IllegalStateException nested = assertThrows(IllegalStateException.class, () -> engine.inTransaction(outer -> {
            outer.upsert(c, EngineFixture.customer(1, 1, 1, "A", 1));
            engine.inTransaction(inner -> inner.upsert(c, EngineFixture.customer(1, 1, 1, "B", 2)));
        }));
        assertTrue(nested.getMessage().contains("nested"), nested.getMessage());
        assertThrows(IllegalStateException.class, () -> engine.callInTransaction(outer -> engine.begin()));
        assertNull(c.get(Key.of(1, 1, 1)), "the outer transaction was aborted by the exception");
        engine.inTransaction(tx -> tx.upsert(c, EngineFixture.customer(1, 1, 1, "C", 3))); // the thread is usable again
        assertEquals("C", c.get(Key.of(1, 1, 1)).getString(3));
    }

    @Test
    void createDatasetIfAbsentReturnsTheSameDatasetOrNamesTheDifference() {
        c.upsert(EngineFixture.customer(1, 1, 1, "A", 1));
        Dataset again = engine.createDatasetIfAbsent(EngineFixture.customers());
        assertEquals("A", again.get(Key.of(1, 1, 1)).getString(3));
        SchemaException exists = assertThrows(SchemaException.class, () -> engine.createDataset(EngineFixture.customers()));
        assertTrue(exists.getMessage().contains("createDatasetIfAbsent"), exists.getMessage());

        DatasetSpec otherType = DatasetSpec.builder("customer")
                .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING).field("balance", INT32)
                .primaryKey("w", "d", "id").secondaryIndex("by_last", "w", "d", "last").build();
        SchemaException e = assertThrows(SchemaException.class, () -> engine.createDatasetIfAbsent(otherType));
        assertTrue(e.getMessage().contains("field 5 is balance INT64 in the existing dataset, balance INT32 in the new"), e.getMessage());

        DatasetSpec otherIndex = DatasetSpec.builder("customer")
                .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING).field("balance", INT64)
                .primaryKey("w", "d", "id").build();
        SchemaException ix = assertThrows(SchemaException.class, () -> engine.createDatasetIfAbsent(otherIndex));
        assertTrue(ix.getMessage().contains("secondary indexes"), ix.getMessage());

        engine.close();
        engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig());
        Dataset reopened = engine.createDatasetIfAbsent(EngineFixture.customers());
        assertEquals(1, reopened.get(Key.of(1, 1, 1)).getLong(4));
        assertSame(null, engine.createDatasetIfAbsent(DatasetSpec.builder("other").field("k", INT32).primaryKey("k").build())
                .get(Key.of(1)));
    }
}
