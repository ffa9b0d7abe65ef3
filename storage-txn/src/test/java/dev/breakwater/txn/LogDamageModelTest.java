package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.LogRecoveryMode;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.txn.log.LogRecordFormat;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The corruption test for the log and the checkpoint: damage a seeded random offset of a log segment
 * or of {@code checkpoint.json} (a flipped bit, a run of random bytes, or a run of zeros) in a crash
 * image and in a cleanly closed directory, then open. The open must either refuse with an error
 * that names the damaged file, leaving the files byte-identical, or serve exactly the acknowledged
 * rows (a model kept beside the engine), with the secondary index equal to its primary.
 *
 * <p>One exception, by necessity: in a crash image, damage inside the final record of the log is
 * indistinguishable from a write the crash cut short, so that record's commit may be missing (and
 * nothing else). After a clean close the checkpoint records the durable end, so there it is caught.
 * {@code -Dbreakwater.logDamageTrials=N} per image (default 30).
 */
class LogDamageModelTest {

    private static final int TRIALS = Integer.getInteger("breakwater.logDamageTrials", 30);
    private static final Path DIR = Path.of("/db");
    private static final Path LOG = DIR.resolve("log");

    private static MemFileSystem crashImage;
    private static MemFileSystem cleanImage;
    /** Acknowledged state: id to row, and the same before the last commit. */
    private static Map<Long, Tuple> model;
    private static Map<Long, Tuple> modelBeforeLast;

    @BeforeAll
    static void build() {
        MemFileSystem mem = new MemFileSystem();
        Random rnd = new Random(2026);
        Map<Long, Tuple> rows = new HashMap<>();
        Map<Long, Tuple> previous = null;
        StorageEngine engine = StorageEngine.open(mem, DIR, EngineFixture.smallConfig());
        Dataset ds = engine.createDataset(LogCorruptionEngineTest.rows());
        for (int txn = 0; txn < 2500; txn++) {
            previous = new HashMap<>(rows);
            int n = 1 + rnd.nextInt(4);
            Map<Long, Tuple> changes = new HashMap<>();
            for (int i = 0; i < n; i++) {
                long id = rnd.nextInt(3000);
                changes.put(id, rnd.nextInt(5) == 0 ? null
                        : Tuple.of(id, "t" + rnd.nextInt(40), "v".repeat(rnd.nextInt(700)) + txn));
            }
            engine.inTransaction(tx -> changes.forEach((id, row) -> {
                if (row == null) {
                    tx.delete(ds, Key.of(id));
                } else {
                    tx.upsert(ds, row);
                }
            }));
            changes.forEach((id, row) -> {
                if (row == null) {
                    rows.remove(id);
                } else {
                    rows.put(id, row);
                }
            });
        }
        crashImage = mem.crashClone();
        engine.close();
        cleanImage = mem.crashClone();
        model = rows;
        modelBeforeLast = previous;
    }

    @Test
    void damagedCrashImageRefusesOrServesTheAcknowledgedRows() throws IOException {
        run(crashImage, true, 1);
    }

    @Test
    void damagedCleanDirectoryRefusesOrServesTheAcknowledgedRows() throws IOException {
        run(cleanImage, false, 2);
    }

    @Test
    void afterACleanCloseADamagedFinalRecordIsCaughtByTheCheckpoint() throws IOException {
        MemFileSystem fs = cleanImage.crashClone();
        Path last = lastSegment(fs);
        long finalRecord = finalRecordOffset(cleanImage, last);
        damageAt(fs, last, finalRecord + LogRecordFormat.HEADER_LENGTH);
        StorageException e = org.junit.jupiter.api.Assertions.assertThrows(StorageException.class,
                () -> StorageEngine.open(fs, DIR, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains("durable records are missing"), e.getMessage());
        assertTrue(e.getMessage().contains(last.getFileName().toString()), e.getMessage());
    }

    @Test
    void aSalvageInterruptedByAFailureIsRefusedStrictlyAndCompletedBySalvage() throws IOException {
        MemFileSystem mem = crashImage.crashClone();
        long[] firsts = SegmentFiles.list(mem, LOG);
        Path damaged = SegmentFiles.path(LOG, firsts[firsts.length - 1]);
        damageAt(mem, damaged, 100);
        StorageConfig salvage = EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.LOG_RECOVERY, LogRecoveryMode.SALVAGE).build();
        // The salvage dies after moving the first old segment aside.
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(mem);
        faulty.setInjector(FaultInjectors.failNth(FileOperation.RENAME, p -> p.toString().contains("/log/"), 2));
        org.junit.jupiter.api.Assertions.assertThrows(StorageException.class,
                () -> StorageEngine.open(faulty, DIR, salvage));
        MemFileSystem afterCrash = mem.crashClone();
        StorageException strict = org.junit.jupiter.api.Assertions.assertThrows(StorageException.class,
                () -> StorageEngine.open(afterCrash, DIR, EngineFixture.smallConfig()));
        assertTrue(strict.getMessage().contains("SALVAGE"), strict.getMessage());
        Map<Long, Tuple> served;
        try (StorageEngine engine = StorageEngine.open(afterCrash, DIR, salvage)) {
            served = scan(engine.dataset("rows"), "after salvage");
            engine.dataset("rows").upsert(Tuple.of(99_999L, "t", "after"));
        }
        assertTrue(served.size() > 0, "the prefix survives");
        for (long first : firsts) {
            assertTrue(afterCrash.list(LOG).stream().filter(n -> n.startsWith("salvaged-")).anyMatch(d -> {
                try {
                    return afterCrash.exists(LOG.resolve(d).resolve(SegmentFiles.fileName(first)));
                } catch (RuntimeException ex) {
                    return false;
                }
            }), "segment " + first + " was kept aside");
        }
        try (StorageEngine engine = StorageEngine.open(afterCrash.crashClone(), DIR, EngineFixture.smallConfig())) {
            assertEquals("after", engine.dataset("rows").get(Key.of(99_999L)).getString(2));
        }
    }

