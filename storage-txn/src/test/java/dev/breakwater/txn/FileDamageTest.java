package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The corruption test for every kind of file but the log's records and the checkpoint's bytes
 * (those are {@link LogDamageModelTest}'s; here the log and the checkpoint are only truncated). A
 * small directory is built through the public API — two datasets with a secondary index each,
 * several SSTables per tree, manifests, a log, a checkpoint, the catalog and the marker — and
 * closed cleanly (merges leave obsolete tables behind, which the next successful open removes). Then, per kind of file, seeded trials flip a bit or truncate at a random offset
 * of a random file of that kind (for SSTables: inside a random page of that type of a table its
 * manifest lists), and open plus a
 * full read (scans of every primary and index, a get of every row and of absent keys) must:
 * <ul>
 *   <li>refuse to open with a {@link StorageException} or I/O exception naming the damaged file,
 *       leaving every file of the directory byte-identical; or</li>
 *   <li>fail the read with such an exception — for a damaged SSTable page a
 *       {@link CorruptPageException} naming the file and that page; or</li>
 *   <li>serve exactly the rows written (a model kept beside the engine), each index equal to its
 *       primary — allowed only where no read needed the damaged bytes (an index or Bloom page off
 *       every lookup's path); damage to a leaf or footer page of a live table is always caught.</li>
 * </ul>
 * {@code -Dbreakwater.fileDamageTrials=N} trials per kind (default 6).
 */
class FileDamageTest {

    /** The kinds of file damaged; an SSTable's pages are told apart by their type byte. */
    enum Kind { SST_LEAF, SST_INDEX, SST_BLOOM, SST_FOOTER, MANIFEST, CURRENT, CATALOG, MARKER, CHECKPOINT_TRUNCATED, LOG_TRUNCATED }

    private static final int TRIALS = Integer.getInteger("breakwater.fileDamageTrials", 6);
    private static final Path DIR = Path.of("/db");
    private static final int PAGE = 4096;
    private static final int TYPE_OFFSET = 6;
    private static final List<String> DATASETS = List.of("orders", "items");

    private static MemFileSystem image;
    /** Dataset name to id to row: what was written. */
    private static final Map<String, Map<Long, Tuple>> MODEL = new TreeMap<>();
    /** Per kind: trials refused at open, failed at read, served correctly. */
    private static final Map<Kind, int[]> OUTCOMES = new EnumMap<>(Kind.class);

    static DatasetSpec spec(String name) {
        return DatasetSpec.builder(name).field("id", INT64).field("tag", STRING).field("pad", STRING)
                .primaryKey("id").secondaryIndex("by_tag", "tag").build();
    }

    @BeforeAll
    static void build() {
        MemFileSystem mem = new MemFileSystem();
        Random rnd = new Random(11);
        try (StorageEngine engine = StorageEngine.open(mem, DIR, EngineFixture.smallConfig())) {
            for (String name : DATASETS) {
                engine.createDataset(spec(name));
                MODEL.put(name, new TreeMap<>());
            }
            for (int round = 0; round < 4; round++) {
                for (String name : DATASETS) {
                    Dataset ds = engine.dataset(name);
                    Map<Long, Tuple> rows = MODEL.get(name);
                    for (int i = 0; i < 250; i++) {
                        long id = rnd.nextInt(1500);
                        if (round > 0 && rnd.nextInt(6) == 0) {
                            ds.delete(Key.of(id));
                            rows.remove(id);
                        } else {
                            Tuple t = Tuple.of(id, "t" + rnd.nextInt(23), "p".repeat(rnd.nextInt(400)) + round);
                            ds.upsert(t);
                            rows.put(id, t);
                        }
                    }
                }
                for (var t : engine.trees.values()) {
                    try {
                        t.flush();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
            // Some rows only in memory at close: the close flushes them.
            Dataset ds = engine.dataset(DATASETS.get(0));
            for (long id = 2000; id < 2050; id++) {
                Tuple t = Tuple.of(id, "late", "x");
                ds.upsert(t);
                MODEL.get(DATASETS.get(0)).put(id, t);
            }
        }
        image = mem.crashClone();
    }

    @AfterAll
    static void report() {
        OUTCOMES.forEach((kind, n) -> System.out.printf("file damage %-20s %2d refused at open, %2d failed at read, %2d served right%n",
                kind, n[0], n[1], n[2]));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void damageIsRefusedOrDetectedNeverServed(Kind kind) throws IOException {
        Random rnd = new Random(31L * kind.ordinal() + 7);
        List<Target> targets = targets(image, kind);
        assertTrue(!targets.isEmpty(), "the image holds a file of kind " + kind);
        for (int trial = 0; trial < TRIALS; trial++) {
            MemFileSystem fs = image.crashClone();
            Target target = targets.get(rnd.nextInt(targets.size()));
            boolean truncate = kind == Kind.CHECKPOINT_TRUNCATED || kind == Kind.LOG_TRUNCATED || rnd.nextBoolean();
            long offset = target.start + (long) (rnd.nextDouble() * target.length);
            String what;
            if (truncate) {
                try (StorageFile f = fs.open(target.file, OpenOption.WRITE)) {
                    f.truncate(offset);
                    f.sync();
                }
                what = "truncated at " + offset;
            } else {
                int bit = rnd.nextInt(8);
                flip(fs, target.file, offset, bit);
                what = "bit " + bit + " flipped at " + offset;
            }
            what = kind + ": " + target.file + " " + what + " (trial " + trial + ")";
            trial(fs, kind, target, truncate, what);
        }
    }

    /**
     * The catalog has no checksum, so single-bit damage to it can leave valid JSON: a tree id that
     * becomes another tree's (here the primary's id set to its index's: before, the open was refused
     * for an "unnamed" tree directory, telling the user to move their data away), a dataset name the
     * schema rules refuse (before, the error did not name the catalog), or a next id at or below ids
     * in use (before, accepted: new datasets would have reused live ids).
     */
    @org.junit.jupiter.api.Test
    void aCatalogThatBitDamageLeftValidButInconsistentIsRefusedNamingIt() throws IOException {
        String catalog = new String(read(image, DIR.resolve(Catalog.FILE)), java.nio.charset.StandardCharsets.UTF_8);
        String orders = catalog.substring(catalog.indexOf("\"orders\""));
        String primary = orders.replaceAll("(?s)^.*?\"primaryTree\"\\s*:\\s*(\\d+).*$", "$1");
        String index = orders.replaceAll("(?s)^.*?\"tree\"\\s*:\\s*(\\d+).*$", "$1");
        List<String> damaged = List.of(
                catalog.replaceFirst("(\"primaryTree\"\\s*:\\s*)" + primary + "\\b", "$1" + index),
                catalog.replace("\"items\"", "\"it%ms\""),
                catalog.replaceFirst("(\"nextId\"\\s*:\\s*)\\d+", "$12"));
        for (String text : damaged) {
            assertTrue(!text.equals(catalog), "the damage applies");
            MemFileSystem fs = image.crashClone();
            try (StorageFile f = fs.open(DIR.resolve(Catalog.FILE), OpenOption.WRITE, OpenOption.TRUNCATE)) {
                f.write(0, ByteBuffer.wrap(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                f.sync();
            }
            Map<String, byte[]> before = snapshot(fs, DIR);
            StorageException e = org.junit.jupiter.api.Assertions.assertThrows(StorageException.class,
                    () -> StorageEngine.open(fs, DIR, EngineFixture.smallConfig()).close());
            assertNames(e, Catalog.FILE, "damaged catalog");
            assertTrue(e.getMessage().contains("damaged"), e.getMessage());
            Map<String, byte[]> after = snapshot(fs, DIR);
            assertEquals(before.keySet(), after.keySet());
            before.forEach((file, bytes) -> assertArrayEquals(bytes, after.get(file), file));
        }
    }

    private static void trial(MemFileSystem fs, Kind kind, Target target, boolean truncated, String what) throws IOException {
        String name = target.file.getFileName().toString();
        Map<String, byte[]> before = snapshot(fs, DIR);
        StorageEngine engine;
        try {
            engine = StorageEngine.open(fs, DIR, EngineFixture.smallConfig());
        } catch (StorageException | UncheckedIOException e) {
            assertNames(e, name, what + ", refused at open");
            Map<String, byte[]> after = snapshot(fs, DIR);
            assertEquals(before.keySet(), after.keySet(), what + ": a refused open created or deleted files");
            before.forEach((file, bytes) -> assertArrayEquals(bytes, after.get(file), what + ": a refused open changed " + file));
            count(kind, 0);
            return;
        }
        try (engine) {
            Map<String, Map<Long, Tuple>> served = new TreeMap<>();
            try {
                for (String ds : DATASETS) {
                    served.put(ds, readAll(engine.dataset(ds), what));
                }
            } catch (StorageException | UncheckedIOException e) {
                assertNames(e, name, what + ", failed at read");
                if (kind.name().startsWith("SST_") && !truncated) {
                    CorruptPageException page = find(e, CorruptPageException.class);
                    assertTrue(page != null && page.file().endsWith(name) && page.pageNumber() == target.page,
                            what + ": the read names the file and page " + target.page + ": " + e);
                }
                count(kind, 1);
                return;
            }
            assertEquals(MODEL, served, what + ": open and read succeeded but served other rows than were written");
            // A full scan reads every leaf of every live table, and open reads every footer: damage
            // there cannot go unnoticed. An index or Bloom page that no read needed may.
            assertTrue(kind != Kind.SST_LEAF && kind != Kind.SST_FOOTER, what + ": the damage went undetected");
            count(kind, 2);
        }
    }

    private static void count(Kind kind, int outcome) {
        synchronized (OUTCOMES) {
            OUTCOMES.computeIfAbsent(kind, k -> new int[3])[outcome]++;
        }
    }

    /** Scans primary and index, gets every written row and some absent keys; returns the primary's rows. */
    private static Map<Long, Tuple> readAll(Dataset ds, String what) {
        Map<Long, Tuple> rows = new TreeMap<>();
        try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
            c.forEachRemaining(t -> rows.put(t.getLong(0), t));
        }
        Map<Long, Tuple> indexed = new TreeMap<>();
        try (Cursor<Tuple> c = ds.index("by_tag").scan(KeyRange.all())) {
            c.forEachRemaining(t -> indexed.put(t.getLong(0), t));
        }
        assertEquals(rows, indexed, what + ": the index of " + ds.name() + " equals its primary");
        for (long id = 0; id < 2100; id++) {
            Tuple got = ds.get(Key.of(id));
            if (got == null ? rows.containsKey(id) : !got.equals(rows.get(id))) {
                fail(what + ": get(" + id + ") of " + ds.name() + " disagrees with its scan: " + got);
            }
        }
        return rows;
    }

    /** The exception (or one in its cause chain) is a documented kind and names the file. */
    private static void assertNames(Throwable e, String file, String what) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" / ");
        }
        if (!messages.toString().contains(file)) {
            throw new AssertionError(what + ": the error does not name " + file + ": " + messages, e);
        }
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** A file to damage and the byte range to damage it in (one page of an SSTable, else the whole file). */
    private record Target(Path file, long page, long start, long length) {
    }

    private static List<Target> targets(FileSystem fs, Kind kind) throws IOException {
        List<Target> out = new ArrayList<>();
        for (String file : snapshot(fs, DIR).keySet()) {
            Path p = Path.of(file);
            String name = p.getFileName().toString();
            long size = fs.size(p);
            if (size == 0) {
                continue;
            }
            switch (kind) {
                case SST_LEAF, SST_INDEX, SST_BLOOM, SST_FOOTER -> {
                    if (name.endsWith(".sst") && live(fs, p)) {
                        int wanted = 0x21 + kind.ordinal() - Kind.SST_LEAF.ordinal();
                        byte[] bytes = read(fs, p);
                        for (long page = 0; page < size / PAGE; page++) {
                            if ((bytes[(int) (page * PAGE) + TYPE_OFFSET] & 0xff) == wanted) {
                                out.add(new Target(p, page, page * PAGE, PAGE));
                            }
                        }
                    }
                }
                case MANIFEST -> add(out, p, size, name.startsWith("MANIFEST-"));
                case CURRENT -> add(out, p, size, name.equals("CURRENT"));
                case CATALOG -> add(out, p, size, name.equals("catalog.json"));
                case MARKER -> add(out, p, size, name.equals("BREAKWATER"));
                case CHECKPOINT_TRUNCATED -> add(out, p, size, name.equals(CheckpointFile.NAME));
                case LOG_TRUNCATED -> add(out, p, size, name.endsWith(".seg"));
                default -> throw new AssertionError(kind);
            }
        }
        return out;
    }

    /** Whether the table is in its tree's manifest (the image also holds obsolete tables, which open removes). */
    private static boolean live(FileSystem fs, Path table) throws IOException {
        long number = dev.breakwater.lsm.tree.TableFiles.parse(table.getFileName().toString());
        for (dev.breakwater.lsm.version.TableMeta t : dev.breakwater.lsm.version.Manifest.read(fs, table.getParent()).version().allTables()) {
            if (t.fileNumber() == number) {
                return true;
            }
        }
        return false;
    }

    private static void add(List<Target> out, Path p, long size, boolean matches) {
        if (matches) {
            out.add(new Target(p, -1, 0, size));
        }
    }

    private static void flip(FileSystem fs, Path file, long offset, int bit) throws IOException {
        try (StorageFile f = fs.open(file, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read(offset, b);
            b.put(0, (byte) (b.get(0) ^ (1 << bit))).flip();
            f.write(offset, b);
            f.sync();
        }
    }

    private static byte[] read(FileSystem fs, Path file) throws IOException {
        try (StorageFile f = fs.open(file, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    /** Every file under {@code dir}, by path, with its bytes. */
    private static Map<String, byte[]> snapshot(FileSystem fs, Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        for (String name : fs.list(dir)) {
            Path p = dir.resolve(name);
            boolean isDirectory;
            try {
                fs.size(p);
                isDirectory = false;
            } catch (FileSystemException e) {
                isDirectory = true;
            }
            if (isDirectory) {
                files.putAll(snapshot(fs, p));
            } else {
                files.put(p.toString(), read(fs, p));
            }
        }
        return files;
    }
}
