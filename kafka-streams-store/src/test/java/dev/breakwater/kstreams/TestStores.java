package dev.breakwater.kstreams;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.EngineFixture;
import java.nio.file.Path;
import org.apache.kafka.streams.processor.TaskId;

/** Small engine configurations and store set-up for tests. */
final class TestStores {

    private TestStores() {
    }

    /** Small memory, 4 KiB pages, buffered I/O, ASYNC: flushes and merges happen in tests. */
    static StorageConfig small() {
        return EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 256L << 10)
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