    private static void damageAt(FileSystem fs, Path file, long offset) throws IOException {
        try (StorageFile f = fs.open(file, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read(offset, b);
            b.put(0, (byte) (b.get(0) ^ 0x04)).flip();
            f.write(offset, b);
            f.sync();
        }
    }

    private void run(MemFileSystem image, boolean crashed, long seed) throws IOException {
        Random rnd = new Random(seed);
        int refused = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            MemFileSystem fs = image.crashClone();
            List<Path> files = new ArrayList<>();
            for (long first : SegmentFiles.list(fs, LOG)) {
                files.add(SegmentFiles.path(LOG, first));
            }
            if (fs.exists(DIR.resolve(CheckpointFile.NAME))) {
                files.add(DIR.resolve(CheckpointFile.NAME));
            }
            Path target = rnd.nextInt(5) == 0 ? files.get(files.size() - 1) : files.get(rnd.nextInt(files.size()));
            long size = fs.size(target);
            if (size == 0) {
                continue;
            }
            long offset = (long) (rnd.nextDouble() * size);
            String what = damage(fs, target, offset, rnd) + " at offset " + offset + " of " + target + " (trial " + trial + ")";
            boolean inFinalRecord = crashed && target.equals(lastSegment(fs)) && offset >= finalRecordOffset(image, target);
            Map<String, byte[]> before = snapshot(fs);
            StorageEngine engine;
            try {
                engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig());
            } catch (StorageException e) {
                assertTrue(e.getMessage().contains(target.getFileName().toString()), what + ": " + e.getMessage());
                Map<String, byte[]> after = snapshot(fs);
                assertEquals(before.keySet(), after.keySet(), what);
                before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), what + ": " + name + " changed"));
                refused++;
                continue;
            }
            try (engine) {
                Map<Long, Tuple> served = scan(engine.dataset("rows"), what);
                if (!served.equals(model) && !(inFinalRecord && served.equals(modelBeforeLast))) {
                    fail(what + ": open succeeded but serves other rows than were acknowledged ("
                            + served.size() + " rows, expected " + model.size() + ")");
                }
            }
        }
        assertTrue(refused > 0, "some damage was refused");
    }

    private static String damage(FileSystem fs, Path file, long offset, Random rnd) throws IOException {
        try (StorageFile f = fs.open(file, OpenOption.WRITE)) {
            int kind = rnd.nextInt(3);
            int length = kind == 0 ? 1 : (int) Math.min(1 + rnd.nextInt(64), f.size() - offset);
            ByteBuffer b = ByteBuffer.allocate(length);
            f.read(offset, b);
            String what;
            if (kind == 0) {
                b.put(0, (byte) (b.get(0) ^ (1 << rnd.nextInt(8))));
                what = "flipped bit";
            } else if (kind == 1) {
                byte[] junk = new byte[length];
                rnd.nextBytes(junk);
                b.clear();
                b.put(junk);
                what = length + " random bytes";
            } else {
                b.clear();
                b.put(new byte[length]);
                what = length + " zero bytes";
            }
            b.flip();
            f.write(offset, b);
            f.sync();
            return what;
        }
    }

    private static Path lastSegment(FileSystem fs) throws IOException {
        long[] firsts = SegmentFiles.list(fs, LOG);
        return SegmentFiles.path(LOG, firsts[firsts.length - 1]);
    }

    /** Offset of the final record of segment {@code last} in the undamaged {@code image}. */
    private static long finalRecordOffset(FileSystem image, Path last) throws IOException {
        try (StorageFile f = image.open(last, OpenOption.READ)) {
            long offset = 0;
            long previous = 0;
            ByteBuffer header = ByteBuffer.allocate(LogRecordFormat.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            while (offset < f.size()) {
                header.clear();
                f.read(offset, header);
                previous = offset;
                offset += LogRecordFormat.recordLength(header.getInt(LogRecordFormat.LENGTH_OFFSET));
            }
            return previous;
        }
    }

    private static Map<Long, Tuple> scan(Dataset ds, String what) {
        Map<Long, Tuple> rows = new TreeMap<>();
        try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
            c.forEachRemaining(t -> rows.put(t.getLong(0), t));
        }
        List<Long> indexed = new ArrayList<>();
        try (Cursor<Tuple> c = ds.index("by_tag").scan(KeyRange.all())) {
            c.forEachRemaining(t -> indexed.add(t.getLong(0)));
        }
        assertEquals(rows.size(), indexed.size(), what + ": the secondary index has as many entries as the primary");
        assertTrue(rows.keySet().containsAll(indexed), what + ": every index entry has its row");
        return rows;
    }

    /** The log segments and the checkpoint, with their bytes. */
    private static Map<String, byte[]> snapshot(FileSystem fs) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        List<Path> paths = new ArrayList<>();
        for (String name : fs.list(LOG)) {
            if (SegmentFiles.parse(name) >= 0) {
                paths.add(LOG.resolve(name));
            }
        }
        paths.add(DIR.resolve(CheckpointFile.NAME));
        for (Path p : paths) {
            if (fs.exists(p)) {
                try (StorageFile f = fs.open(p, OpenOption.READ)) {
                    ByteBuffer b = ByteBuffer.allocate((int) f.size());
                    f.read(0, b);
                    files.put(p.toString(), b.array());
                }
            }
        }
        return files;
    }
}
