package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.key.FieldType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression test: a tree that is written once, flushed, and then left alone keeps an old durable
 * LSN while the log is truncated far past it (correctly: it needs none of those records). Reopening
 * must start replay at the recorded truncation point, not fail because the segment holding that old
 * LSN + 1 is gone. Found by the TPC-C harness (the ITEM and WAREHOUSE trees are written only at load).
 */
class LogTruncationRecoveryTest {

    @TempDir
    Path dir;

    @Test
    void reopenAfterTruncationPastAnIdleTreesDurableLsn() throws Exception {
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            Dataset idle = engine.createDataset(DatasetSpec.builder("idle").field("k", FieldType.INT32)
                    .field("v", FieldType.STRING).primaryKey("k").build());
            Dataset busy = engine.createDataset(DatasetSpec.builder("busy").field("k", FieldType.INT32)
                    .field("v", FieldType.STRING).primaryKey("k").build());
            idle.upsert(Tuple.of(1, "written once"));
            String pad = "x".repeat(900);
            long deadline = System.nanoTime() + 30_000_000_000L;
            int k = 0;
            // Keep writing until the log's oldest segment starts well past the idle tree's write.
            while (oldestSegment(dir.resolve("log")) < (3L << 20)) {
                assertTrue(System.nanoTime() < deadline, "log was never truncated");
                engine.inTransaction(tx -> {
                    for (int i = 0; i < 100; i++) {
                        tx.upsert(busy, Tuple.of(i, pad));
                    }
                });
                k++;
            }
            assertTrue(k > 0);
        }
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            assertEquals("written once", engine.dataset("idle").get(Key.of(1)).getString(1));
            assertEquals(100, countAll(engine.dataset("busy")));
        }
    }

    private static long oldestSegment(Path logDir) throws Exception {
        try (Stream<Path> s = Files.list(logDir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("log-") && n.endsWith(".seg"))
                    .mapToLong(n -> Long.parseLong(n.substring(4, n.length() - 4))).min().orElse(0);
        }
    }

    private static int countAll(Dataset ds) {
        int n = 0;
        try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
            while (c.hasNext()) {
                c.next();
                n++;
            }
        }
        return n;
    }
}
