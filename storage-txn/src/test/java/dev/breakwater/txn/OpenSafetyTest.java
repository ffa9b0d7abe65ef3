package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 items 1, 2 and 4 through the public API: open deletes nothing it cannot prove is its own
 * garbage, refuses what it does not recognise (changing nothing), holds an exclusive lock on the
 * directory for the engine's lifetime, and refuses a damaged manifest instead of emptying a tree.
 */
class OpenSafetyTest {

    private static final int ROWS = 3000;

    @TempDir
    Path tmp;

    /** Every file and directory under {@code root}, relative, with file sizes: what "unchanged" compares. */
    private static List<String> listing(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p) + (Files.isRegularFile(p) ? " " + size(p) : "/")).sorted().toList();
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** An engine with one dataset of {@link #ROWS} customers, closed (so its trees are flushed). */
    private static void populate(Path dir) {
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            Dataset c = engine.createDataset(EngineFixture.customers());
            engine.inTransaction(tx -> {
                for (int i = 0; i < ROWS; i++) {
                    tx.insert(c, EngineFixture.customer(1, i % 10, i, "NAME" + (i % 50), i));
                }
            });
        }
    }

    private static int count(StorageEngine engine) {
        int n = 0;
        try (Cursor<Tuple> cur = engine.dataset("customer").scan(KeyRange.all())) {
            while (cur.hasNext()) {
                cur.next();
                n++;
            }
        }
        return n;
    }

    private static void assertOpensWithAllRows(Path dir) {
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            assertEquals(ROWS, count(engine));
        }
    }

    // ------------------------------------------------------------------ item 1: what open deletes

    @Test
    void newAndEmptyDirectoriesOpenAndAreMarked() throws IOException {
        Path missing = tmp.resolve("a/b/new");
        StorageEngine.open(missing, EngineFixture.smallConfig()).close();
        assertTrue(Files.exists(missing.resolve("BREAKWATER")));
        assertTrue(Files.exists(missing.resolve("LOCK")));
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        StorageEngine.open(empty, EngineFixture.smallConfig()).close();
        assertTrue(Files.exists(empty.resolve("BREAKWATER")));
        StorageEngine.open(empty, EngineFixture.smallConfig()).close(); // and reopens
    }

    @Test
    void aDirectoryWithAnUnrelatedDatasetsFolderIsRefusedAndUntouched() throws IOException {
        Path dir = tmp.resolve("user");
        Files.createDirectories(dir.resolve("datasets/foo"));
        Files.writeString(dir.resolve("datasets/foo/thesis.tex"), "years of work");
        List<String> before = listing(dir);
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("datasets"), e.getMessage());
        assertEquals(before, listing(dir), "a refused open must not add or delete anything");
    }

    @Test
    void aDirectoryOfOtherFilesIsRefusedAndUntouched() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.createDirectories(dir.resolve("log"));
        Files.writeString(dir.resolve("log/app.log"), "also mine");
        List<String> before = listing(dir);
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("not a Breakwater data directory") && e.getMessage().contains("notes.txt"),
                e.getMessage());
        assertEquals(before, listing(dir));
    }

    @Test
    void aMissingCatalogIsRefusedAndEveryDatasetFileKept() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Path catalog = dir.resolve("catalog.json");
        Path saved = Files.move(catalog, tmp.resolve("catalog.json.saved"));
        List<String> before = listing(dir);
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("catalog.json is missing") && e.getMessage().contains("datasets/")
                && e.getMessage().contains("restore catalog.json"), e.getMessage());
        assertEquals(before, listing(dir), "a refused open must not delete the datasets");
        Files.move(saved, catalog);
        assertOpensWithAllRows(dir);
    }

    @Test
    void aDirectoryTheCatalogDoesNotNameIsRefusedNotDeleted() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Files.createDirectories(dir.resolve("datasets/foo"));
        Files.writeString(dir.resolve("datasets/foo/keep.me"), "x");
        List<String> before = listing(dir);
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("datasets/foo") && e.getMessage().contains("does not name"), e.getMessage());
        assertEquals(before, listing(dir));
        Files.move(dir.resolve("datasets/foo"), tmp.resolve("foo"));
        assertOpensWithAllRows(dir);
    }

    @Test
    void aDatasetDirectoryTheCatalogNamesBeingMissingIsRefused() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Path datasetDir;
        try (Stream<Path> s = Files.list(dir.resolve("datasets"))) {
            datasetDir = s.findFirst().orElseThrow();
        }
        Path away = Files.move(datasetDir, tmp.resolve("away"));
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
        assertFalse(Files.exists(datasetDir), "open must not create an empty tree in its place");
        Files.move(away, datasetDir);
        assertOpensWithAllRows(dir);
    }

    @Test
    void aDirectoryWrittenBeforeMarkersExistedIsAdopted() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Files.delete(dir.resolve("BREAKWATER"));
        Files.delete(dir.resolve("LOCK"));
        assertOpensWithAllRows(dir);
        assertTrue(Files.exists(dir.resolve("BREAKWATER")));
    }

    @Test
    void aDamagedMarkerIsRefused() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Files.writeString(dir.resolve("BREAKWATER"), "something else\n");
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("BREAKWATER"), e.getMessage());
    }

    @Test
    void aCrashDuringCreateOrDropLeavesOnlyGarbageTheCatalogRecords() {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Path dir = Path.of("/data");
        MemFileSystem crashed;
        try (StorageEngine engine = StorageEngine.open(fs, dir, EngineFixture.smallConfig())) {
            engine.createDataset(EngineFixture.customers()).insert(EngineFixture.customer(1, 1, 1, "A", 1));
            // Create: the trees are made, then saving the catalog that names them fails.
            fs.setInjector(FaultInjectors.failNth(FileOperation.RENAME, p -> p.toString().endsWith("catalog.json.tmp"), 2));
            assertThrows(StorageIOException.class, () -> engine.createDataset(DatasetSpec.builder("half")
                    .field("k", dev.breakwater.common.key.FieldType.INT32).primaryKey("k").build()));
            fs.clearInjector();
            crashed = fs.crashClone();
        }
        try (StorageEngine engine = StorageEngine.open(crashed, dir, EngineFixture.smallConfig())) {
            assertEquals(List.of("customer"), engine.datasetNames());
            assertEquals(1, datasetDirs(crashed, dir).size(), "the half-created dataset's directory is gone");
        }
        // Drop: the catalog stops naming the dataset, then deleting its files fails.
        FaultInjectingFileSystem fs2 = new FaultInjectingFileSystem(crashed);
        MemFileSystem crashed2;
        try (StorageEngine engine = StorageEngine.open(fs2, dir, EngineFixture.smallConfig())) {
            fs2.setInjector(FaultInjectors.failNth(FileOperation.DELETE, p -> p.toString().contains("/datasets/"), 1));
            assertThrows(StorageIOException.class, () -> engine.dropDataset("customer"));
            fs2.clearInjector();
            crashed2 = fs2.crashClone();
        }
        try (StorageEngine engine = StorageEngine.open(crashed2, dir, EngineFixture.smallConfig())) {
            assertEquals(List.of(), engine.datasetNames());
            assertEquals(List.of(), datasetDirs(crashed2, dir), "the half-dropped dataset's directory is gone");
        }
    }

    private static List<String> datasetDirs(MemFileSystem fs, Path dir) {
        try {
            return fs.list(dir.resolve("datasets"));
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    // ------------------------------------------------------------------ item 2: the directory lock

    @Test
    void aSecondOpenInThisProcessFailsAtOnceNamingThePid() throws IOException {
        Path dir = tmp.resolve("data");
        try (StorageEngine first = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            first.createDataset(EngineFixture.customers()).insert(EngineFixture.customer(1, 1, 1, "A", 1));
            DirectoryInUseException e = assertThrows(DirectoryInUseException.class,
                    () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
            assertEquals(ProcessHandle.current().pid(), e.holderPid());
            assertTrue(e.getMessage().contains(dir.toString()) && e.getMessage().contains("process " + ProcessHandle.current().pid()),
                    e.getMessage());
            // The refused attempt must not have released the holder's lock (closing a descriptor
            // of a locked file drops a POSIX lock): a third attempt is refused as well.
            assertThrows(DirectoryInUseException.class, () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
            first.dataset("customer").insert(EngineFixture.customer(1, 1, 2, "B", 2));
        }
        try (StorageEngine again = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            assertEquals(2, count(again));
        }
    }

    @Test
    void aSecondOpenOnTheInMemoryFileSystemFailsToo() {
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/data");
        try (StorageEngine first = StorageEngine.open(fs, dir, EngineFixture.smallConfig())) {
            assertThrows(DirectoryInUseException.class, () -> StorageEngine.open(fs, dir, EngineFixture.smallConfig()));
        }
        StorageEngine.open(fs, dir, EngineFixture.smallConfig()).close();
    }

    @Test
    void aFailedOpenReleasesTheLock() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Path saved = Files.move(dir.resolve("catalog.json"), tmp.resolve("catalog.saved"));
        assertThrows(DataDirectoryException.class, () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        Files.move(saved, dir.resolve("catalog.json"));
        assertOpensWithAllRows(dir); // would be DirectoryInUseException if the failed open kept the lock
    }

    @Test
    void anInjectedLockFailureFailsTheOpenCleanly() {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        Path dir = Path.of("/data");
        fs.setInjector(FaultInjectors.failNth(FileOperation.LOCK, 1));
        StorageIOException e = assertThrows(StorageIOException.class, () -> StorageEngine.open(fs, dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("LOCK"), e.getMessage());
        fs.clearInjector();
        StorageEngine.open(fs, dir, EngineFixture.smallConfig()).close();
    }

    @Test
    void anOpenWhileAnotherProcessHoldsTheDirectoryFailsNamingItsPid() throws Exception {
        Path dir = tmp.resolve("data");
        populate(dir);
        Process child = startHolder(dir);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("READY", out.readLine(), "child did not start");
            DirectoryInUseException e = assertThrows(DirectoryInUseException.class,
                    () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
            assertEquals(child.pid(), e.holderPid(), e.getMessage());
            assertTrue(e.getMessage().contains("process " + child.pid()), e.getMessage());
        } finally {
            child.destroyForcibly(); // SIGKILL: the operating system releases the lock
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertOpensWithAllRows(dir);
    }

    private static Process startHolder(Path dir) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dbreakwater")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx128m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(DirectoryHolder.class.getName());
        cmd.add(dir.toString());
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    // ------------------------------------------------------------------ item 4: damaged manifests

    private static Path primaryTreeDir(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir.resolve("datasets"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("tree-")).sorted().findFirst().orElseThrow();
        }
    }

    @Test
    void aManifestCutShortByThreeBytesRefusesTheOpenAndKeepsEveryFile() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Path tree = primaryTreeDir(dir);
        Path manifest;
        try (Stream<Path> s = Files.list(tree)) {
            manifest = s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).findFirst().orElseThrow();
        }
        long size = Files.size(manifest);
        byte[] saved = Files.readAllBytes(manifest);
        try (FileChannel ch = FileChannel.open(manifest, StandardOpenOption.WRITE)) {
            ch.truncate(size - 3);
        }
        List<String> before = listing(dir);
        assertTrue(before.stream().anyMatch(n -> n.contains(".sst")), before.toString());
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains(manifest.toString()) && e.getMessage().contains("at offset"), e.getMessage());
        assertEquals(before, listing(dir), "no table deleted, no file changed");
        Files.write(manifest, saved);
        assertOpensWithAllRows(dir);
    }

    @Test
    void aMissingCurrentRefusesTheOpenAndKeepsEveryFile() throws IOException {
        Path dir = tmp.resolve("data");
        populate(dir);
        Path current = primaryTreeDir(dir).resolve("CURRENT");
        Path saved = Files.move(current, tmp.resolve("CURRENT.saved"));
        List<String> before = listing(dir);
        DataDirectoryException e = assertThrows(DataDirectoryException.class,
                () -> StorageEngine.open(dir, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("CURRENT is missing"), e.getMessage());
        assertEquals(before, listing(dir));
        Files.move(saved, current);
        assertOpensWithAllRows(dir);
    }
}
