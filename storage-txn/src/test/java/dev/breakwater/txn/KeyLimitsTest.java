package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.txn.log.LogManager;
import dev.breakwater.txn.log.LogOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keys over the SSTable key limit are refused at the write, naming the index, its fields and the
 * limit (issue 11 item 5). Before, they passed the record-size check, the next flush failed, and
 * from then on the engine refused every write, again after every restart.
 */
class KeyLimitsTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/data");
    /** Default 16 KiB pages: the limits documented in docs/configuration.md. */
    private final StorageConfig config = EngineFixture.smallConfig().toBuilder().set(ConfigOptions.PAGE_SIZE, 16384L).build();

    /** notes(id, tag, text) with the text indexed. */
    private static DatasetSpec notes() {
        return DatasetSpec.builder("notes").field("id", STRING).field("tag", INT32).field("text", STRING)
                .primaryKey("id").secondaryIndex("by_text", "text").build();
    }

    /** The longest ASCII id whose record with an empty text fits the key limit in both indexes. */
    private static String longestId(StorageEngine engine, Dataset d) {
        DatasetState ds = engine.state(d);
        String s = "";
        while (ds.secondaries.get(0).codec().keyOf(Tuple.of(s + "x", 1, "")).length <= engine.limits.maxKeyBytes()) {
            s += "x";
        }
        assertEquals(engine.limits.maxKeyBytes(), ds.secondaries.get(0).codec().keyOf(Tuple.of(s, 1, "")).length);
        return s;
    }

    @Test
    void theDocumentedLimitsHold() {
        try (StorageEngine engine = StorageEngine.open(fs, dir, config)) {
            System.out.println("16 KiB pages: key " + engine.limits.maxKeyBytes() + ", record " + engine.limits.maxRecordBytes());
            assertEquals(8128, engine.limits.maxKeyBytes(), "docs/configuration.md, Size limits");
            assertEquals(16352, engine.limits.maxRecordBytes(), "docs/configuration.md, Size limits");
        }
        try (StorageEngine small = StorageEngine.open(new MemFileSystem(), dir, EngineFixture.smallConfig())) {
            System.out.println("4 KiB pages: key " + small.limits.maxKeyBytes() + ", record " + small.limits.maxRecordBytes());
            assertEquals(1984, small.limits.maxKeyBytes(), "docs/configuration.md, Size limits (4 KiB pages)");
        }
    }

    @Test
    void overLongPrimaryOrSecondaryKeysAreRefusedAndTheEngineKeepsWorking() {
        try (StorageEngine engine = StorageEngine.open(fs, dir, config)) {
            Dataset d = engine.createDataset(notes());
            String longest = longestId(engine, d);
            IllegalArgumentException pk = assertThrows(IllegalArgumentException.class,
                    () -> d.upsert(Tuple.of("x".repeat(8200), 1, "short")));
            assertTrue(pk.getMessage().contains("primary index key [id]"), pk.getMessage());
            assertTrue(pk.getMessage().contains("over the key limit of 8128 bytes"), pk.getMessage());
            assertThrows(IllegalArgumentException.class, () -> d.delete(Key.of("x".repeat(8200))), "a tombstone is a key too");
            assertThrows(IllegalArgumentException.class, () -> d.upsert(Tuple.of(longest + "x", 1, "")), "one byte over");

            // A text that fits as a record but not as a secondary key (text ++ primary key).
            String text = "t".repeat(5000);
            String id = "i".repeat(4000);
            IllegalArgumentException sk = assertThrows(IllegalArgumentException.class, () -> d.insert(Tuple.of(id, 1, text)));
            assertTrue(sk.getMessage().contains("by_text index key [text, id]"), sk.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> engine.inTransaction(tx -> tx.upsert(d, Tuple.of(id, 1, text))));
            assertNull(d.get(Key.of(id)));

            // A key exactly at the limit is stored, flushed, merged and read back.
            d.upsert(Tuple.of(longest, 1, ""));
            for (int i = 0; i < 200; i++) {
                d.upsert(Tuple.of("k" + i, i, "v" + i));
            }
            engine.flushAndAwaitMerges();
            d.upsert(Tuple.of("after", 2, "flush")); // writes still accepted
        }
        try (StorageEngine reopened = StorageEngine.open(fs, dir, config)) {
            Dataset d = reopened.dataset("notes");
            assertEquals(1, d.get(Key.of(longestId(reopened, d))).getInt(1));
            assertEquals("flush", d.get(Key.of("after")).getString(2));
            reopened.flushAndAwaitMerges();
        }
    }

    @Test
    void aLoggedOverLongKeyStopsRecoveryWithAnErrorNamingTheRecord() throws Exception {
        long primaryTree;
        try (StorageEngine engine = StorageEngine.open(fs, dir, config)) {
            Dataset d = engine.createDataset(notes());
            d.upsert(Tuple.of("a", 1, "b"));
            primaryTree = engine.state(d).primaryTreeId;
        }
        // What an engine without the API check logged: a 9,000-byte key.
        long lsn;
        try (LogManager log = LogManager.open(fs, dir.resolve("log"), LogOptions.fromConfig(config), new IoStatistics())) {
            byte[] key = "k".repeat(9000).getBytes();
            lsn = log.append(CommitRecordFormat.encode(List.of(TreeOp.put(primaryTree, key, new byte[] {1}))));
            log.awaitDurable(lsn);
        }
        StorageException e = assertThrows(StorageException.class, () -> StorageEngine.open(fs, dir, config));
        assertTrue(e.getMessage().contains("log record at LSN " + lsn + " writes a key of 9000 bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("over this engine's limits"), e.getMessage());
    }
}
