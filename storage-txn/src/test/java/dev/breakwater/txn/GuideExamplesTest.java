package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of docs/guide.md (sections 3 and 4), as written there, so the guide stays true. */
class GuideExamplesTest {

    @TempDir
    Path tmp;

    @Test
    void theTransferExampleMovesTenAndSurvivesAReopen() {
        try (StorageEngine engine = StorageEngine.open(tmp.resolve("data"), EngineFixture.smallConfig())) {
            Dataset accounts = engine.createDataset(DatasetSpec.builder("accounts")
                    .field("id", INT32).field("balance", INT64).primaryKey("id").build());
            accounts.upsert(Tuple.of(1, 100L));
            accounts.upsert(Tuple.of(2, 0L));
            engine.inTransaction(tx -> {                                   // move 10 from account 1 to account 2
                Tuple from = tx.get(accounts, Key.of(1));
                Tuple to = tx.get(accounts, Key.of(2));
                tx.upsert(accounts, from.with(1, from.getLong(1) - 10));
                tx.upsert(accounts, to.with(1, to.getLong(1) + 10));
            });
        }
        try (StorageEngine engine = StorageEngine.open(tmp.resolve("data"), EngineFixture.smallConfig())) {
            Dataset accounts = engine.dataset("accounts");
            assertEquals(Tuple.of(1, 90L), accounts.get(Key.of(1)));
            assertEquals(Tuple.of(2, 10L), accounts.get(Key.of(2)));
        }
    }

    @Test
    void theConfigurationExamplesBuildAndLoad() throws IOException {
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, 2L << 30)
                .set(ConfigOptions.WRITE_MEMORY, 512L << 20)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build();
        assertEquals((2L << 30) - (512L << 20), config.bufferCacheSize());
        Path file = tmp.resolve("breakwater.yaml");
        Files.writeString(file, "total-memory: 2g\n");
        StorageConfig fromFile = StorageConfig.load(file);
        assertEquals(2L << 30, fromFile.get(ConfigOptions.TOTAL_MEMORY));
    }
}
