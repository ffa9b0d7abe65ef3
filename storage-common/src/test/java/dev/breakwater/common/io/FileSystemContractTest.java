package dev.breakwater.common.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behaviour every {@link FileSystem} must share. Subclasses supply the file system; the tests run
 * in a fresh directory {@code dir} that exists.
 */
abstract class FileSystemContractTest {

    @TempDir
    Path tempDir;

    FileSystem fs;
    Path dir;

    abstract FileSystem createFileSystem();

    @BeforeEach
    void setUp() throws IOException {
        fs = createFileSystem();
        dir = tempDir.resolve("db");
        fs.createDirectories(dir);
    }

    @AfterEach
    void tearDown() {
        fs = null;
    }

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(UTF_8));
    }

    static String readAll(StorageFile file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) file.size());
        file.read(0, buffer);
        return new String(buffer.array(), UTF_8);
    }

    StorageFile create(String name) throws IOException {
        return fs.open(dir.resolve(name), OpenOption.CREATE, OpenOption.WRITE);
    }

    @Test
    void positionalWritesAndReadsRoundTrip() throws IOException {
        try (StorageFile file = create("a")) {
            ByteBuffer hello = bytes("hello");
            file.write(0, hello);
            assertFalse(hello.hasRemaining(), "write must consume the buffer");
            file.write(5, bytes(" world"));
            file.write(0, bytes("J"));
            assertEquals(11, file.size());
            assertEquals("Jello world", readAll(file));

            ByteBuffer middle = ByteBuffer.allocate(5);
            file.read(6, middle);
            assertFalse(middle.hasRemaining(), "read must fill the buffer");
            assertEquals("world", new String(middle.array(), UTF_8));
            assertFalse(file.isDirect());
            assertEquals(dir.resolve("a"), file.path());
        }
    }

    @Test
    void appendReturnsOffsetsAndFollowsPositionalWrites() throws IOException {
        try (StorageFile file = create("log")) {
            assertEquals(0, file.append(bytes("abc")));
            assertEquals(3, file.append(bytes("de")));
            file.write(10, bytes("X"));
            assertEquals(11, file.append(bytes("yz")));
            assertEquals(13, file.size());
            assertEquals(13, fs.size(dir.resolve("log")));
        }
    }

    @Test
    void appendContinuesAtEndOfReopenedFile() throws IOException {
        try (StorageFile file = create("log")) {
            file.append(bytes("12345"));
        }
        try (StorageFile file = fs.open(dir.resolve("log"), OpenOption.WRITE)) {
            assertEquals(5, file.append(bytes("678")));
            assertEquals("12345678", readAll(file));
        }
    }

    @Test
    void readPastEndThrowsEofNamingFileAndPosition() throws IOException {
        try (StorageFile file = create("short")) {
            file.append(bytes("0123456789"));
            EOFException e = assertThrows(EOFException.class, () -> file.read(8, ByteBuffer.allocate(4)));
            assertTrue(e.getMessage().contains(dir.resolve("short").toString()), e.getMessage());
            assertTrue(e.getMessage().contains("position 8"), e.getMessage());
            assertThrows(EOFException.class, () -> file.read(100, ByteBuffer.allocate(1)));
            file.read(10, ByteBuffer.allocate(0));
        }
    }

    @Test
    void truncateShrinksAndExtendsWithZeros() throws IOException {
        try (StorageFile file = create("t")) {
            file.append(bytes("abcdef"));
            file.truncate(2);
            assertEquals(2, file.size());
            assertEquals("ab", readAll(file));
            assertEquals(2, file.append(bytes("c")));
            file.truncate(6);
            assertEquals(6, file.size());
            ByteBuffer all = ByteBuffer.allocate(6);
            file.read(0, all);
            assertArrayEquals(new byte[] {'a', 'b', 'c', 0, 0, 0}, all.array());
            assertEquals(6, file.append(bytes("!")), "append continues after the extended end");
        }
    }

    @Test
    void openingMissingFileWithoutCreateFails() {
        Path missing = dir.resolve("missing");
        assertThrows(NoSuchFileException.class, () -> fs.open(missing));
        assertThrows(NoSuchFileException.class, () -> fs.open(missing, OpenOption.WRITE));
        assertThrows(NoSuchFileException.class, () -> fs.size(missing));
        assertFalse(fs.exists(missing));
    }

    @Test
    void creatingFileInMissingDirectoryFails() {
        assertThrows(NoSuchFileException.class, () -> fs.open(dir.resolve("no/such/file"), OpenOption.CREATE));
    }

    @Test
    void createNewFailsIfFileExists() throws IOException {
        create("x").close();
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> fs.open(dir.resolve("x"), OpenOption.CREATE_NEW, OpenOption.WRITE));
        assertTrue(e.getMessage().contains(dir.resolve("x").toString()), e.getMessage());
        fs.open(dir.resolve("y"), OpenOption.CREATE_NEW).close();
        assertTrue(fs.exists(dir.resolve("y")));
    }

    @Test
    void truncateOptionEmptiesExistingFile() throws IOException {
        try (StorageFile file = create("x")) {
            file.append(bytes("old contents"));
        }
        try (StorageFile file = fs.open(dir.resolve("x"), OpenOption.WRITE, OpenOption.TRUNCATE)) {
            assertEquals(0, file.size());
        }
    }

    @Test
    void readOnlyFileRejectsModification() throws IOException {
        try (StorageFile file = create("ro")) {
            file.append(bytes("data"));
        }
        try (StorageFile file = fs.open(dir.resolve("ro"), OpenOption.READ)) {
            assertEquals("data", readAll(file));
            IOException e = assertThrows(IOException.class, () -> file.write(0, bytes("x")));
            assertTrue(e.getMessage().contains(dir.resolve("ro").toString()), e.getMessage());
            assertThrows(IOException.class, () -> file.append(bytes("x")));
            assertThrows(IOException.class, () -> file.truncate(0));
            assertEquals("data", readAll(file));
        }
    }

    @Test
    void renameReplacesTargetAtomically() throws IOException {
        try (StorageFile file = create("new")) {
            file.append(bytes("new contents"));
        }
        try (StorageFile file = create("current")) {
            file.append(bytes("old"));
        }
        fs.rename(dir.resolve("new"), dir.resolve("current"));
        assertFalse(fs.exists(dir.resolve("new")));
        assertEquals(List.of("current"), fs.list(dir));
        try (StorageFile file = fs.open(dir.resolve("current"))) {
            assertEquals("new contents", readAll(file));
        }
    }

    @Test
    void renamingMissingFileFails() {
        assertThrows(NoSuchFileException.class, () -> fs.rename(dir.resolve("a"), dir.resolve("b")));
    }

    @Test
    void deleteReportsWhetherFileExisted() throws IOException {
        create("x").close();
        assertTrue(fs.delete(dir.resolve("x")));
        assertFalse(fs.exists(dir.resolve("x")));
        assertFalse(fs.delete(dir.resolve("x")));
        assertThrows(NoSuchFileException.class, () -> fs.open(dir.resolve("x")));
    }

    @Test
    void listReturnsSortedNamesDirectlyUnderDirectory() throws IOException {
        for (String name : List.of("b", "c", "a")) {
            create(name).close();
        }
        fs.createDirectories(dir.resolve("sub/deeper"));
        fs.open(dir.resolve("sub/inner"), OpenOption.CREATE).close();
        assertEquals(List.of("a", "b", "c", "sub"), fs.list(dir));
        assertEquals(List.of("deeper", "inner"), fs.list(dir.resolve("sub")));
        assertEquals(List.of(), fs.list(dir.resolve("sub/deeper")));
        assertTrue(fs.exists(dir.resolve("sub")));
        assertThrows(NoSuchFileException.class, () -> fs.list(dir.resolve("nope")));
    }

    @Test
    void syncAndDirectorySyncSucceed() throws IOException {
        try (StorageFile file = create("s")) {
            file.append(bytes("durable"));
            file.sync();
        }
        fs.syncDirectory(dir);
        assertThrows(NoSuchFileException.class, () -> fs.syncDirectory(dir.resolve("missing")));
    }

    @Test
    void closedFileRejectsOperationsNamingPath() throws IOException {
        StorageFile file = create("closed");
        file.close();
        IOException e = assertThrows(IOException.class, () -> file.append(bytes("x")));
        assertTrue(e.getMessage().contains(dir.resolve("closed").toString()), e.getMessage());
    }

    @Test
    void concurrentAppendsNeverOverlap() throws Exception {
        int threads = 4;
        int perThread = 250;
        int recordSize = 16;
        try (StorageFile file = create("concurrent")) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<List<long[]>>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    futures.add(pool.submit(() -> {
                        List<long[]> written = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            ByteBuffer record = ByteBuffer.allocate(recordSize);
                            record.putLong(0, thread).putLong(8, i);
                            written.add(new long[] {file.append(record), thread, i});
                        }
                        return written;
                    }));
                }
                assertEquals((long) threads * perThread * recordSize, waitAll(futures, file));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static long waitAll(List<Future<List<long[]>>> futures, StorageFile file) throws Exception {
        for (Future<List<long[]>> future : futures) {
            for (long[] w : future.get()) {
                ByteBuffer record = ByteBuffer.allocate(16);
                file.read(w[0], record);
                assertEquals(w[1], record.getLong(0), "thread id of record at " + w[0]);
                assertEquals(w[2], record.getLong(8), "sequence of record at " + w[0]);
            }
        }
        return file.size();
    }

    @Test
    void lockIsExclusiveUntilClosedAndRecordsThePid() throws IOException {
        Path lockPath = dir.resolve("LOCK");
        long pid = ProcessHandle.current().pid();
        try (LockFile held = fs.lock(lockPath)) {
            assertEquals(lockPath, held.path());
            try (StorageFile f = fs.open(lockPath, OpenOption.READ)) {
                assertEquals(pid + "\n", readAll(f), "the lock file records the holder's pid");
            }
            FileLockedException second = assertThrows(FileLockedException.class, () -> fs.lock(lockPath));
            assertEquals(pid, second.holderPid());
            assertTrue(second.getMessage().contains(lockPath.toString()), second.getMessage());
            assertTrue(second.getMessage().contains("process " + pid), second.getMessage());
            // The refused attempt must not have released the lock that is held.
            assertThrows(FileLockedException.class, () -> fs.lock(lockPath));
        }
        try (LockFile again = fs.lock(lockPath)) {
            assertTrue(fs.exists(again.path()), "closing a lock keeps the file");
        }
    }

    @Test
    void lockCloseIsIdempotentAndLocksAreIndependentPerFile() throws IOException {
        LockFile a = fs.lock(dir.resolve("a.lock"));
        try (LockFile b = fs.lock(dir.resolve("b.lock"))) {
            a.close();
            a.close();
            fs.lock(dir.resolve("a.lock")).close();
            assertThrows(FileLockedException.class, () -> fs.lock(b.path()));
        }
    }
}
