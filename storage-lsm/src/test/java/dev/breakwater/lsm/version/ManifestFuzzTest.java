package dev.breakwater.lsm.version;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the manifest decoders: whole manifest files replayed by {@link Manifest#open} and single
 * {@link VersionEdit} payloads. A damaged manifest must give an {@link IOException} (or a torn
 * tail), a malformed edit an {@link IllegalArgumentException} (its documented contract); nothing
 * else, no error, no hang.
 *
 * <p>{@code manifestFile} input: byte 0 bit 0 set = rewrite every record's CRC to match its payload
 * (so the fuzzer reaches the edit decoder and the version builder); the rest is the file.
 * Regression inputs live under {@code src/test/resources/.../ManifestFuzzTestInputs/}; long runs:
 * docs/testing.md.
 */
class ManifestFuzzTest {

    private static final Path DIR = Path.of("/tree");

    @FuzzTest(maxDuration = "2m")
    void manifestFile(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        byte[] file = Arrays.copyOfRange(data, 1, data.length);
        if ((data[0] & 1) != 0) {
            fixCrcs(file);
        }
        MemFileSystem fs = new MemFileSystem();
        fs.createDirectories(DIR);
        write(fs, DIR.resolve(ManifestFormat.CURRENT), (ManifestFormat.manifestName(1) + "\n").getBytes(StandardCharsets.UTF_8));
        write(fs, DIR.resolve(ManifestFormat.manifestName(1)), file);
        Manifest.Opened opened;
        try {
            opened = Manifest.open(fs, DIR, new IoStatistics(), 1 << 20);
        } catch (IOException expected) {
            return;
        }
        opened.manifest().close();
    }

    @FuzzTest(maxDuration = "2m")
    void versionEdit(byte[] data) {
        try {
            VersionEdit e = VersionEdit.decode(data);
            new VersionBuilder(Version.empty()).apply(e);
        } catch (IllegalArgumentException | IllegalStateException expected) {
            // decode: malformed; apply: does not fit the version (Manifest reports both as IOException)
        }
    }

    /** Recomputes the CRC of each record whose length fits in the file. */
    static void fixCrcs(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 0;
        while (pos + ManifestFormat.RECORD_HEADER <= file.length) {
            int length = b.getInt(pos);
            if (length < 0 || length > file.length - pos - ManifestFormat.RECORD_HEADER) {
                return;
            }
            CRC32C c = new CRC32C();
            c.update(file, pos + ManifestFormat.RECORD_HEADER, length);
            b.putInt(pos + 4, (int) c.getValue());
            pos += ManifestFormat.RECORD_HEADER + length;
        }
    }

    private static void write(MemFileSystem fs, Path path, byte[] bytes) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(bytes));
        }
    }

    /** A valid manifest: a snapshot and a few deltas, as a tree writes them. */
    static byte[] validManifest() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Manifest.Opened o = Manifest.open(fs, DIR, new IoStatistics(), 1 << 20);
        Version v = o.version();
        VersionEdit e1 = new VersionEdit().setNextFileNumber(3).setNextRunId(2).newRun(0, 1, true)
                .addTable(0, 1, new TableMeta(1, 8192, 10, new byte[] {1}, new byte[] {9}, 0, 5))
                .setLastFlushedLsn(5);
        o.manifest().append(e1, v);
        VersionEdit e2 = new VersionEdit().insertLevel(1).newRun(1, 2, true)
                .addTable(1, 2, new TableMeta(2, 8192, 10, new byte[] {1}, new byte[] {9}, 0, 5))
                .removeTable(0, 1, new TableMeta(1, 8192, 10, new byte[] {1}, new byte[] {9}, 0, 5));
        o.manifest().append(e2, v);
        o.manifest().close();
        try (StorageFile f = fs.open(DIR.resolve(ManifestFormat.manifestName(1)), OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    /** Regenerates the seed inputs when run with {@code -Dbreakwater.fuzz.writeSeeds=true}. */
    @Test
    void writeSeeds() throws IOException {
        if (!Boolean.getBoolean("breakwater.fuzz.writeSeeds")) {
            return;
        }
        Path dir = Path.of("src/test/resources/dev/breakwater/lsm/version/ManifestFuzzTestInputs");
        byte[] manifest = validManifest();
        byte[] input = new byte[manifest.length + 1];
        System.arraycopy(manifest, 0, input, 1, manifest.length);
        Files.createDirectories(dir.resolve("manifestFile"));
        Files.write(dir.resolve("manifestFile/valid"), input);
        input[0] = 1;
        Files.write(dir.resolve("manifestFile/valid-fix-crc"), input);
        Files.createDirectories(dir.resolve("versionEdit"));
        ByteBuffer b = ByteBuffer.wrap(manifest).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 0;
        for (int i = 0; pos < manifest.length; i++) {
            int len = b.getInt(pos);
            Files.write(dir.resolve("versionEdit/record-" + i), Arrays.copyOfRange(manifest, pos + 8, pos + 8 + len));
            pos += 8 + len;
        }
    }
}
