package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.LogRecoveryMode;
import dev.breakwater.common.config.StorageConfig;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 3 through the public API on the real file system: after a crash, one damaged record
 * in the middle of the log (the last segment with intact records after it, or a sealed segment)
 * makes open refuse, naming the segment and byte offset, with every file left byte-identical; a
 * genuinely torn tail still recovers every acknowledged commit; SALVAGE recovers the prefix and
 * keeps the damaged segments.
 *
 * <p>The crash image is a copy of the directory of a running engine taken while no flush runs (the
 * memory is large enough that none does): exactly what SIGKILL leaves, since every acknowledged
 * commit was written and fsynced.
 */
class LogCorruptionEngineTest {

    static final int ROWS = 6000;
    static final int PER_TXN = 4;

    @TempDir
    Path tmp;
    Path dir;

    static StorageConfig config(LogRecoveryMode mode) {
        return StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 64L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 48L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 4L << 20)
                .set(ConfigOptions.SIMULATED_CACHE, 1L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 1L << 30)
                .set(ConfigOptions.DIRECT_IO, false)
                .set(ConfigOptions.LOG_RECOVERY, mode)
                .build();
    }

    static DatasetSpec rows() {
        return DatasetSpec.builder("rows").field("id", INT64).field("tag", STRING).field("pad", STRING)
                .primaryKey("id").secondaryIndex("by_tag", "tag").build();
    }

    static Tuple row(long id) {
        return Tuple.of(id, "t" + (id % 31), "v".repeat((int) (id * 7 % 2000)));
    }

    @TempDir
    static Path imageRoot;
    static Path image;

    /**
     * Commits {@code ROWS} rows, {@code PER_TXN} per transaction (one log record each), and keeps a
     * crash image of the directory; each test damages its own copy of it.
     */
    @BeforeAll
    static void crashImage() throws IOException {
        Path live = imageRoot.resolve("live");
        image = imageRoot.resolve("image");
        try (StorageEngine engine = StorageEngine.open(live, config(LogRecoveryMode.STRICT))) {
            Dataset ds = engine.createDataset(rows());
            for (long id = 0; id < ROWS; id += PER_TXN) {
                long first = id;
                engine.inTransaction(tx -> {
                    for (long i = first; i < first + PER_TXN; i++) {
                        tx.upsert(ds, row(i));
                    }
                });
            }
            copyTree(live, image);
        }
    }

    @BeforeEach
    void copyImage() throws IOException {
        dir = tmp.resolve("crashed");
        copyTree(image, dir);
        assertTrue(segments().size() >= 4, "the log spans several segments: " + segments());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    List<Path> segments() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("log"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        }
    }

    static Map<String, byte[]> snapshot(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    files.put(root.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        }
        return files;
    }

    /** Every file there before is still there, byte-identical, and the log directory gained nothing. */
    static void assertUnchanged(Map<String, byte[]> before, Map<String, byte[]> after) {
        for (var e : before.entrySet()) {
            assertNotNull(after.get(e.getKey()), e.getKey() + " still exists");
            assertArrayEquals(e.getValue(), after.get(e.getKey()), e.getKey() + " is byte-identical");
        }
        for (String name : after.keySet()) {
            if (name.startsWith("log")) {
                assertTrue(before.containsKey(name), "no new file in the log directory: " + name);
            }
        }
    }

    static void flipBit(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x10);
        }
    }

    private void assertOpenRefuses(Path segment, long offset) throws IOException {
        Map<String, byte[]> before = snapshot(dir);
        StorageException e = assertThrows(StorageException.class,
                () -> StorageEngine.open(dir, config(LogRecoveryMode.STRICT)).close());
        String message = e.getMessage();
        assertTrue(message.contains(segment.getFileName().toString()), message);
        assertTrue(message.contains("byte offset"), message);
        assertTrue(message.contains("SALVAGE"), "says how to recover: " + message);
        long reported = Long.parseLong(message.replaceAll("(?s).*?byte offset (\\d+).*", "$1"));
        assertTrue(reported <= offset && offset - reported < 20_000, "offset " + reported + " is the record holding byte " + offset);
        assertUnchanged(before, snapshot(dir));
    }

    @Test
    void oneBitFlippedInTheLastSegmentWithRecordsAfterItRefusesToOpen() throws IOException {
        Path last = segments().get(segments().size() - 1);
        long offset = Files.size(last) / 10;
        flipBit(last, offset);
        assertOpenRefuses(last, offset);
    }

    @Test
    void oneBitFlippedInASealedSegmentRefusesToOpen() throws IOException {
        Path sealed = segments().get(1);
        long offset = Files.size(sealed) / 10;
        flipBit(sealed, offset);
        assertOpenRefuses(sealed, offset);
    }

    @Test
    void aTornTailAfterTheSyncedEndRecoversEveryAcknowledgedCommit() throws IOException {
        Path last = segments().get(segments().size() - 1);
        // What a crash in the middle of a group-commit write leaves: the start of a record (a
        // plausible header for the next LSN and part of its payload), then garbage.
        long end = Files.size(last);
        String name = last.getFileName().toString();
        long nextLsn = Long.parseLong(name.substring(4, name.length() - 4)) + end;
        byte[] tail = new byte[700];
        new Random(5).nextBytes(tail);
        java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(tail).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        header.putInt(0, 400).putLong(8, nextLsn);
        Files.write(last, tail, java.nio.file.StandardOpenOption.APPEND);
        try (StorageEngine engine = StorageEngine.open(dir, config(LogRecoveryMode.STRICT))) {
            assertTrue(engine.recovery.tornTail(), engine.recovery.toString());
            Dataset ds = engine.dataset("rows");
            for (long id = 0; id < ROWS; id++) {
                assertEquals(row(id), ds.get(Key.of(id)), "acknowledged row " + id);
            }
            ds.upsert(row(ROWS));
        }
        try (StorageEngine engine = StorageEngine.open(dir, config(LogRecoveryMode.STRICT))) {
            assertEquals(row(ROWS), engine.dataset("rows").get(Key.of((long) ROWS)), "the log continued after the tail");
        }
    }

    @Test
    void salvageRecoversThePrefixAndKeepsTheDamagedSegments() throws IOException {
        List<Path> segments = segments();
        Path damaged = segments.get(1);
        flipBit(damaged, Files.size(damaged) / 2);
        Map<String, byte[]> before = snapshot(dir);
        long present;
        try (StorageEngine engine = StorageEngine.open(dir, config(LogRecoveryMode.SALVAGE))) {
            assertTrue(engine.recovery.salvaged(), engine.recovery.toString());
            Dataset ds = engine.dataset("rows");
            present = 0;
            while (present < ROWS && ds.get(Key.of(present)) != null) {
                assertEquals(row(present), ds.get(Key.of(present)));
                present++;
            }
            assertTrue(present > 0 && present < ROWS, "a proper prefix survives: " + present);
            for (long id = present; id < ROWS; id++) {
                assertNull(ds.get(Key.of(id)), "row " + id + " after the damage is gone, not half there");
            }
            ds.upsert(row(ROWS + 1));
        }
        // The damaged segment and every later one were moved aside, byte for byte.
        Path aside;
        try (Stream<Path> s = Files.list(dir.resolve("log"))) {
            aside = s.filter(p -> p.getFileName().toString().startsWith("salvaged-")).findFirst().orElseThrow();
        }
        for (Path segment : segments) {
            byte[] kept = Files.readAllBytes(aside.resolve(segment.getFileName()));
            assertArrayEquals(before.get("log/" + segment.getFileName()), kept, segment + " kept as it was");
        }
        // A strict open afterwards is clean and has the rows written after the salvage.
        try (StorageEngine engine = StorageEngine.open(dir, config(LogRecoveryMode.STRICT))) {
            Dataset ds = engine.dataset("rows");
            assertEquals(row(ROWS + 1), ds.get(Key.of((long) ROWS + 1)));
            assertEquals(row(present - 1), ds.get(Key.of(present - 1)));
        }
    }

    @Test
    void aDamagedCheckpointRefusesToOpenInsteadOfSkippingReplay() throws IOException {
        Path checkpoint = dir.resolve("checkpoint.json");
        assertTrue(Files.exists(checkpoint), "the monitor writes a checkpoint at its first tick");
        flipBit(checkpoint, Files.size(checkpoint) - 20);
        Map<String, byte[]> before = snapshot(dir);
        StorageException e = assertThrows(StorageException.class,
                () -> StorageEngine.open(dir, config(LogRecoveryMode.STRICT)).close());
        assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());
        assertUnchanged(before, snapshot(dir));
        try (StorageEngine engine = StorageEngine.open(dir, config(LogRecoveryMode.SALVAGE))) {
            Dataset ds = engine.dataset("rows");
            for (long id = 0; id < ROWS; id++) {
                assertEquals(row(id), ds.get(Key.of(id)), "row " + id);
            }
        }
    }
}
