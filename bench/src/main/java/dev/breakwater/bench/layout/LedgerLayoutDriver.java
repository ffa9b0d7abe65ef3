package dev.breakwater.bench.layout;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Reproduces the layout problem of issue 13 ("space and file count"): an append-only tree (a
 * ledger: increasing keys, rows of about 40 bytes) loaded through the engine with small write
 * memory, then closed; reports how its data lies on disk and how long it takes to open.
 *
 * <p>How: a fresh engine ({@code --write-memory}, default 1 MiB, the smallest allowed;
 * {@code --total-memory} 64 MiB; memory tuner off; {@code --durability}, default ASYNC) with one
 * dataset {@code ledger(id INT64 primary key, account INT32, amount INT64, memo STRING)}; one
 * thread upserts {@code --rows} rows (default 50,879), one transaction each, with ids
 * {@code 0, 1, 2, ...} ({@code --keys sequential}) or a random permutation of them
 * ({@code --keys random}, the contrast), a 12-character memo. Unless {@code --settle false}, the
 * memory components are flushed and merges awaited ({@code flushAndAwaitMerges}) before the close,
 * so the layout read is the settled one, not a merge backlog of the moment. The engine is closed cleanly (its
 * memory components flushed), then the ledger's primary tree directory is read back
 * ({@link TreeLayout}): tables per level, table-size distribution, table bytes against logical
 * (key + value) bytes, manifest bytes and edits. Then the open time: {@code --opens} times
 * (default 3; the median is reported) the engine is opened and closed, and the one tree is opened
 * by itself ({@link LsmTree#open} with a buffer cache and a pool of its own, not started, so it
 * changes no file) and closed.
 *
 * <p>Output: JSON to stdout or {@code --out FILE}; progress to stderr.
 */
public final class LedgerLayoutDriver {

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.layout.LedgerLayoutDriver [options]",
            "  --rows N               rows to upsert, one transaction each (default 50879)",
            "  --keys sequential|random  key order (default sequential: an append-only ledger)",
            "  --write-memory SIZE    write memory (default 1m)",
            "  --total-memory SIZE    total memory (default 64m)",
            "  --durability SYNC|ASYNC (default ASYNC)",
            "  --companion N          per ledger row, N upserts of 200-byte rows with random keys into a second dataset (default 0)",
            "  --compression NONE|LZ4 leaf-compression (default NONE)",
            "  --l0-merge-tables N    l0-merge-tables, the L0 table-count trigger (default the engine's: 0, off)",
            "  --settle BOOL          flush and wait for merges before closing (default true)",
            "  --passes P             write the same ids P times (default 1): history grows, live data does not",
            "  --scheme NAME          write-memory-scheme (default PARTITIONED)",
            "  --page-size SIZE       page size (default 16k)",
            "  --dir PATH             data directory, must not exist (default a temporary one, deleted)",
            "  --opens N              timed opens (default 3; median reported)",
            "  --out FILE             JSON report to FILE instead of stdout",
            "SIZE accepts k, m, g suffixes (powers of 1024).");

    private LedgerLayoutDriver() {
    }

    /** Parsed command line. */
    record Config(long rows, boolean random, long writeMemory, long totalMemory, Durability durability, int pageSize,
                  Path dir, int opens, Path out, int companion, String scheme, int passes, String compression, boolean settle, int l0MergeTables) {

        /** The same run with the default L0 table-count trigger (off). */
        Config(long rows, boolean random, long writeMemory, long totalMemory, Durability durability, int pageSize,
               Path dir, int opens, Path out, int companion, String scheme, int passes, String compression, boolean settle) {
            this(rows, random, writeMemory, totalMemory, durability, pageSize, dir, opens, out, companion, scheme, passes, compression, settle,
                    ConfigOptions.L0_MERGE_TABLES.defaultValue());
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m;
        try {
            m = CliOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        if (m == null) {
            System.out.println(USAGE);
            return;
        }
        Config c = new Config(Long.parseLong(m.getOrDefault("rows", "50879")),
                switch (m.getOrDefault("keys", "sequential")) {
                    case "sequential" -> false;
                    case "random" -> true;
                    default -> throw new IllegalArgumentException("--keys must be sequential or random");
                },
                size(m.getOrDefault("write-memory", "1m")), size(m.getOrDefault("total-memory", "64m")),
                Durability.valueOf(m.getOrDefault("durability", "ASYNC").toUpperCase(Locale.ROOT)),
                (int) size(m.getOrDefault("page-size", "16k")),
                m.containsKey("dir") ? Path.of(m.get("dir")) : null, Integer.parseInt(m.getOrDefault("opens", "3")),
                m.containsKey("out") ? Path.of(m.get("out")) : null, Integer.parseInt(m.getOrDefault("companion", "0")),
                m.getOrDefault("scheme", "PARTITIONED").toUpperCase(Locale.ROOT), Integer.parseInt(m.getOrDefault("passes", "1")),
                m.getOrDefault("compression", "NONE").toUpperCase(Locale.ROOT), Boolean.parseBoolean(m.getOrDefault("settle", "true")),
                Integer.parseInt(m.getOrDefault("l0-merge-tables", String.valueOf(ConfigOptions.L0_MERGE_TABLES.defaultValue()))));
        Map<String, Object> report = run(c, System.err);
        String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
        if (c.out() != null) {
            Files.writeString(c.out(), json + "\n");
        } else {
            System.out.println(json);
        }
    }

    static StorageConfig config(Config c) {
        return StorageConfig.builder()
                .set(ConfigOptions.WRITE_MEMORY, c.writeMemory())
                .set(ConfigOptions.TOTAL_MEMORY, c.totalMemory())
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.min(c.writeMemory(), 32L << 20)) // the engine caps M0 at 1/8
                .set(ConfigOptions.PAGE_SIZE, (long) c.pageSize())
                .set(ConfigOptions.DURABILITY, c.durability())
                .set(ConfigOptions.TUNER, false)
                .set("write-memory-scheme", c.scheme())
                .set("leaf-compression", c.compression())
                .set(ConfigOptions.L0_MERGE_TABLES, c.l0MergeTables())
                .set(ConfigOptions.HTTP_ENABLED, false)
                .set(ConfigOptions.JMX_ENABLED, false)
                .build();
    }

    static DatasetSpec spec() {
        return DatasetSpec.builder("ledger").field("id", FieldType.INT64).field("account", FieldType.INT32)
                .field("amount", FieldType.INT64).field("memo", FieldType.STRING).primaryKey("id").build();
    }

    static Map<String, Object> run(Config c, PrintStream progress) throws IOException {
        boolean temporary = c.dir() == null;
        Path dir = temporary ? Files.createTempDirectory("breakwater-layout-") : c.dir();
        try {
            return run(c, dir, progress);
        } finally {
            if (temporary) {
                deleteRecursively(dir);
            }
        }
    }

    private static Map<String, Object> run(Config c, Path dir, PrintStream progress) throws IOException {
        StorageConfig config = config(c);
        long[] ids = new long[(int) c.rows()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        if (c.random()) {
            SplittableRandom r = new SplittableRandom(1);
            for (int i = ids.length - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                long t = ids[i];
                ids[i] = ids[j];
                ids[j] = t;
            }
        }
        long loadStart = System.nanoTime();
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset ledger = engine.createDataset(spec());
            Dataset accounts = c.companion() > 0 ? engine.createDataset(DatasetSpec.builder("accounts").field("id", FieldType.INT64)
                    .field("payload", FieldType.STRING).primaryKey("id").build()) : null;
            SplittableRandom companionKeys = new SplittableRandom(2);
            String payload = "p".repeat(190);
            long next = System.nanoTime() + 1_000_000_000L;
            for (int p = 0; p < c.passes(); p++) {
            for (int i = 0; i < ids.length; i++) {
                ledger.upsert(Tuple.of(ids[i], (int) (ids[i] % 1000), ids[i] * 7 + p, String.format("memo-%07d", ids[i] % 10_000_000)));
                for (int k = 0; k < c.companion(); k++) {
                    accounts.upsert(Tuple.of(companionKeys.nextLong(100_000), payload));
                }
                if (System.nanoTime() > next) {
                    progress.printf("pass %d: loaded %d of %d rows%n", p + 1, i + 1, ids.length);
                    next += 1_000_000_000L;
                }
            }
            }
            if (c.settle()) {
                engine.flushAndAwaitMerges();
            }
        }
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        Path treeDir = primaryTreeDir(dir);
        TreeLayout layout = TreeLayout.read(treeDir, c.pageSize());
        progress.printf("layout: %s%n", layout);
        List<Double> engineOpens = new ArrayList<>();
        List<Double> treeOpens = new ArrayList<>();
        for (int i = 0; i < c.opens(); i++) {
            long t0 = System.nanoTime();
            try (StorageEngine engine = StorageEngine.open(dir, config)) {
                engineOpens.add((System.nanoTime() - t0) / 1e9);
            }
            treeOpens.add(openTreeSeconds(treeDir, c.pageSize()));
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("rows", c.rows());
        r.put("keys", c.random() ? "random" : "sequential");
        r.put("writeMemoryBytes", c.writeMemory());
        r.put("totalMemoryBytes", c.totalMemory());
        r.put("pageSize", c.pageSize());
        r.put("durability", c.durability().toString());
        r.put("companionUpsertsPerRow", c.companion());
        r.put("writeMemoryScheme", c.scheme());
        r.put("passes", c.passes());
        r.put("leafCompression", c.compression());
        r.put("l0MergeTables", c.l0MergeTables());
        r.put("settled", c.settle());
        r.put("loadSeconds", loadSeconds);
        r.put("tables", layout.tables());
        r.put("tablesPerLevel", layout.tablesPerLevel());
        r.put("tableSizeBuckets", layout.sizeBuckets());
        r.put("meanTableBytes", layout.tables() == 0 ? 0 : layout.tableBytes() / layout.tables());
        r.put("entries", layout.entries());
        r.put("logicalBytes", layout.logicalBytes());
        r.put("tableBytes", layout.tableBytes());
        r.put("treeDirectoryBytes", layout.filesOnDisk());
        r.put("liveEntries", layout.liveEntries());
        r.put("spaceAmplification", layout.spaceAmplification());
        r.put("layoutAmplification", layout.layoutAmplification());
        r.put("encodedBytes", layout.encodedBytes());
        r.put("leafPages", layout.leafPages());
        r.put("entriesPerLeaf", layout.entriesPerLeaf());
        r.put("manifestBytes", layout.manifestBytes());
        r.put("manifestEditsReplayed", layout.manifestEdits());
        r.put("engineOpenSecondsMedian", median(engineOpens));
        r.put("treeOpenSecondsMedian", median(treeOpens));
        r.put("engineOpenSeconds", engineOpens);
        r.put("treeOpenSeconds", treeOpens);
        r.put("loadAverage", Files.readString(Path.of("/proc/loadavg")).trim());
        return r;
    }

    /** Opens the tree in {@code treeDir} by itself, not started (no file changes), and closes it. */
    private static double openTreeSeconds(Path treeDir, int pageSize) throws IOException {
        IoStatistics io = new IoStatistics();
        try (BufferCache cache = new BufferCache(BufferCacheOptions.of(pageSize, 256L * pageSize), io);
             WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(4L << 20).withName("layout-open"))) {
            TreeResources resources = TreeResources.withPools(RealFileSystem.create(), cache, pool, io, 1, 1);
            try {
                long t0 = System.nanoTime();
                LsmTree tree = LsmTree.open("ledger.primary", treeDir, LsmTreeOptions.defaults(pageSize, 1L << 20), resources, false);
                double s = (System.nanoTime() - t0) / 1e9;
                tree.close();
                return s;
            } finally {
                resources.shutdownPools();
            }
        }
    }

    /** The ledger's primary tree directory: the one {@code tree-*} directory whose name sorts first. */
    static Path primaryTreeDir(Path dataDir) throws IOException {
        try (Stream<Path> walk = Files.walk(dataDir)) {
            return walk.filter(p -> Files.isDirectory(p) && p.getFileName().toString().startsWith("tree-"))
                    .filter(p -> p.toString().contains("ledger")).min(Path::compareTo)
                    .orElseThrow(() -> new IOException("no ledger tree directory under " + dataDir));
        }
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length == 0 ? 0 : a[a.length / 2];
    }

    static long size(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("k")) {
            mult = 1L << 10;
        } else if (t.endsWith("m")) {
            mult = 1L << 20;
        } else if (t.endsWith("g")) {
            mult = 1L << 30;
        }
        return Long.parseLong(mult == 1 ? t : t.substring(0, t.length() - 1)) * mult;
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted((a, b) -> b.compareTo(a))::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
