package dev.breakwater.kstreams;

import dev.breakwater.common.config.StorageConfig;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies {@link BreakwaterKeyValueStore}s: one per task of the operator that uses it. Made by
 * {@link BreakwaterStores}. Immutable and thread-safe.
 */
public final class BreakwaterKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {

    private final String name;
    private final StorageConfig config;
    private final boolean timestamped;

    BreakwaterKeyValueBytesStoreSupplier(String name, StorageConfig config, boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.config = config;
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return timestamped ? new BreakwaterTimestampedKeyValueStore(name, config) : new BreakwaterKeyValueStore(name, config);
    }

    /** The metrics scope of the store's Kafka Streams metrics ({@code breakwater}). */
    @Override
    public String metricsScope() {
        return "breakwater";
    }

    /** Whether its stores hold Kafka Streams' timestamped values ({@code TimestampedBytesStore}). */
    public boolean timestamped() {
        return timestamped;
    }

    /** The engine configuration given, or null if the store resolves it at {@code init}. */
    public StorageConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return "BreakwaterKeyValueBytesStoreSupplier[" + name + "]";
    }
}
