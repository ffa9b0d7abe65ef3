package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;

/**
 * Small configurations and schemas for engine tests; public (and in storage-txn's test-jar) so the
 * tests of modules above storage-txn start from the same small engine.
 */
public final class EngineFixture {

    private EngineFixture() {
    }

    /** Small memory so flushes and merges happen in tests; 4 KiB pages. */
    public static StorageConfig smallConfig() {
        return StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 24L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 8L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 1L << 20)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 256L << 10)
                .set(ConfigOptions.SIMULATED_CACHE, 4L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 4L << 20)
                .set(ConfigOptions.DIRECT_IO, false)
                .build();
    }

    /** customer(w, d, id, last, balance) with an index by (w, d, last). */
    static DatasetSpec customers() {
        return DatasetSpec.builder("customer")
                .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING).field("balance", INT64)
                .primaryKey("w", "d", "id")
                .secondaryIndex("by_last", "w", "d", "last")
                .build();
    }

    static Tuple customer(int w, int d, int id, String last, long balance) {
        return Tuple.of(w, d, id, last, balance);
    }
}
