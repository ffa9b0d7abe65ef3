package dev.breakwater.kstreams;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * A {@link StateStoreContext} for driving a store the way a Kafka Streams task does: it keeps the
 * restore and commit callbacks a store registers, and sets the record metadata writes see.
 */
final class TestContext implements StateStoreContext {

    final String applicationId;
    final TaskId taskId;
    final Path stateDir;
    final Map<String, Object> configs = new HashMap<>();
    StateRestoreCallback restoreCallback;
    org.apache.kafka.streams.processor.CommitCallback commitCallback;
    private RecordMetadata meta;

    TestContext(Path baseStateDir, String applicationId, TaskId taskId) {
        this.applicationId = applicationId;
        this.taskId = taskId;
        this.stateDir = baseStateDir.resolve(applicationId).resolve(taskId.toString());
        stateDir.toFile().mkdirs();
        configs.put(StreamsConfig.STATE_DIR_CONFIG, baseStateDir.toString());
        configs.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    }

    /** The next writes come from {@code topic}-{@code partition} at {@code offset}. */
    void at(String topic, int partition, long offset) {
        meta = new RecordMetadata() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partition() {
                return partition;
            }

            @Override
            public long offset() {
                return offset;
            }
        };
    }

    @Override
    public String applicationId() {
        return applicationId;
    }

    @Override
    public TaskId taskId() {
        return taskId;
    }

    @Override
    public Optional<RecordMetadata> recordMetadata() {
        return Optional.ofNullable(meta);
    }

    @Override
    public Serde<?> keySerde() {
        return null;
    }

    @Override
    public Serde<?> valueSerde() {
        return null;
    }

    @Override
    public File stateDir() {
        return stateDir.toFile();
    }

    @Override
    public StreamsMetrics metrics() {
        return null;
    }

    @Override
    public void register(StateStore store, StateRestoreCallback callback) {
        this.restoreCallback = callback;
    }

    @Override
    public void register(StateStore store, StateRestoreCallback callback, org.apache.kafka.streams.processor.CommitCallback commit) {
        this.restoreCallback = callback;
        this.commitCallback = commit;
    }

    @Override
    public Map<String, Object> appConfigs() {
        return configs;
    }

    @Override
    public Map<String, Object> appConfigsWithPrefix(String prefix) {
        Map<String, Object> out = new HashMap<>();
        configs.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
