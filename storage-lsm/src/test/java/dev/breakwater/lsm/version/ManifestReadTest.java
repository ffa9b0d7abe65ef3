package dev.breakwater.lsm.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link Manifest#read}: the version {@link Manifest#open} would recover, without changing a byte. */
class ManifestReadTest {

    private static final Path DIR = Path.of("/db/tree");
    private final MemFileSystem fs = new MemFileSystem();

    private static TableMeta table(long number) {
        return new TableMeta(number, 8192, 10, new byte[] {(byte) number}, new byte[] {(byte) number, 1}, number, number);
    }

    /** A manifest with two tables in L0 and an unfinished third append. Returns the manifest's path. */
    private Path writeTornManifest() throws IOException {
        Manifest.Opened opened = Manifest.open(fs, DIR, new IoStatistics(), 1 << 20);
        Version v = opened.version();
        try (Manifest m = opened.manifest()) {
            VersionEdit e1 = new VersionEdit();
            e1.newRun(0, 1, true);
            e1.addTable(0, 1, table(1));
            e1.setLastFlushedLsn(5).setNextFileNumber(2).setNextRunId(2);
            m.append(e1, v);
            VersionEdit e2 = new VersionEdit();
            e2.addTable(0, 1, table(2));
            e2.setLastFlushedLsn(9).setNextFileNumber(3);
            m.append(e2, v);
        }
        Path path = DIR.resolve(ManifestFormat.manifestName(1));
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.append(ByteBuffer.wrap(new byte[] {100, 0, 0, 0, 0, 0})); // an append cut before its checksum was written
            f.sync();
        }
        return path;
    }

    private byte[] bytes(Path p) throws IOException {
        try (StorageFile f = fs.open(p, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    @Test
    void readsTheVersionAndReportsATornTailWithoutTruncatingIt() throws IOException {
        Path path = writeTornManifest();
        byte[] before = bytes(path);

        Manifest.Replayed r = Manifest.read(fs, DIR);

        assertTrue(r.tornTail());
        assertEquals(before.length, r.fileBytes());
        assertEquals(before.length - 6, r.goodBytes());
        assertEquals(3, r.edits(), "the snapshot record plus two edits");
        assertEquals(9, r.version().lastFlushedLsn());
        assertEquals(2, r.version().allTables().size());
        assertEquals(path, r.file());
        assertArrayEquals(before, bytes(path), "read must not truncate the torn tail");

        // open (the engine's path) recovers the same version; the next append cuts the tail off.
        try (Manifest m = Manifest.open(fs, DIR, new IoStatistics(), 1 << 20).manifest()) {
            assertEquals(2, Manifest.read(fs, DIR).version().allTables().size());
        }
    }

    @Test
    void aDirectoryWithoutCurrentIsNotCreated() {
        assertThrows(NoSuchFileException.class, () -> Manifest.read(fs, DIR));
        assertFalse(fs.exists(DIR.resolve(ManifestFormat.CURRENT)));
    }
}
