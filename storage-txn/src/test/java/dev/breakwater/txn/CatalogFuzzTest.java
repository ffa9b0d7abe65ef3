package dev.breakwater.txn;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the engine's JSON files: {@code catalog.json} read by {@link Catalog#load} and
 * {@code checkpoint.json} read by {@link CheckpointFile#read}. Damage must give an
 * {@link IOException} naming the file; nothing else, no error, no hang. Regression inputs:
 * {@code src/test/resources/.../CatalogFuzzTestInputs/}; long runs: docs/testing.md.
 */
class CatalogFuzzTest {

    private static final Path DIR = Path.of("/db");

    @FuzzTest(maxDuration = "2m")
    void catalog(byte[] data) throws IOException {
        MemFileSystem fs = new MemFileSystem();
        fs.createDirectories(DIR);
        try (StorageFile f = fs.open(DIR.resolve(Catalog.FILE), OpenOption.CREATE, OpenOption.WRITE)) {
            f.write(0, ByteBuffer.wrap(data));
        }
        try {
            Catalog.load(fs, DIR);
        } catch (IOException expected) {
            // damaged or not a catalog
        }
    }

    @FuzzTest(maxDuration = "2m")
    void checkpoint(byte[] data) throws IOException {
        MemFileSystem fs = new MemFileSystem();
        fs.createDirectories(DIR);
        try (StorageFile f = fs.open(DIR.resolve(CheckpointFile.NAME), OpenOption.CREATE, OpenOption.WRITE)) {
            f.write(0, ByteBuffer.wrap(data));
        }
        try {
            CheckpointFile.read(fs, DIR);
        } catch (IOException expected) {
            // damaged (CheckpointCorruptedException)
        }
    }

    /** Regenerates the seed inputs when run with {@code -Dbreakwater.fuzz.writeSeeds=true}. */
    @Test
    void writeSeeds() throws IOException {
        if (!Boolean.getBoolean("breakwater.fuzz.writeSeeds")) {
            return;
        }
        Path dir = Path.of("src/test/resources/dev/breakwater/txn/CatalogFuzzTestInputs");
        MemFileSystem fs = new MemFileSystem();
        fs.createDirectories(DIR);
        Catalog c = new Catalog();
        c.put(new Catalog.Entry((int) c.newId(), EngineFixture.customers(), c.newId(), java.util.Map.of("by_last", c.newId())));
        c.put(new Catalog.Entry((int) c.newId(), CrashWorkload.ledger(), c.newId(), java.util.Map.of()));
        c.save(fs, DIR);
        byte[] catalog;
        try (StorageFile f = fs.open(DIR.resolve(Catalog.FILE), OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            catalog = b.array();
        }
        Files.createDirectories(dir.resolve("catalog"));
        Files.write(dir.resolve("catalog/valid"), catalog);
        Files.createDirectories(dir.resolve("checkpoint"));
        Files.write(dir.resolve("checkpoint/valid-unchecksummed"), ("{\n  \"logStartLsn\" : 4096,\n  \"logEndLsn\" : 8192,\n"
                + "  \"treeDurableLsn\" : {\n    \"1\" : 4095\n  },\n  \"writtenAtMillis\" : 1764000000000\n}").getBytes(StandardCharsets.UTF_8));
        CheckpointFile.write(fs, DIR, 4096, 8192, java.util.Map.of(1L, 4095L));
        try (StorageFile f = fs.open(DIR.resolve(CheckpointFile.NAME), OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            Files.write(dir.resolve("checkpoint/valid"), b.array());
        }
    }
}
