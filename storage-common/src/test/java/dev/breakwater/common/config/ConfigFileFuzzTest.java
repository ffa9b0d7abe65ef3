package dev.breakwater.common.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes configuration loading ({@link StorageConfig#load}) from JSON and YAML files: any file
 * must give a configuration or a {@link ConfigException}; nothing else, no error, no hang.
 * Regression inputs: {@code src/test/resources/.../ConfigFileFuzzTestInputs/}; long runs:
 * docs/testing.md.
 */
class ConfigFileFuzzTest {

    private static final Path DIR = createDir();
    private static final Path JSON = DIR.resolve("fuzz.json");
    private static final Path YAML = DIR.resolve("fuzz.yaml");

    private static Path createDir() {
        try {
            return Files.createTempDirectory("config-fuzz");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void removeFiles() throws IOException {
        Files.deleteIfExists(JSON);
        Files.deleteIfExists(YAML);
        Files.deleteIfExists(DIR);
    }

    @FuzzTest(maxDuration = "2m")
    void jsonFile(byte[] data) throws IOException {
        load(JSON, data);
    }

    @FuzzTest(maxDuration = "2m")
    void yamlFile(byte[] data) throws IOException {
        load(YAML, data);
    }

    private static void load(Path file, byte[] data) throws IOException {
        Files.write(file, data);
        try {
            StorageConfig.load(file);
        } catch (ConfigException expected) {
            // a clear refusal
        }
    }

    /** Regenerates the seed inputs when run with {@code -Dbreakwater.fuzz.writeSeeds=true}. */
    @Test
    void writeSeeds() throws IOException {
        if (!Boolean.getBoolean("breakwater.fuzz.writeSeeds")) {
            return;
        }
        Path dir = Path.of("src/test/resources/dev/breakwater/common/config/ConfigFileFuzzTestInputs");
        Files.createDirectories(dir.resolve("jsonFile"));
        Files.createDirectories(dir.resolve("yamlFile"));
        Files.writeString(dir.resolve("jsonFile/valid"), "{\n  \"total-memory\": \"64m\",\n  \"write-memory\": \"16m\",\n"
                + "  \"page-size\": 4096,\n  \"durability\": \"ASYNC\",\n  \"direct-io\": false\n}\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("yamlFile/valid"), "total-memory: 64m\nwrite-memory: 16m\npage-size: 4096\n"
                + "durability: ASYNC\ndirect-io: false\n", StandardCharsets.UTF_8);
    }
}
