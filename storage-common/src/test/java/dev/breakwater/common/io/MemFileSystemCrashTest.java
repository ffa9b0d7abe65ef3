package dev.breakwater.common.io;

import static dev.breakwater.common.io.FileSystemContractTest.bytes;
import static dev.breakwater.common.io.FileSystemContractTest.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MemFileSystemCrashTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/db");

    @BeforeEach
    void setUp() throws IOException {
        fs.createDirectories(dir);
    }

    private void writeFile(String name, String contents, boolean syncData) throws IOException {
        try (StorageFile file = fs.open(dir.resolve(name), OpenOption.CREATE, OpenOption.WRITE)) {
            file.append(bytes(contents));
            if (syncData) {
                file.sync();
            }
        }
    }

    private static String contents(FileSystem fs, Path path) throws IOException {
        try (StorageFile file = fs.open(path)) {
            return readAll(file);
        }
    }

    @Test
    void unsyncedDataIsDropped() throws IOException {
        writeFile("wal", "not synced", false);
        fs.syncDirectory(dir);
        MemFileSystem crashed = fs.crashClone();
        assertTrue(crashed.exists(dir.resolve("wal")));
        assertEquals(0, crashed.size(dir.resolve("wal")));
        assertEquals("not synced", contents(fs, dir.resolve("wal")), "the original keeps its data");
    }

    @Test
    void syncedDataIsKeptAndLaterWritesAreDropped() throws IOException {
        try (StorageFile file = fs.open(dir.resolve("wal"), OpenOption.CREATE, OpenOption.WRITE)) {
            file.append(bytes("record1;"));
            file.sync();
            fs.syncDirectory(dir);
            file.append(bytes("record2;"));
            file.write(0, bytes("XXXXXXX"));
        }
        MemFileSystem crashed = fs.crashClone();
        assertEquals("record1;", contents(crashed, dir.resolve("wal")));
    }

    @Test
    void truncationIsDurableOnlyAfterSync() throws IOException {
        writeFile("f", "0123456789", true);
        fs.syncDirectory(dir);
        try (StorageFile file = fs.open(dir.resolve("f"), OpenOption.WRITE)) {
            file.truncate(4);
            assertEquals("0123456789", contents(fs.crashClone(), dir.resolve("f")));
            file.sync();
        }
        assertEquals("0123", contents(fs.crashClone(), dir.resolve("f")));
    }

    @Test
    void fileCreatedWithoutDirectorySyncVanishes() throws IOException {
        writeFile("sst-1", "synced data, unsynced name", true);
        MemFileSystem crashed = fs.crashClone();
        assertFalse(crashed.exists(dir.resolve("sst-1")));
        assertEquals(List.of(), crashed.list(dir));
        assertTrue(crashed.exists(dir), "directories are durable at once");
    }

    @Test
    void renameIsDurableOnlyAfterDirectorySync() throws IOException {
        writeFile("CURRENT.tmp", "MANIFEST-2", true);
        fs.syncDirectory(dir);
        fs.rename(dir.resolve("CURRENT.tmp"), dir.resolve("CURRENT"));

        MemFileSystem before = fs.crashClone();
        assertEquals(List.of("CURRENT.tmp"), before.list(dir));

        fs.syncDirectory(dir);
        MemFileSystem after = fs.crashClone();
        assertEquals(List.of("CURRENT"), after.list(dir));
        assertEquals("MANIFEST-2", contents(after, dir.resolve("CURRENT")));
    }

    @Test
    void renameOverExistingFileKeepsOldTargetUntilDirectorySync() throws IOException {
        writeFile("CURRENT", "MANIFEST-1", true);
        writeFile("CURRENT.tmp", "MANIFEST-2", true);
        fs.syncDirectory(dir);
        fs.rename(dir.resolve("CURRENT.tmp"), dir.resolve("CURRENT"));
        assertEquals("MANIFEST-1", contents(fs.crashClone(), dir.resolve("CURRENT")));
        fs.syncDirectory(dir);
        assertEquals("MANIFEST-2", contents(fs.crashClone(), dir.resolve("CURRENT")));
    }

    @Test
    void deleteIsDurableOnlyAfterDirectorySync() throws IOException {
        writeFile("old", "obsolete", true);
        fs.syncDirectory(dir);
        assertTrue(fs.delete(dir.resolve("old")));
        assertEquals("obsolete", contents(fs.crashClone(), dir.resolve("old")));
        fs.syncDirectory(dir);
        assertFalse(fs.crashClone().exists(dir.resolve("old")));
    }

    @Test
    void directorySyncCoversOnlyThatDirectory() throws IOException {
        fs.createDirectories(dir.resolve("wal"));
        writeFile("top", "t", true);
        try (StorageFile file = fs.open(dir.resolve("wal/000001.log"), OpenOption.CREATE)) {
            file.append(bytes("w"));
            file.sync();
        }
        fs.syncDirectory(dir.resolve("wal"));
        MemFileSystem crashed = fs.crashClone();
        assertEquals(List.of("wal"), crashed.list(dir));
        assertEquals("w", contents(crashed, dir.resolve("wal/000001.log")));
    }

    @Test
    void crashCloneIsIndependentOfOriginal() throws IOException {
        writeFile("f", "base", true);
        fs.syncDirectory(dir);
        MemFileSystem crashed = fs.crashClone();
        try (StorageFile file = crashed.open(dir.resolve("f"), OpenOption.WRITE)) {
            file.append(bytes("+clone"));
        }
        writeFile("f", "+original", false);
        assertEquals("base+clone", contents(crashed, dir.resolve("f")));
        assertEquals("base+original", contents(fs, dir.resolve("f")));
        assertEquals("base", contents(crashed.crashClone(), dir.resolve("f")),
                "a clone starts out fully synced; what is written to it afterwards needs syncing again");
    }

    @Test
    void handlesKeepWorkingAfterDeleteAndAfterCrashClone() throws IOException {
        try (StorageFile file = fs.open(dir.resolve("f"), OpenOption.CREATE)) {
            fs.delete(dir.resolve("f"));
            fs.crashClone();
            file.append(bytes("still here"));
            assertEquals("still here", readAll(file));
        }
        assertEquals(0, fs.totalBytes());
    }

    @Test
    void pathsAreNormalized() throws IOException {
        writeFile("f", "x", true);
        assertTrue(fs.exists(Path.of("/db/./sub/../f")));
        assertEquals(1, fs.size(Path.of("/db//f")));
    }

    @Test
    void totalBytesCountsCurrentFiles() throws IOException {
        writeFile("a", "12345", false);
        writeFile("b", "123", false);
        assertEquals(8, fs.totalBytes());
        assertEquals(0, fs.crashClone().totalBytes());
    }

    @Test
    void openingDirectoryAsFileFails() {
        IOException e = assertThrows(IOException.class, () -> fs.open(dir));
        assertTrue(e.getMessage().contains("/db"), e.getMessage());
    }

    @Test
    void crashCloneThroughFaultInjectingWrapper() throws IOException {
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(new FaultInjectingFileSystem(fs));
        writeFile("f", "durable", true);
        fs.syncDirectory(dir);
        assertEquals("durable", contents(faulty.crashClone(), dir.resolve("f")));

        FaultInjectingFileSystem onDisk = new FaultInjectingFileSystem(RealFileSystem.create());
        IllegalStateException e = assertThrows(IllegalStateException.class, onDisk::crashClone);
        assertTrue(e.getMessage().contains("RealFileSystem"), e.getMessage());
    }
}
