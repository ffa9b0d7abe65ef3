package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigException;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.L0MergePolicy;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.MergePolicyKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import org.junit.jupiter.api.Test;

/** How the configuration shapes each tree's memory component. */
class DatasetDirectoryOptionsTest {

    private static final long MIB = 1L << 20;

    @Test
    void memoryLevelsGrowWithWriteMemoryOverM0() {
        assertEquals(2, DatasetDirectory.memoryLevels(64 * MIB, 8 * MIB), "M1 would target 80 MiB > 64 MiB: the minimum of two");
        assertEquals(2, DatasetDirectory.memoryLevels(320 * MIB, 32 * MIB), "M1 targets exactly write memory: still the last level after it");
        assertEquals(3, DatasetDirectory.memoryLevels(4096 * MIB, 32 * MIB), "M1 320 MiB, M2 3.2 GiB, M3 the rest");
        assertEquals(4, DatasetDirectory.memoryLevels(64 * 1024 * MIB, 32 * MIB));
    }

    @Test
    void partitionedTreesSealM0AtAnEighthOfWriteMemoryAtMostAndMonolithicOnesHaveNoLimit() {
        StorageConfig partitioned = StorageConfig.defaults().toBuilder().set(ConfigOptions.WRITE_MEMORY, 64 * MIB).build();
        assertEquals(8 * MIB, DatasetDirectory.activeComponentBytes(partitioned));
        assertEquals(8 * MIB, DatasetDirectory.treeOptions(partitioned).memoryTableBytes());
        assertEquals(2, DatasetDirectory.treeOptions(partitioned).memoryLevels());
        StorageConfig dynamic = partitioned.toBuilder().set(ConfigOptions.WRITE_MEMORY_SCHEME, WriteMemoryScheme.DYNAMIC).build();
        assertEquals(0, DatasetDirectory.treeOptions(dynamic).memoryLevels());
        assertTrue(DatasetDirectory.treeOptions(dynamic).memoryTableBytes() > 1000 * 64 * MIB,
                "a monolithic component is bounded by the pool and the policy, not by the write memory at open");
    }

    @Test
    void memoryComponentKindAndParametersComeFromTheConfigurationAndAnOversizedVectorReserveIsRefused() {
        StorageConfig hash = StorageConfig.defaults().toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.HASH_LINKED_LIST)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX, 4).set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 99).build();
        assertEquals(new MemoryComponentSpec(MemoryComponentKind.HASH_LINKED_LIST, 4, 99, 0), DatasetDirectory.memorySpec(hash));
        assertEquals(MemoryComponentSpec.SKIP_LIST.kind(), DatasetDirectory.memorySpec(StorageConfig.defaults()).kind());
        StorageConfig vector = StorageConfig.defaults().toBuilder().set(ConfigOptions.WRITE_MEMORY, 64 * MIB)
                .set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.VECTOR)
                .set(ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE, 1 << 20).build(); // 8 MiB of index in an 8 MiB M0
        ConfigException e = assertThrows(ConfigException.class, () -> DatasetDirectory.memorySpec(vector));
        assertTrue(e.getMessage().contains("memory-component-vector-reserve"), e.getMessage());
        assertEquals(1 << 16, DatasetDirectory.memorySpec(vector.toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE, 1 << 16).build()).vectorReserve());
        StorageConfig bigTable = hash.toBuilder().set(ConfigOptions.WRITE_MEMORY, 64 * MIB)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 1 << 19).build(); // 4 MiB of bucket array in an 8 MiB M0
        e = assertThrows(ConfigException.class, () -> DatasetDirectory.memorySpec(bigTable));
        assertTrue(e.getMessage().contains("memory-component-hash-buckets") && e.getMessage().contains("bucket array"), e.getMessage());
        assertEquals(1 << 18, DatasetDirectory.memorySpec(bigTable.toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 1 << 18).build()).hashBuckets());
        assertEquals(1 << 19, DatasetDirectory.memorySpec(bigTable.toBuilder()
                .set(ConfigOptions.WRITE_MEMORY_SCHEME, dev.breakwater.common.config.WriteMemoryScheme.DYNAMIC).build()).hashBuckets(),
                "a monolithic component has no M0 to fill");
    }

    @Test
    void theL0MergePolicyChoosesThePickerAndTheL0Trigger() {
        StorageConfig grouped = StorageConfig.defaults();
        assertEquals(LsmTreeOptions.Policy.LEVELING, DatasetDirectory.treeOptions(grouped).policy());
        assertEquals(4, DatasetDirectory.treeOptions(grouped).l0MergeGroups(), "min(4, slowdown 8)");
        StorageConfig batched = grouped.toBuilder().set(ConfigOptions.L0_MERGE_POLICY, L0MergePolicy.BATCHED)
                .set(ConfigOptions.L0_SLOWDOWN_GROUPS, 14).set(ConfigOptions.L0_STOP_GROUPS, 20).build();
        assertEquals(LsmTreeOptions.Policy.LEVELING_BATCHED_L0, DatasetDirectory.treeOptions(batched).policy());
        assertEquals(12, DatasetDirectory.treeOptions(batched).l0MergeGroups(), "slowdown 14 - 2");
        StorageConfig tiering = batched.toBuilder().set(ConfigOptions.MERGE_POLICY, MergePolicyKind.TIERING).build();
        assertEquals(LsmTreeOptions.Policy.TIERING, DatasetDirectory.treeOptions(tiering).policy(), "the L0 policy is a leveling variant");
    }
}
