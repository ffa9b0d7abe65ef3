package dev.breakwater.tpcc;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;

/**
 * The engine configuration of a run: the embedded defaults, changed only by what the command line
 * sets. Keeps the configuration's relations valid: write memory below total memory (a quarter of it
 * when only the total is given and the default write memory would not fit) and the memory component
 * no larger than half the write memory.
 *
 * <p>Thread safety: stateless.
 */
final class EngineConfigs {

    private EngineConfigs() {
    }

    /** @param totalMemory bytes or null; @param writeMemory bytes or null; @param durability null for the default */
    static StorageConfig of(Long totalMemory, Long writeMemory, Durability durability) {
        StorageConfig.Builder b = StorageConfig.defaults().toBuilder();
        StorageConfig d = StorageConfig.defaults();
        long total = totalMemory != null ? totalMemory : d.get(ConfigOptions.TOTAL_MEMORY);
        long write = writeMemory != null ? writeMemory : d.get(ConfigOptions.WRITE_MEMORY);
        if (writeMemory == null && write >= total) {
            write = total / 4;
        }
        if (totalMemory != null) {
            b.set(ConfigOptions.TOTAL_MEMORY, total);
        }
        if (write != d.get(ConfigOptions.WRITE_MEMORY)) {
            b.set(ConfigOptions.WRITE_MEMORY, write);
        }
        if (d.get(ConfigOptions.MEMORY_COMPONENT_SIZE) > write / 2) {
            b.set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.max(d.get(ConfigOptions.PAGE_SIZE) * 4, write / 2));
        }
        if (durability != null) {
            b.set(ConfigOptions.DURABILITY, durability);
        }
        return b.build();
    }
}
