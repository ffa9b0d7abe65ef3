package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A partitioned tree's active component M0 follows write memory as it is resized (issue 12): it is
 * what a tree opened at the new size would have (memory-component-size, at most write memory / 8),
 * never less than twice a hash kind's bucket array, and a dataset created after a resize starts from
 * the size in effect. Records written across the resizes are all read back.
 */
class ActiveComponentFollowsWriteMemoryTest {

    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    /** 16,384 buckets of 8 bytes: 128 KiB of bucket array. */
    private static final int BUCKETS = 16_384;

    @Test
    void m0FollowsEveryResizeAndANewDatasetStartsFromTheSizeInEffect() {
        StorageConfig c = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 48 * MIB)
                .set(ConfigOptions.WRITE_MEMORY, 8 * MIB)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 8 * MIB) // at most write memory at open; an eighth of it rules below 64 MiB
                .set(ConfigOptions.WRITE_MEMORY_SCHEME, WriteMemoryScheme.PARTITIONED)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.DIRECT_IO, false)
                .build();
        try (StorageEngine engine = StorageEngine.open(new MemFileSystem(), Path.of("/m0"), c)) {
            Dataset kv = engine.createDataset(spec("kv").build());
            Dataset hashed = engine.createDataset(spec("hashed")
                    .memoryComponent(MemoryComponentOverride.hash(MemoryComponentKind.HASH_SKIP_LIST, 8, BUCKETS)).build());
            assertM0(engine, "kv", MIB, "opened at 8 MiB of write memory");
            assertM0(engine, "hashed", MIB, "opened at 8 MiB of write memory");
            write(kv, hashed, 0);

            engine.resizeWriteMemory(32 * MIB, 1_000);
            assertM0(engine, "kv", 4 * MIB, "grown to 32 MiB");
            assertM0(engine, "hashed", 4 * MIB, "grown to 32 MiB");
            write(kv, hashed, 1);

            engine.resizeWriteMemory(2 * MIB, 5_000);
            assertM0(engine, "kv", 256 * KIB, "shrunk to 2 MiB");
            assertM0(engine, "hashed", 2 * 128 * KIB + WriteMemoryPoolOptions.DEFAULT_PAGE_SIZE,
                    "shrunk to 2 MiB: twice the bucket array and a write-memory page, not 256 KiB");
            write(kv, hashed, 2);

            Dataset late = engine.createDataset(spec("late").build());
            assertM0(engine, "late", 256 * KIB, "created at 2 MiB of write memory");
            write(late, late, 3);

            for (int round = 0; round < 4; round++) {
                Dataset d = round == 3 ? late : kv;
                for (int i = 0; i < 2_000; i++) {
                    assertEquals("v" + round + "-" + i, d.get(Key.of(round * 10_000 + i)).getString(1), "record " + i + " of round " + round);
                    if (round < 3) {
                        assertEquals("v" + round + "-" + i, hashed.get(Key.of(round * 10_000 + i)).getString(1), "hashed record " + i);
                    }
                }
            }
        }
    }

    private static DatasetSpec.Builder spec(String name) {
        return DatasetSpec.builder(name).field("id", INT32).field("v", STRING).primaryKey("id");
    }

    private static void write(Dataset a, Dataset b, int round) {
        for (int i = 0; i < 2_000; i++) {
            Tuple t = Tuple.of(round * 10_000 + i, "v" + round + "-" + i);
            a.upsert(t);
            b.upsert(t);
        }
    }

    private static void assertM0(StorageEngine engine, String dataset, long expected, String when) {
        LsmTree tree = engine.trees.values().stream().filter(t -> t.name().equals(dataset + "." + DatasetSpec.PRIMARY)).findFirst()
                .orElseThrow();
        assertEquals(expected, tree.activeComponentBytes(), dataset + "'s M0, " + when);
    }
}
