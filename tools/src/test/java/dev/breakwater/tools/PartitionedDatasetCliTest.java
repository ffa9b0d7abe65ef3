package dev.breakwater.tools;

import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inspection commands on a hash-partitioned dataset: {@code info} lists every partition's
 * trees, {@code verify} passes, and {@code dump} needs {@code --partition}; the partitions together
 * hold every record once.
 */
class PartitionedDatasetCliTest {

    @TempDir
    Path dir;

    @Test
    void infoVerifyAndDumpCoverEveryPartition() {
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 24L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 8L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 1L << 20)
                .set(ConfigOptions.DIRECT_IO, false)
                .build();
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset items = engine.createDataset(DatasetSpec.builder("items").field("id", INT64).field("name", STRING)
                    .primaryKey("id").secondaryIndex("by_name", "name").partitions(3).build());
            for (long id = 0; id < 300; id++) {
                items.upsert(Tuple.of(id, "n" + id));
            }
            engine.flushAndAwaitMerges();
        }
        BreakwaterCliTest.Run info = BreakwaterCliTest.run("info", dir.toString());
        assertEquals(0, info.exit(), info.err());
        assertEquals(3, info.out().split("index primary", -1).length - 1, info.out());
        BreakwaterCliTest.Run verify = BreakwaterCliTest.run("verify", dir.toString());
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        BreakwaterCliTest.Run refused = BreakwaterCliTest.run("dump", dir.toString(), "--dataset", "items");
        assertNotEquals(0, refused.exit());
        assertTrue(refused.err().contains("3 hash partitions") && refused.err().contains("--partition"), refused.err());
        Set<String> seen = new HashSet<>();
        for (int p = 0; p < 3; p++) {
            BreakwaterCliTest.Run dump = BreakwaterCliTest.run("dump", dir.toString(), "--dataset", "items", "--partition",
                    Integer.toString(p));
            assertEquals(0, dump.exit(), dump.err());
            assertTrue(dump.lines().size() > 50, "partition " + p + " holds a share: " + dump.lines().size());
            for (String line : dump.lines()) {
                assertTrue(seen.add(line), "a record in two partitions: " + line);
            }
        }
        assertEquals(300, seen.size());
    }
}
