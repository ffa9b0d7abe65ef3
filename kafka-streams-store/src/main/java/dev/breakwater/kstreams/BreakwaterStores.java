package dev.breakwater.kstreams;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import java.util.Objects;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Factory for Breakwater state stores, the counterpart of Kafka's {@code Stores}:
 *
 * <pre>{@code
 * builder.stream("words", ...).groupBy(...)
 *        .count(Materialized.as(BreakwaterStores.persistentKeyValueStore("counts")));
 * }</pre>
 *
 * Every Breakwater store of an application instance shares one engine in
 * {@code <state.dir>/<application.id>/breakwater} (or {@value #ENGINE_DIR}), configured by, in order: the
 * {@link StorageConfig} given here; the file named by the application config
 * {@value #CONFIG_FILE}; {@link #defaultConfig()}. All stores of an instance must end up with the same
 * configuration (the engine is opened once).
 *
 * <p>Thread safety: stateless.
 */
public final class BreakwaterStores {

    /**
     * Application (StreamsConfig) property: path of a JSON or YAML Breakwater configuration
     * (docs/configuration.md) for the instance's engine, used by stores made without a StorageConfig.
     */
    public static final String CONFIG_FILE = "breakwater.config.file";

    /**
     * Application (StreamsConfig) property: the directory of the shared engine, instead of
     * {@code <state.dir>/<application.id>/breakwater}. Applications in one JVM that name the same
     * directory share one engine and one memory budget.
     */
    public static final String ENGINE_DIR = "breakwater.engine.dir";

    /**
     * Application (StreamsConfig) property: hash partitions of the dataset of each store made from
     * now on (an integer, 1 to 256; default 1). A store's existing dataset keeps the count it was
     * created with. Kafka Streams' own partitions already split a store's keys across tasks, so this
     * pays only for a task whose one store is large: its flushes and merges then run per partition
     * (docs/kafka-streams.md).
     */
    public static final String STORE_PARTITIONS = "breakwater.store.partitions";

    private BreakwaterStores() {
    }

    /** A persistent key-value store named {@code name}, configured as the class comment says. */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
        return new BreakwaterKeyValueBytesStoreSupplier(Objects.requireNonNull(name, "name cannot be null"), null, false);
    }

    /**
     * A persistent key-value store for Kafka Streams' timestamped values, like
     * {@code Stores.persistentTimestampedKeyValueStore}: what the DSL's aggregations use without an
     * adapter, and what serves IQv2 {@code RangeQuery}s through them.
     */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
        return new BreakwaterKeyValueBytesStoreSupplier(Objects.requireNonNull(name, "name cannot be null"), null, true);
    }

    /** {@link #persistentTimestampedKeyValueStore(String)} with the engine configuration {@code config}. */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name, StorageConfig config) {
        return new BreakwaterKeyValueBytesStoreSupplier(Objects.requireNonNull(name, "name cannot be null"),
                Objects.requireNonNull(config, "config cannot be null"), true);
    }

    /**
     * A persistent key-value store named {@code name} whose engine uses {@code config} (total memory,
     * write memory, durability, ...). Every Breakwater store of the instance must use the same one.
     */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name, StorageConfig config) {
        return new BreakwaterKeyValueBytesStoreSupplier(Objects.requireNonNull(name, "name cannot be null"),
                Objects.requireNonNull(config, "config cannot be null"), false);
    }

    /**
     * Breakwater's defaults with {@code durability: ASYNC}: the changelog topic, not the store, is
     * the source of truth, and the store's {@code flush()} syncs the log before Kafka Streams
     * checkpoints changelog offsets, so an fsync per write would buy nothing (docs/kafka-streams.md).
     */
    public static StorageConfig defaultConfig() {
        return StorageConfig.defaults().toBuilder().set(ConfigOptions.DURABILITY, Durability.ASYNC).build();
    }
}
