package dev.breakwater.kstreams;

import dev.breakwater.common.config.StorageConfig;
import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * A {@link BreakwaterKeyValueStore} whose values are Kafka Streams' timestamped format (the record
 * timestamp in front of the value). The DSL's timestamped key-value stores then use it as it is,
 * instead of wrapping a plain store in an adapter that adds a dummy timestamp on reads; in Kafka
 * 3.9 that adapter answers an IQv2 {@code RangeQuery} only over RocksDB iterators, so DSL
 * stores that serve range queries should be timestamped. Changelog records are converted by Kafka
 * Streams before they reach the restore callback. Thread safety: as its superclass.
 */
final class BreakwaterTimestampedKeyValueStore extends BreakwaterKeyValueStore implements TimestampedBytesStore {

    BreakwaterTimestampedKeyValueStore(String name, StorageConfig config) {
        super(name, config);
    }
}
