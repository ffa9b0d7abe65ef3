package dev.breakwater.common.config;

import static dev.breakwater.common.config.ConfigOptions.BLOOM_BITS_PER_KEY;
import static dev.breakwater.common.config.ConfigOptions.DIRECT_IO;
import static dev.breakwater.common.config.ConfigOptions.DURABILITY;
import static dev.breakwater.common.config.ConfigOptions.FLUSH_THRESHOLD;
import static dev.breakwater.common.config.ConfigOptions.LEAF_COMPRESSION;
import static dev.breakwater.common.config.ConfigOptions.MERGE_POLICY;
import static dev.breakwater.common.config.ConfigOptions.PAGE_SIZE;
import static dev.breakwater.common.config.ConfigOptions.SIZE_RATIO;
import static dev.breakwater.common.config.ConfigOptions.TOTAL_MEMORY;
import static dev.breakwater.common.config.ConfigOptions.WRITE_MEMORY;
import static dev.breakwater.common.config.Sizes.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageConfigTest {

    @TempDir
    Path dir;

    @Test
    void defaultsAreTheDeclaredDefaultsAndValidate() {
        StorageConfig d = StorageConfig.defaults();
        for (Option<?> o : ConfigOptions.ALL) {
            assertEquals(o.defaultValue(), d.get(o), o.name());
        }
        assertEquals(16384L, d.get(PAGE_SIZE));
        assertEquals(256 * MIB, d.get(TOTAL_MEMORY));
        assertEquals(64 * MIB, d.get(WRITE_MEMORY));
        assertEquals(192 * MIB, d.bufferCacheSize());
        assertEquals(16 * MIB, d.simulatedCacheSize(), "the ghost is a sixteenth of total memory by default");
        assertEquals(true, d.get(DIRECT_IO));
        assertEquals(10.0, d.get(BLOOM_BITS_PER_KEY));
        assertEquals(0.95, d.get(FLUSH_THRESHOLD));
        assertEquals(Durability.SYNC, d.get(DURABILITY));
        assertEquals(MergePolicyKind.LEVELING, d.get(MERGE_POLICY));
        assertEquals(d, StorageConfig.defaults().toBuilder().build());
        assertEquals(LogRecoveryMode.STRICT, d.get(ConfigOptions.LOG_RECOVERY));
        // Every option constant is registered, once (counted by reflection, so adding one needs no edit here).
        long declared = java.util.Arrays.stream(ConfigOptions.class.getFields())
                .filter(f -> f.getType() == Option.class).count();
        assertEquals(declared, ConfigOptions.ALL.size());
        assertEquals(L0MergePolicy.GROUPS, d.get(ConfigOptions.L0_MERGE_POLICY));
        assertEquals(true, d.get(ConfigOptions.TUNER));
    }

    @Test
    void builderDoesNotChangeTheOriginal() {
        StorageConfig d = StorageConfig.defaults();
        StorageConfig c = d.toBuilder().set(SIZE_RATIO, 4).set("leaf-compression", "lz4").build();
        assertEquals(4, c.get(SIZE_RATIO));
        assertEquals(LeafCompression.LZ4, c.get(LEAF_COMPRESSION));
        assertEquals(10, d.get(SIZE_RATIO));
        assertNotEquals(d, c);
    }

    /** {@code --engine-option name=value}: text read by the option's type, as a file would hold it. */
    @Test
    void commandLineTextIsReadByTheOptionsType() {
        StorageConfig c = StorageConfig.defaults().toBuilder().setText("tuner", "false").setText("tuner-period", "5000")
                .setText("tuner-write-weight", "2").setText("write-memory", "48MB").setText("leaf-compression", "LZ4")
                .setText("size-ratio", " 4 ").build();
        assertEquals(false, c.get(ConfigOptions.TUNER));
        assertEquals(5000L, c.get(ConfigOptions.TUNER_PERIOD));
        assertEquals(2.0, c.get(ConfigOptions.TUNER_WRITE_WEIGHT));
        assertEquals(48 * MIB, c.get(WRITE_MEMORY));
        assertEquals(LeafCompression.LZ4, c.get(LEAF_COMPRESSION));
        assertEquals(4, c.get(SIZE_RATIO));
        // a string option keeps a value that reads as a number
        assertEquals("1234", StorageConfig.defaults().toBuilder().setText("http-bind", "1234").build().get(ConfigOptions.HTTP_BIND));
        ConfigException e = assertThrows(ConfigException.class,
                () -> StorageConfig.defaults().toBuilder().setText("tuner", "maybe"));
        assertTrue(e.getMessage().contains("'tuner'") && e.getMessage().contains("true or false"), e.getMessage());
    }

    @Test
    void jsonRoundTrip() throws IOException {
        StorageConfig c = nonDefault();
        Path file = dir.resolve("c.json");
        c.writeJson(file);
        assertEquals(c, StorageConfig.load(file));
        assertEquals(c, StorageConfig.fromMap(c.toMap()));
    }

    @Test
    void yamlRoundTrip() throws IOException {
        StorageConfig c = nonDefault();
        Path file = dir.resolve("c.yaml");
        new YAMLMapper().writeValue(file.toFile(), c.toMap());
        assertEquals(c, StorageConfig.load(file));
    }

    @Test
    void yamlWithSizeStringsAndPartialKeys() throws IOException {
        Path file = dir.resolve("c.yml");
        Files.writeString(file, "# memory split\n"
                + "total-memory: 1g\n"
                + "write-memory: \"256MB\"\n"
                + "page-size: 64 KiB\n"
                + "flush-threshold: 0.9\n"
                + "bloom-bits-per-key: 5\n"
                + "durability: async\n"
                + "direct-io: false\n");
        StorageConfig c = StorageConfig.load(file);
        assertEquals(1L << 30, c.get(TOTAL_MEMORY));
        assertEquals(256 * MIB, c.get(WRITE_MEMORY));
        assertEquals(768 * MIB, c.bufferCacheSize());
        assertEquals(64 * MIB, c.simulatedCacheSize());
        assertEquals(8 * MIB, c.toBuilder().set(ConfigOptions.SIMULATED_CACHE, 8 * MIB).build().simulatedCacheSize(),
                "simulated-cache caps the ghost");
        assertEquals(0, c.toBuilder().set(ConfigOptions.SIMULATED_CACHE, 0L).build().simulatedCacheSize(), "0 disables it");
        assertEquals(65536L, c.get(PAGE_SIZE));
        assertEquals(0.9, c.get(FLUSH_THRESHOLD));
        assertEquals(5.0, c.get(BLOOM_BITS_PER_KEY));
        assertEquals(Durability.ASYNC, c.get(DURABILITY));
        assertEquals(false, c.get(DIRECT_IO));
        assertEquals(10, c.get(SIZE_RATIO), "absent options keep their defaults");
    }

    @Test
    void jsonWithByteCounts() throws IOException {
        Path file = dir.resolve("c.json");
        Files.writeString(file, "{\"page-size\": 4096, \"write-memory\": 33554432, \"merge-policy\": \"TIERING\"}");
        StorageConfig c = StorageConfig.load(file);
        assertEquals(4096L, c.get(PAGE_SIZE));
        assertEquals(32 * MIB, c.get(WRITE_MEMORY));
        assertEquals(MergePolicyKind.TIERING, c.get(MERGE_POLICY));
    }

    @Test
    void emptyFilesGiveDefaults() throws IOException {
        Path yaml = Files.writeString(dir.resolve("empty.yaml"), "");
        Path json = Files.writeString(dir.resolve("empty.json"), "{}");
        assertEquals(StorageConfig.defaults(), StorageConfig.load(yaml));
        assertEquals(StorageConfig.defaults(), StorageConfig.load(json));
    }

    @Test
    void toMapHasEveryOptionAsPlainValues() {
        Map<String, Object> m = StorageConfig.defaults().toMap();
        assertEquals(ConfigOptions.ALL.size(), m.size());
        assertEquals(16384L, m.get("page-size"));
        assertEquals("NONE", m.get("leaf-compression"));
        assertEquals(true, m.get("direct-io"));
    }

    @Test
    void setterChecksTheRangeImmediately() {
        ConfigException e = assertThrows(ConfigException.class, () -> StorageConfig.builder().set(SIZE_RATIO, 1));
        assertEquals("size-ratio", e.option());
    }

    /** A configuration that differs from the defaults in every option. */
    static StorageConfig nonDefault() {
        return StorageConfig.builder()
                .set(PAGE_SIZE, 8192L)
                .set(TOTAL_MEMORY, 3L << 29)
                .set(WRITE_MEMORY, 100 * MIB + 7)
                .set(ConfigOptions.SIMULATED_CACHE, 0L)
                .set(ConfigOptions.SIMULATED_CACHE_FRACTION, 0.25)
                .set(DIRECT_IO, false)
                .set(ConfigOptions.BUFFER_CACHE_PIN_WAIT, 250L)
                .set(BLOOM_BITS_PER_KEY, 7.5)
                .set(SIZE_RATIO, 4)
                .set(ConfigOptions.RUNS_PER_LEVEL, 2)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 8 * MIB)
                .set(MERGE_POLICY, MergePolicyKind.TIERING)
                .set(ConfigOptions.GARNERING_SCALE, 0.5)
                .set(ConfigOptions.BLOOM_ALLOCATION, BloomAllocationKind.MONKEY)
                .set(LEAF_COMPRESSION, LeafCompression.LZ4)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 16 * MIB)
                .set(FLUSH_THRESHOLD, 0.8)
                .set(ConfigOptions.WRITE_MEMORY_SCHEME, WriteMemoryScheme.STATIC)
                .set(ConfigOptions.FLUSH_POLICY, FlushPolicyKind.MIN_LSN)
                .set(ConfigOptions.STATIC_ACTIVE_DATASETS, 3)
                .set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.HASH_LINKED_LIST)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX, 4)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 512)
                .set(ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE, 100)
                .set(ConfigOptions.L0_SLOWDOWN_GROUPS, 4)
                .set(ConfigOptions.L0_STOP_GROUPS, 6)
                .set(ConfigOptions.L0_MERGE_POLICY, L0MergePolicy.BATCHED)
                .set(ConfigOptions.L0_MERGE_TABLES, 16)
                .set(ConfigOptions.FLUSH_THREADS, 2)
                .set(ConfigOptions.MERGE_THREADS, 3)
                .set(ConfigOptions.MEMORY_MERGE_THREADS, 2)
                .set(ConfigOptions.RECOVERY_THREADS, 3)
                .set(ConfigOptions.LOG_TRIM, true)
                .set(ConfigOptions.LOG_COMPRESSION, true)
                .set(ConfigOptions.LOG_TRIM_START, 3.0)
                .set(ConfigOptions.LOG_TRIM_STOP, 2.0)
                .set(ConfigOptions.LOG_TRIM_MIN_DEAD, 0.25)
                .set(DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.ASYNC_SYNC_INTERVAL, 5L)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 16 * MIB)
                .set(ConfigOptions.MAX_LOG_SIZE, 512 * MIB)
                .set(ConfigOptions.LOG_RECOVERY, LogRecoveryMode.SALVAGE)
                .set(ConfigOptions.HTTP_ENABLED, true)
                .set(ConfigOptions.HTTP_PORT, 9099)
                .set(ConfigOptions.HTTP_BIND, "0.0.0.0")
                .set(ConfigOptions.HTTP_IDLE_TIMEOUT, 5_000L)
                .set(ConfigOptions.JMX_ENABLED, false)
                .set(ConfigOptions.TUNER, false)
                .set(ConfigOptions.TUNER_FLUSH_CAUSE_SCALING, true)
                .set(ConfigOptions.TUNER_QUERY_LEVELS, false)
                .set(ConfigOptions.TUNER_WRITE_WEIGHT, 2.0)
                .set(ConfigOptions.TUNER_READ_WEIGHT, 0.5)
                .set(ConfigOptions.TUNER_SAMPLES, 5)
                .set(ConfigOptions.TUNER_FALLBACK_STEP, 0.02)
                .set(ConfigOptions.TUNER_MAX_DECREASE, 0.2)
                .set(ConfigOptions.TUNER_CLIMB_SAMPLES, 3)
                .set(ConfigOptions.TUNER_MAX_STEP, 0.3)
                .set(ConfigOptions.TUNER_MIN_STEP, 0.01)
                .set(ConfigOptions.TUNER_MIN_GAIN, 0.002)
                .set(ConfigOptions.TUNER_PERIOD, 30_000L)
                .set(ConfigOptions.LEVEL_SHARE_TIME_CONSTANT, 2_000L)
                .set(ConfigOptions.TUNER_WRITE_MEMORY_FLOOR, 8 * MIB)
                .set(ConfigOptions.TUNER_CACHE_FLOOR_PAGES, 512)
                .set(ConfigOptions.TUNER_SEED, 200 * MIB)
                .set(ConfigOptions.TUNER_HISTORY, 50)
                .set(ConfigOptions.MAX_TRANSACTION_SIZE, 4 * MIB)
                .build();
    }

    @Test
    void nonDefaultDiffersEverywhere() {
        StorageConfig c = nonDefault();
        for (Option<?> o : ConfigOptions.ALL) {
            assertNotEquals(o.defaultValue(), c.get(o), o.name() + " (keep the round-trip tests meaningful)");
        }
    }
}
