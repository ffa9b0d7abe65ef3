package dev.breakwater.common.io;

import static dev.breakwater.common.io.FileSystemContractTest.bytes;
import static dev.breakwater.common.io.FileSystemContractTest.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultInjectingFileSystemTest {

    private final MemFileSystem mem = new MemFileSystem();
    private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
    private final Path dir = Path.of("/db");
    private final Path wal = dir.resolve("000001.log");
    private final Path sst = dir.resolve("000002.sst");

    @BeforeEach
    void setUp() throws IOException {
        fs.createDirectories(dir);
    }

    private static void assertInjected(IOException e, FileOperation op, Path path) {
        assertTrue(e instanceof InjectedIOException, "expected an injected fault, got " + e);
        assertTrue(e.getMessage().startsWith("injected fault"), e.getMessage());
        assertTrue(e.getMessage().contains(op.name()), e.getMessage());
        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
        assertEquals(op, ((InjectedIOException) e).operation());
        assertEquals(path, ((InjectedIOException) e).path());
    }

    @Test
    void failedSyncSurfacesNamingThePathAndLeavesDataUnsynced() throws IOException {
        fs.setInjector(FaultInjectors.failAlways(FileOperation.SYNC, p -> p.toString().endsWith(".log")));
        try (StorageFile log = fs.open(wal, OpenOption.CREATE); StorageFile table = fs.open(sst, OpenOption.CREATE)) {
            log.append(bytes("commit 1"));
            table.append(bytes("block"));
            IOException e = assertThrows(IOException.class, log::sync);
            assertInjected(e, FileOperation.SYNC, wal);
            table.sync();
            fs.syncDirectory(dir);

            MemFileSystem crashed = fs.crashClone();
            assertEquals(0, crashed.size(wal), "a failed sync must not make data durable");
            assertEquals(5, crashed.size(sst));

            fs.clearInjector();
            log.sync();
            assertEquals(8, fs.crashClone().size(wal));
        }
        assertEquals(1, fs.injectedFaultCount());
        assertEquals(3, fs.operationCount(FileOperation.SYNC));
    }

    @Test
    void diskFullAfterBudgetIsExhausted() throws IOException {
        fs.setInjector(FaultInjectors.diskFull(100));
        try (StorageFile file = fs.open(wal, OpenOption.CREATE)) {
            file.append(ByteBuffer.allocate(60));
            file.append(ByteBuffer.allocate(30));
            IOException e = assertThrows(IOException.class, () -> file.append(ByteBuffer.allocate(20)));
            assertInjected(e, FileOperation.APPEND, wal);
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertEquals(90, file.size(), "a write that does not fit fails whole");

            file.write(90, ByteBuffer.allocate(10));
            assertEquals(100, file.size());
            assertThrows(IOException.class, () -> file.write(0, ByteBuffer.allocate(1)));
            ByteBuffer all = ByteBuffer.allocate(100);
            file.read(0, all);
            file.sync();
        }
    }

    @Test
    void nthReadFailsThenTheNextSucceeds() throws IOException {
        try (StorageFile file = fs.open(sst, OpenOption.CREATE)) {
            file.append(bytes("0123456789"));
            fs.setInjector(FaultInjectors.failNth(FileOperation.READ, 2));
            file.read(0, ByteBuffer.allocate(4));
            IOException e = assertThrows(IOException.class, () -> file.read(4, ByteBuffer.allocate(4)));
            assertInjected(e, FileOperation.READ, sst);
            ByteBuffer retry = ByteBuffer.allocate(4);
            file.read(4, retry);
            assertEquals("4567", new String(retry.array(), java.nio.charset.StandardCharsets.UTF_8));
            file.read(0, ByteBuffer.allocate(10));
        }
        assertEquals(4, fs.operationCount(FileOperation.READ));
        assertEquals(1, fs.injectedFaultCount());
    }

    @Test
    void nthOperationCanTargetOnePath() throws IOException {
        fs.setInjector(FaultInjectors.failNth(FileOperation.OPEN, p -> p.equals(sst), 2));
        fs.open(wal, OpenOption.CREATE).close();
        fs.open(sst, OpenOption.CREATE).close();
        fs.open(wal).close();
        assertInjected(assertThrows(IOException.class, () -> fs.open(sst)), FileOperation.OPEN, sst);
        fs.open(sst).close();
    }

    /** Runs a fixed workload and records which of its operations failed. */
    private static List<Boolean> failurePattern(long seed) throws IOException {
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(new MemFileSystem());
        Path file = Path.of("/f");
        faulty.open(file, OpenOption.CREATE).close();
        faulty.setInjector(FaultInjectors.failRandomly(seed, 0.3, FileOperation.APPEND, FileOperation.SYNC));
        List<Boolean> failed = new ArrayList<>();
        try (StorageFile f = faulty.open(file, OpenOption.WRITE)) {
            for (int i = 0; i < 200; i++) {
                try {
                    if (i % 2 == 0) {
                        f.append(bytes("x"));
                    } else {
                        f.sync();
                    }
                    failed.add(false);
                } catch (InjectedIOException e) {
                    failed.add(true);
                }
                f.size();
            }
        }
        assertEquals(failed.stream().filter(b -> b).count(), faulty.injectedFaultCount());
        return failed;
    }

    @Test
    void randomInjectorIsReproducibleWithItsSeed() throws IOException {
        List<Boolean> first = failurePattern(42);
        assertEquals(first, failurePattern(42));
        long failures = first.stream().filter(b -> b).count();
        assertTrue(failures > 20 && failures < 120, "about 30% of 200 should fail, got " + failures);
        assertNotEquals(first, failurePattern(43));
    }

    @Test
    void randomInjectorWithProbabilityZeroOrOne() throws IOException {
        FaultInjector never = FaultInjectors.failRandomly(1, 0.0);
        FaultInjector always = FaultInjectors.failRandomly(1, 1.0);
        for (FileOperation op : FileOperation.values()) {
            assertNull(never.maybeFail(op, wal));
            assertInjected(always.maybeFail(op, wal), op, wal);
        }
        assertThrows(IllegalArgumentException.class, () -> FaultInjectors.failRandomly(1, 1.5));
    }

    @Test
    void tornWritePersistsOnlyAPrefix() throws IOException {
        fs.setInjector(FaultInjectors.tornWrite(p -> p.equals(wal), 3));
        try (StorageFile file = fs.open(wal, OpenOption.CREATE)) {
            ByteBuffer record = bytes("abcdefgh");
            IOException e = assertThrows(IOException.class, () -> file.append(record));
            assertInjected(e, FileOperation.APPEND, wal);
            assertEquals(3, ((InjectedIOException) e).persistedBytes());
            assertEquals(3, record.position(), "the buffer is advanced past what was written");
            assertEquals("abc", readAll(file));

            assertEquals(3, file.append(bytes("XYZ")), "the torn-write injector fires once");
            assertEquals("abcXYZ", readAll(file));
        }
    }

    @Test
    void tornPositionalWrite() throws IOException {
        try (StorageFile file = fs.open(sst, OpenOption.CREATE)) {
            file.write(0, bytes("........"));
            fs.setInjector(FaultInjectors.tornWrite(p -> true, 5));
            assertThrows(InjectedIOException.class, () -> file.write(2, bytes("0123456789")));
            assertEquals("..01234.", readAll(file), "five bytes reached the file; the rest is unchanged");
        }
    }

    @Test
    void failedOperationsDoNotReachTheWrappedFileSystem() throws IOException {
        try (StorageFile file = fs.open(wal, OpenOption.CREATE)) {
            file.append(bytes("keep"));
            fs.setInjector(FaultInjectors.failAlways(FileOperation.WRITE, p -> true));
            assertThrows(InjectedIOException.class, () -> file.write(0, bytes("lose")));
            assertEquals("keep", readAll(file));
        }
        fs.setInjector(FaultInjectors.anyOf(
                FaultInjectors.failAlways(FileOperation.RENAME, p -> true),
                FaultInjectors.failAlways(FileOperation.DELETE, p -> true)));
        assertInjected(assertThrows(IOException.class, () -> fs.rename(wal, sst)), FileOperation.RENAME, wal);
        assertInjected(assertThrows(IOException.class, () -> fs.delete(wal)), FileOperation.DELETE, wal);
        assertTrue(mem.exists(wal));
        assertEquals(List.of("000001.log"), mem.list(dir));
    }

    @Test
    void everyOperationKindCanBeFailed() throws IOException {
        fs.open(wal, OpenOption.CREATE).close();
        try (StorageFile file = fs.open(wal, OpenOption.WRITE)) {
            for (FileOperation op : FileOperation.values()) {
                fs.setInjector(FaultInjectors.failAlways(op, p -> true));
                Path expected = switch (op) {
                    case LIST, SYNC_DIRECTORY, CREATE_DIRECTORIES -> dir;
                    case LOCK -> dir.resolve("LOCK");
                    default -> wal;
                };
                IOException e = assertThrows(IOException.class, () -> run(op, file), op.name());
                assertInjected(e, op, expected);
                fs.clearInjector();
                run(op, file);
            }
        }
        for (FileOperation op : FileOperation.values()) {
            // OPEN: two above plus one failed and one successful; CREATE_DIRECTORIES: one in setUp.
            long expected = op == FileOperation.OPEN ? 4 : op == FileOperation.CREATE_DIRECTORIES ? 3 : 2;
            assertEquals(expected, fs.operationCount(op), op.name());
        }
        assertEquals(FileOperation.values().length, fs.injectedFaultCount());
    }

    /** Performs one operation of kind {@code op} that succeeds when nothing is injected. */
    private void run(FileOperation op, StorageFile file) throws IOException {
        switch (op) {
            case OPEN -> fs.open(wal).close();
            case READ -> file.read(0, ByteBuffer.allocate(0));
            case WRITE -> file.write(0, bytes("w"));
            case APPEND -> file.append(bytes("a"));
            case SYNC -> file.sync();
            case RENAME -> {
                fs.rename(wal, sst);
                mem.rename(sst, wal);
            }
            case DELETE -> {
                fs.delete(wal);
                mem.open(wal, OpenOption.CREATE).close();
            }
            case LIST -> fs.list(dir);
            case SIZE -> fs.size(wal);
            case TRUNCATE -> file.truncate(0);
            case SYNC_DIRECTORY -> fs.syncDirectory(dir);
            case CREATE_DIRECTORIES -> fs.createDirectories(dir);
            case LOCK -> fs.lock(dir.resolve("LOCK")).close();
            default -> throw new AssertionError(op);
        }
    }

    @Test
    void injectedLockFailureLeavesTheFileUnlocked() throws IOException {
        Path lockPath = dir.resolve("LOCK");
        fs.setInjector(FaultInjectors.failNth(FileOperation.LOCK, 1));
        IOException e = assertThrows(IOException.class, () -> fs.lock(lockPath));
        assertInjected(e, FileOperation.LOCK, lockPath);
        fs.lock(lockPath).close();
        assertEquals(2, fs.operationCount(FileOperation.LOCK));
    }
}
