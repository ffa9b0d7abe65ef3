package dev.breakwater.tools;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The inspection commands on a data directory written through the public API: what they print,
 * that verify finds damage in an SSTable page and in a log record and names where, that nothing
 * they do changes a byte, and that they refuse a directory whose LOCK an engine holds.
 */
class BreakwaterCliTest {

    static final int DISTRICTS = 3;
    static final int PER_DISTRICT = 1000;
    static final int DELETED = 10;

    @TempDir
    static Path shared;
    static Path pristine;

    /** Output of one command run. */
    record Run(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    @BeforeAll
    static void writeDataDirectory() {
        pristine = shared.resolve("pristine");
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 24L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 8L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 1L << 20)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 64L << 10)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 4L << 20)
                .set(ConfigOptions.DIRECT_IO, false)
                .build();
        try (StorageEngine engine = StorageEngine.open(pristine, config)) {
            Dataset customer = engine.createDataset(DatasetSpec.builder("customer")
                    .field("w", INT32).field("d", INT32).field("id", INT32).field("last", STRING).field("balance", INT64)
                    .primaryKey("w", "d", "id").secondaryIndex("by_last", "w", "d", "last").build());
            for (int d = 1; d <= DISTRICTS; d++) {
                for (int id = 1; id <= PER_DISTRICT; id++) {
                    customer.upsert(Tuple.of(1, d, id, "NAME" + (id % 50), (long) id * 10));
                }
            }
            for (int id = 1; id <= DELETED; id++) {
                customer.delete(Key.of(1, 2, id));
            }
            engine.flushAndAwaitMerges();
        }
    }

    static Path copy(String name) throws IOException {
        Path to = shared.resolve(name);
        try (Stream<Path> files = Files.walk(pristine)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(pristine.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = BreakwaterCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Every file under {@code dir} with its bytes. */
    static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.toList()) {
                all.put(dir.relativize(p).toString() + (Files.isDirectory(p) ? "/" : ""),
                        Files.isDirectory(p) ? new byte[0] : Files.readAllBytes(p));
            }
        }
        return all;
    }

    static void assertSameFiles(Map<String, byte[]> before, Map<String, byte[]> after) {
        assertEquals(before.keySet(), after.keySet(), "the set of files changed");
        for (var e : before.entrySet()) {
            assertTrue(Arrays.equals(e.getValue(), after.get(e.getKey())), "file " + e.getKey() + " changed");
        }
    }

    static List<Path> sstables(Path dir, String index) throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("datasets"))) {
            return files.filter(p -> p.toString().endsWith(".sst")).sorted().toList();
        }
    }

    static Path onlySegment(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("log"))) {
            List<Path> segs = files.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
            assertFalse(segs.isEmpty(), "the engine left no log segment");
            return segs.get(segs.size() - 1);
        }
    }

    static void flipBit(Path file, long offset) throws IOException {
        byte[] b = Files.readAllBytes(file);
        b[(int) offset] ^= 0x10;
        Files.write(file, b);
    }

    @Test
    void infoListsDatasetsTreesFilesAndLog() throws IOException {
        Path dir = copy("info");
        Run r = run("info", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("dataset customer (id "), r.out());
        assertTrue(r.out().contains("index primary (primary): key (w, d, id)"), r.out());
        assertTrue(r.out().contains("index by_last: key (w, d, last, w, d, id)"), r.out());
        String firstTable = sstables(dir, "primary").get(0).getFileName().toString();
        assertTrue(r.out().contains(firstTable), r.out());
        assertTrue(r.out().contains(onlySegment(dir).getFileName().toString()), r.out());
        assertTrue(r.out().contains("checkpoint: log start LSN"), r.out());
        assertTrue(r.out().contains("recovery at the next open has nothing to replay"), r.out());
    }

    @Test
    void infoShowsADatasetsOwnMemoryComponentKind() {
        Path dir = shared.resolve("override");
        try (StorageEngine engine = StorageEngine.open(dir, StorageConfig.builder().set(ConfigOptions.DIRECT_IO, false).build())) {
            engine.createDataset(DatasetSpec.builder("kv").field("k", INT32).field("v", STRING).primaryKey("k")
                    .memoryComponent(dev.breakwater.txn.MemoryComponentOverride.hash(
                            dev.breakwater.common.config.MemoryComponentKind.HASH_SKIP_LIST, 4, 64)).build());
            engine.createDataset(DatasetSpec.builder("plain").field("k", INT32).primaryKey("k").build());
        }
        Run r = run("info", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("  memory component: HASH_SKIP_LIST, hash prefix 4, 64 buckets"), r.out());
        assertEquals(1, r.lines().stream().filter(l -> l.contains("memory component")).count(), "the dataset without one shows none: " + r.out());
    }

    @Test
    void verifyPassesACleanDirectoryAndChangesNothing() throws IOException {
        Path dir = copy("clean");
        Map<String, byte[]> before = snapshot(dir);
        Run r = run("verify", dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("no problems"), r.out());
        assertFalse(r.out().contains("PROBLEM"), r.out());
        run("info", dir.toString());
        run("dump", dir.toString(), "--dataset", "customer");
        assertSameFiles(before, snapshot(dir));
    }

    @Test
    void verifyNamesAFlippedBitInAnSSTablePage() throws IOException {
        Path dir = copy("bad-sst");
        Path table = sstables(dir, "primary").get(0);
        flipBit(table, 4096 + 200); // inside page 1
        Map<String, byte[]> before = snapshot(dir);
        Run r = run("verify", dir.toString());
        assertEquals(BreakwaterCli.PROBLEMS, r.exit(), r.out());
        String name = dir.relativize(table).toString();
        assertTrue(r.out().contains("PROBLEM " + name + " page 1 (offset 4096): corrupt page 1"), r.out());
        assertTrue(r.out().contains("checksum mismatch"), r.out());
        assertSameFiles(before, snapshot(dir));
    }

    /** Swaps pages {@code a} and {@code b} of a 4 KiB-page file, fixing their page numbers and checksums. */
    static void swapPages(Path file, int a, int b) throws IOException {
        byte[] all = Files.readAllBytes(file);
        byte[] pa = Arrays.copyOfRange(all, a * 4096, (a + 1) * 4096);
        byte[] pb = Arrays.copyOfRange(all, b * 4096, (b + 1) * 4096);
        System.arraycopy(reseal(pb, a), 0, all, a * 4096, 4096);
        System.arraycopy(reseal(pa, b), 0, all, b * 4096, 4096);
        Files.write(file, all);
    }

    static byte[] reseal(byte[] page, int pageNo) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(page).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(dev.breakwater.common.page.PageDescriptor.PAGE_NUMBER_OFFSET, pageNo);
        dev.breakwater.common.page.PageChecksum.seal(b, 4096);
        return page;
    }

    @Test
    void verifyNamesThePageWhereKeyOrderBreaksAndGoesOnPastADamagedLeaf() throws IOException {
        Path dir = copy("bad-order");
        Path table = sstables(dir, "primary").get(0);
        swapPages(table, 0, 1); // both leaves pass their checksums, but leaf 1 now holds the smaller keys
        flipBit(table, 2 * 4096 + 300); // and leaf 2 is damaged
        Run r = run("verify", dir.toString());
        assertEquals(BreakwaterCli.PROBLEMS, r.exit(), r.out());
        String name = dir.relativize(table).toString();
        assertTrue(r.out().contains("PROBLEM " + name + " page 1 (offset 4096): entry 0: key "), r.out());
        assertTrue(r.out().contains("is not greater than the key before it"), r.out());
        assertTrue(r.out().contains("PROBLEM " + name + " page 2 (offset 8192): corrupt page 2"), r.out());
        assertFalse(r.out().contains("page 3 (offset"), "leaves after the damaged one are in order: " + r.out());
    }

    @Test
    void verifyNamesAFlippedBitInALogRecord() throws IOException {
        Path dir = copy("bad-log");
        Path segment = onlySegment(dir);
        assertTrue(Files.size(segment) > 64, "the segment holds records");
        flipBit(segment, 20); // payload of the first record (the header is 16 bytes)
        Map<String, byte[]> before = snapshot(dir);
        Run r = run("verify", dir.toString());
        assertEquals(BreakwaterCli.PROBLEMS, r.exit(), r.out());
        String name = dir.relativize(segment).toString();
        assertTrue(r.out().contains("PROBLEM " + name + " offset 0 (LSN "), r.out());
        assertTrue(r.out().contains("BAD_CHECKSUM"), r.out());
        assertSameFiles(before, snapshot(dir));
    }

    @Test
    void verifyReportsATornManifestAndAnOrphanTableButRepairsNeither() throws IOException {
        Path dir = copy("torn-manifest");
        Path table = sstables(dir, "primary").get(0);
        Path treeDir = table.getParent();
        Path manifest = treeDir.resolve(Files.readString(treeDir.resolve("CURRENT")).trim());
        long goodBytes = Files.size(manifest);
        // What an append cut before its checksum was written leaves (the engine drops it at open).
        Files.write(manifest, new byte[] {100, 0, 0, 0, 0, 0}, java.nio.file.StandardOpenOption.APPEND);
        Path orphan = treeDir.resolve("999999.sst");
        Files.copy(table, orphan);
        Map<String, byte[]> before = snapshot(dir);
        Run r = run("verify", dir.toString());
        assertEquals(BreakwaterCli.PROBLEMS, r.exit(), r.out());
        assertTrue(r.out().contains("PROBLEM " + dir.relativize(manifest) + " offset " + goodBytes + ": "), r.out());
        assertTrue(r.out().contains("note    " + dir.relativize(orphan) + ": no installed version names this SSTable"), r.out());
        assertSameFiles(before, snapshot(dir));
    }

    @Test
    void dumpPrintsTheDatasetsRecordsWithinARange() throws IOException {
        Path dir = copy("dump");
        Run all = run("dump", dir.toString(), "--dataset", "customer", "--json");
        assertEquals(0, all.exit(), all.err());
        assertEquals(DISTRICTS * PER_DISTRICT - DELETED, all.lines().size());
        assertEquals("{\"key\":[1,1,1],\"record\":{\"w\":1,\"d\":1,\"id\":1,\"last\":\"NAME1\",\"balance\":10}}", all.lines().get(0));

        Run district = run("dump", dir.toString(), "--dataset", "customer", "--from", "1,2", "--to", "1,2");
        assertEquals(0, district.exit(), district.err());
        assertEquals(PER_DISTRICT - DELETED, district.lines().size());
        assertEquals("(1, 2, 11) -> [1, 2, 11, \"NAME11\", 110]", district.lines().get(0));

        Run byLast = run("dump", dir.toString(), "--dataset", "customer", "--index", "by_last", "--from", "1,3,NAME7",
                "--to", "1,3,NAME7");
        assertEquals(0, byLast.exit(), byLast.err());
        assertEquals(PER_DISTRICT / 50, byLast.lines().size());
        assertEquals("(1, 3, \"NAME7\", 1, 3, 7)", byLast.lines().get(0));
    }

    @Test
    void dumpPrintsOneSSTableDecodedWithTheCatalog() throws IOException {
        Path dir = copy("dump-file");
        Path table = sstables(dir, "primary").get(0);
        Run r = run("dump", table.toString(), "--limit", "1");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.lines().size());
        assertTrue(r.lines().get(0).startsWith("(1, "), r.out());
    }

    @Test
    void refusesADirectoryWhoseLockAnEngineHolds() throws IOException {
        Path dir = copy("locked");
        Path lockFile = dir.resolve("LOCK");
        Files.writeString(lockFile, "4242\n");
        try (var ch = java.nio.channels.FileChannel.open(lockFile, java.nio.file.StandardOpenOption.READ,
                java.nio.file.StandardOpenOption.WRITE); var lock = ch.lock()) {
            assertTrue(lock.isValid() && !lock.isShared(), "the test holds the engine's exclusive lock");
            for (String[] args : List.of(new String[] {"info", dir.toString()}, new String[] {"verify", dir.toString()},
                    new String[] {"dump", dir.toString(), "--dataset", "customer"})) {
                Run r = run(args);
                assertEquals(BreakwaterCli.FAILED, r.exit(), args[0]);
                assertTrue(r.err().contains("engine (pid 4242) holds " + dir), r.err());
                assertEquals("", r.out(), args[0] + " printed before refusing");
            }
        }
        assertEquals("4242\n", Files.readString(lockFile));
        assertEquals(0, run("info", dir.toString()).exit(), "released lock: info runs");
    }

    @Test
    void anAbsentLockFileIsNotCreated() throws IOException {
        Path dir = copy("nolock");
        Files.deleteIfExists(dir.resolve("LOCK")); // the engine leaves its LOCK file behind; a copy may lack it
        assertEquals(0, run("info", dir.toString()).exit());
        assertFalse(Files.exists(dir.resolve("LOCK")));
    }

    @Test
    void statsPrettyPrintsTheEndpointsJson() throws IOException {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/stats", exchange -> {
            byte[] body = "{\"operations\":{\"reads\":3},\"cache\":[1,2]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/stats") ? 200 : 404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            Run r = run("stats", base);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("\"operations\" : {\n    \"reads\" : 3\n  }"), r.out());
            Run missing = run("stats", base + "/stats/nothing");
            assertEquals(BreakwaterCli.FAILED, missing.exit());
            assertTrue(missing.err().contains("answered HTTP 404"), missing.err());
        } finally {
            server.stop(0);
        }
    }
}
