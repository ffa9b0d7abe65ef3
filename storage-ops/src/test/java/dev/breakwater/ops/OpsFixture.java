package dev.breakwater.ops;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.EngineFixture;
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
        return EngineFixture.smallConfig().toBuilder().set(ConfigOptions.DURABILITY, Durability.ASYNC);
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
