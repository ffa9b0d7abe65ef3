package dev.breakwater.ops;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.net.InetSocketAddress;

/** Small engines for the operability tests. */
final class OpsFixture {

    private OpsFixture() {
    }

    /** Small memory (flushes and merges happen), ASYNC commits, no direct I/O; no endpoint, JMX on. */
    static StorageConfig.Builder small() {
        return StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 24L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 8L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 1L << 20)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 256L << 10)
                .set(ConfigOptions.SIMULATED_CACHE, 4L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 4L << 20)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.DIRECT_IO, false);
    }

    /** {@link #small()} with the endpoint on a free loopback port. */
    static StorageConfig.Builder withHttp(long deadlineMillis) {
        return small().set(ConfigOptions.HTTP_ENABLED, true).set(ConfigOptions.HTTP_PORT, 0)
                .set(ConfigOptions.HTTP_IDLE_TIMEOUT, deadlineMillis);
    }

    static InetSocketAddress address(StorageEngine engine) {
        return OpsExtension.httpAddress(engine).orElseThrow(() -> new AssertionError("no stats endpoint running"));
    }

    /** customer(w, d, id, last, balance) with an index by (w, d, last). */
    static Dataset customers(StorageEngine engine) {
        return engine.createDataset(DatasetSpec.builder("customer")
                .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING).field("balance", INT64)
                .primaryKey("w", "d", "id")
                .secondaryIndex("by_last", "w", "d", "last")
                .build());
    }

    static void insert(Dataset customers, int from, int to) {
        for (int id = from; id < to; id++) {
            customers.upsert(Tuple.of(1, id % 10, id, "NAME" + (id % 97), (long) id));
        }
    }
}
