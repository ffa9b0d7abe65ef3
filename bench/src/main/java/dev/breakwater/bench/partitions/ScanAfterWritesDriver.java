package dev.breakwater.bench.partitions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Scans right after writes against scans after a flush, on one engine and one dataset
 * {@code (id INT64 primary key, payload BYTES)} with P partitions (issue 19's "scans right after
 * writes" defect).
 *
 * <p>Phases, timed with {@link System#nanoTime()}: {@code --keys} records preloaded in random order
 * (100-byte payloads) and {@code flushAndAwaitMerges}; one thread of scans as below
 * ({@code before-writes}, which also warms the scan path's JIT up); one thread of single-record upserts of uniform
 * random keys, {@code --writes} of them (not reported: it only puts the memory components in the
 * state a writing workload leaves them in); then, with no writes, one thread of 100-key scans from
 * uniform random starts for {@code --scan-seconds}, reported per window of {@code --window} seconds
 * ({@code after-writes}); then {@code flushAndAwaitMerges} and the same scans again
 * ({@code after-flush}). Before each scan phase the tree's statistics (memory bytes, memory seals,
 * tables per level) are printed. Durability {@code ASYNC}.
 *
 * <p>Thread safety: a command-line tool.
 */
public final class ScanAfterWritesDriver {

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.partitions.ScanAfterWritesDriver [options]",
            "  --partitions P       hash partitions of the dataset (default 1)",
            "  --keys N             records (default 100000)",
            "  --writes N           upserts between the first and second scan phases (default 2000000)",
            "  --scan-seconds S     seconds of each scan phase (default 4)",
            "  --window S           reporting window (default 1)",
            "  --total-memory-mb M  (default 128)",
            "  --write-memory-mb W  (default 32)",
            "  --dir PATH           scratch parent directory (required); the driver works in PATH/scan-after-writes,",
            "                       which must not exist; it is deleted at the end",
            "  --out FILE           JSON report");

    record Window(String phase, double second, long scans, double scansPerSecond) {
    }

    private ScanAfterWritesDriver() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null || !m.containsKey("dir")) {
            System.err.println(USAGE);
            System.exit(m == null ? 0 : 2);
        }
        int partitions = Integer.parseInt(m.getOrDefault("partitions", "1"));
        int keys = Integer.parseInt(m.getOrDefault("keys", "100000"));
        long writeCount = Long.parseLong(m.getOrDefault("writes", "2000000"));
        double scanSeconds = Double.parseDouble(m.getOrDefault("scan-seconds", "4"));
        double window = Double.parseDouble(m.getOrDefault("window", "1"));
        long totalMemory = Long.parseLong(m.getOrDefault("total-memory-mb", "128")) << 20;
        long writeMemory = Long.parseLong(m.getOrDefault("write-memory-mb", "32")) << 20;
        Path dir = Path.of(m.get("dir")).resolve("scan-after-writes");
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists: move it away");
        }
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, totalMemory)
                .set(ConfigOptions.WRITE_MEMORY, writeMemory)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.min(32L << 20, writeMemory))
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build();
        List<Window> windows = new ArrayList<>();
        Map<String, Object> shapes = new LinkedHashMap<>();
        try (StorageEngine e = StorageEngine.open(dir, config)) {
            Dataset d = e.createDataset(DatasetSpec.builder("kv").field("id", FieldType.INT64)
                    .field("payload", FieldType.BYTES).primaryKey("id").partitions(partitions).build());
            byte[] zeros = new byte[100];
            for (int k : PartitionScalingDriver.Setup.shuffledKeys(keys)) {
                d.upsert(Tuple.of((long) k, zeros));
            }
            e.flushAndAwaitMerges();
            shapes.put("before-writes", shape(e));
            scans(d, keys, scanSeconds, window, "before-writes", windows); // also the scan path's JIT warm-up
            SplittableRandom rnd = new SplittableRandom(3);
            byte[] payload = new byte[100];
            long t0 = System.nanoTime();
            for (long w = 0; w < writeCount; w++) {
                long k = rnd.nextInt(keys);
                payload[rnd.nextInt(payload.length)]++;
                d.upsert(Tuple.of(k, payload));
            }
            System.out.printf("writes: %,d in %.1f s%n", writeCount, (System.nanoTime() - t0) / 1e9);
            shapes.put("after-writes", shape(e));
            scans(d, keys, scanSeconds, window, "after-writes", windows);
            e.flushAndAwaitMerges();
            shapes.put("after-flush", shape(e));
            scans(d, keys, scanSeconds, window, "after-flush", windows);
        } finally {
            PartitionScalingDriver.deleteRecursively(dir);
        }
        if (m.containsKey("out")) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("driver", ScanAfterWritesDriver.class.getName());
            report.put("args", List.of(args));
            report.put("shapes", shapes);
            report.put("windows", windows);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(m.get("out")).toFile(), report);
        }
    }

    private static Map<String, String> shape(StorageEngine e) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, TreeStatisticsSnapshot> t : e.statistics().trees().entrySet()) {
            TreeStatisticsSnapshot s = t.getValue();
            String v = String.format("memoryBytes=%d memorySeals=%d memoryMerges=%d flushes=%d levelTables=%s l0Groups=%d",
                    s.memoryBytes(), s.memorySeals(), s.memoryMerges(), s.flushes(), s.levelTables(), s.l0Groups());
            out.put(t.getKey(), v);
            System.out.println("  " + t.getKey() + ": " + v);
        }
        return out;
    }

    private static void scans(Dataset d, int keys, double seconds, double window, String phase, List<Window> out) {
        SplittableRandom rnd = new SplittableRandom(7);
        // Each phase in its own thread, so that a profile (by thread) tells the phases apart.
        Thread t = new Thread(() -> scanLoop(d, keys, seconds, window, phase, out, rnd), "scans-" + phase);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void scanLoop(Dataset d, int keys, double seconds, double window, String phase, List<Window> out,
                                 SplittableRandom rnd) {
        long start = System.nanoTime();
        long windowNanos = (long) (window * 1e9);
        long end = start + (long) (seconds * 1e9);
        long windowStart = start;
        long n = 0;
        while (true) {
            long now = System.nanoTime();
            if (now - windowStart >= windowNanos || now >= end) {
                double secs = (now - windowStart) / 1e9;
                Window w = new Window(phase, (now - start) / 1e9, n, n / secs);
                out.add(w);
                System.out.printf("%-13s t=%5.1f s  %,10.0f scans/s%n", phase, w.second(), w.scansPerSecond());
                n = 0;
                windowStart = now;
                if (now >= end) {
                    return;
                }
            }
            long from = rnd.nextInt(keys);
            try (Cursor<Tuple> c = d.scan(KeyRange.closedOpen(Key.of(from), Key.of(from + 100)))) {
                while (c.hasNext()) {
                    c.next();
                }
            }
            n++;
        }
    }
}
