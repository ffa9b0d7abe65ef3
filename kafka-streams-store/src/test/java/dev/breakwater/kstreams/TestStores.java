package dev.breakwater.kstreams;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import java.nio.file.Path;
import org.apache.kafka.streams.processor.TaskId;

/** Small engine configurations and store set-up for tests. */
final class TestStores {

    private TestStores() {
    }

    /** Small memory, 4 KiB pages, buffered I/O, ASYNC: flushes and merges happen in tests. */
    static StorageConfig small() {
        return StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 24L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 8L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 256L << 10)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 256L << 10)
                .set(ConfigOptions.SIMULATED_CACHE, 4L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 4L << 20)
                .set(ConfigOptions.DIRECT_IO, false)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build();
    }

    /** A store named {@code name} of task {@code task} of application {@code app}, initialised. */
    static BreakwaterKeyValueStore open(Path stateDir, String app, TaskId task, String name) {
        return open(new TestContext(stateDir, app, task), name);
    }

    static BreakwaterKeyValueStore open(TestContext ctx, String name) {
        BreakwaterKeyValueStore s = (BreakwaterKeyValueStore) BreakwaterStores.persistentKeyValueStore(name, small()).get();
        s.init(ctx, s);
        return s;
    }
}
