package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.BYTES;
import static dev.breakwater.common.key.FieldType.INT32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.txn.log.LogOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A transaction's log size is limited by {@code max-transaction-size}, and the write that would
 * cross it fails at once (issue 11 item 8). Before: a transaction over 1 MiB did all its work and
 * then failed at commit with a raw IllegalArgumentException from the log.
 */
class TransactionSizeTest {

    private final Path dir = Path.of("/data");

    private static DatasetSpec blobs() {
        return DatasetSpec.builder("blobs").field("id", INT32).field("data", BYTES).primaryKey("id").build();
    }

    @Test
    void theWriteThatCrossesTheLimitFailsAndTheTransactionStaysUsable() {
        StorageConfig config = EngineFixture.smallConfig().toBuilder() // default max-transaction-size: 1 MiB
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 4L << 20).build();
        try (StorageEngine engine = StorageEngine.open(new MemFileSystem(), dir, config)) {
            Dataset d = engine.createDataset(blobs());
            byte[] kb = new byte[1000];
            int written = 0;
            try (Transaction tx = engine.begin()) {
                TransactionTooLargeException e = null;
                for (int i = 0; i < 2000 && e == null; i++) {
                    try {
                        tx.upsert(d, Tuple.of(i, kb));
                        written++;
                    } catch (TransactionTooLargeException tooLarge) {
                        e = tooLarge;
                    }
                }
                assertTrue(e != null, "refused at a write");
                assertTrue(e.getMessage().contains("over max-transaction-size (1048576 bytes)"), e.getMessage());
                assertTrue(written > 1000 && written < 1050, "about 1 MiB of 1 KB records: " + written);
                int overflow = written;
                assertNull(tx.get(d, Key.of(overflow)), "the refused write was not buffered");
                tx.upsert(d, Tuple.of(0, new byte[10])); // replacing a buffered record makes room
                tx.commit();
            }
            assertEquals(written, count(d));
            assertEquals(10, d.get(Key.of(0)).getBytes(1).length);
        }
    }

    @Test
    void theLimitIsAnOptionAndCanBeRaised() {
        StorageConfig config = EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 16L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 64L << 20)
                .set(ConfigOptions.MAX_TRANSACTION_SIZE, 8L << 20)
                .build();
        assertEquals(8 << 20, LogOptions.fromConfig(config).maxRecordSize());
        assertTrue(LogOptions.fromConfig(config).bufferSize() >= (8 << 20) + 16, "a buffer holds a largest record");
        try (StorageEngine engine = StorageEngine.open(new MemFileSystem(), dir, config)) {
            Dataset d = engine.createDataset(blobs());
            byte[] kb = new byte[1000];
            engine.inTransaction(tx -> {
                for (int i = 0; i < 5000; i++) { // about 5 MB in one transaction
                    tx.upsert(d, Tuple.of(i, kb));
                }
            });
            assertEquals(5000, count(d));
        }
        StorageConfig capped = EngineFixture.smallConfig().toBuilder().set(ConfigOptions.MAX_TRANSACTION_SIZE, 8L << 20).build();
        assertEquals((1 << 20) - 16, LogOptions.fromConfig(capped).maxRecordSize(), "capped by the 1 MiB segments");
    }

    private static int count(Dataset d) {
        int n = 0;
        try (Cursor<Tuple> c = d.scan(KeyRange.all())) {
            while (c.hasNext()) {
                c.next();
                n++;
            }
        }
        return n;
    }
}
