package dev.breakwater.bench.scan;

import static dev.breakwater.common.key.FieldType.BYTES;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Reverse scans against forward scans over one dataset shaped like a Kafka Streams store's
 * ({@code k BYTES} primary key, {@code v BYTES}, as {@code kafka-streams-store} creates; its
 * {@code reverseAll()} is {@code dataset.reverseScan(KeyRange.all())} handed out one entry at a
 * time), in three phases, each its own JVM run so that each can get its own heap:
 * <ul>
 *   <li>{@code --phase load}: creates {@code DIR/reverse-scan} (which must not exist) and writes
 *       {@code --keys} records with 8-byte big-endian keys in random order and {@code --value-bytes}
 *       values, in transactions of 100 records, then flushes and awaits merges.</li>
 *   <li>{@code --phase throughput}: opens it and alternates, {@code --repeats} times, a full
 *       forward scan and a full reverse scan (entries/s of each; the first pair is a warm-up and is
 *       reported but left out of the medians), then {@code --short-scans} scans of 100 keys from
 *       random starts in each direction (scans/s).</li>
 *   <li>{@code --phase memory}: the throughput phase over data that is all in write memory: creates
 *       {@code DIR/reverse-scan-memory} (which must not exist) with the {@code DYNAMIC} write-memory
 *       scheme (one memory component per tree, of kind {@code --memory-kind}), loads {@code --keys}
 *       records without flushing, and measures as the throughput phase does. This is where reverse
 *       steps cost most: a memory component links forward only, so each reverse step searches it
 *       twice (docs/design.md, "Reverse scans").</li>
 *   <li>{@code --phase heap}: one full scan in the order {@code --how}: {@code reverse} (a reverse
 *       scan), or {@code materialize} (what the Kafka store did before: a forward scan read into a
 *       list of key/value copies, reversed, then handed out). Every 10,000 entries it records the
 *       heap in use after the last garbage collection (the sum of the heap pools' collection
 *       usage: live data, not garbage awaiting collection) and reports the largest; an
 *       {@link OutOfMemoryError} is caught and reported with the entries read so far.</li>
 * </ul>
 * The engine reads disk components with direct I/O (the default), so with the data several times
 * {@code --total-memory-mb} every scan reads from the disk through the buffer cache.
 *
 * <p>Thread safety: a command-line tool.
 */
public final class ReverseScanDriver {

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.scan.ReverseScanDriver --phase load|throughput|heap [options]",
            "  --dir PATH            parent directory (required); the data lives in PATH/reverse-scan",
            "  --keys N              records to load (default 1000000)",
            "  --value-bytes B       value size (default 500)",
            "  --total-memory-mb M   engine memory (default 64)",
            "  --write-memory-mb W   write memory (default 16); the buffer cache gets M - W",
            "  --repeats R           forward/reverse pairs in the throughput phase (default 4)",
            "  --short-scans S       100-key scans per direction in the throughput phase (default 2000)",
            "  --how reverse|materialize   the heap phase's scan (default reverse)",
            "  --memory-kind K       the memory phase's memory component kind (default SKIP_LIST)",
            "  --out FILE            JSON report");

    private ReverseScanDriver() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null || !m.containsKey("dir") || !m.containsKey("phase")) {
            System.err.println(USAGE);
            System.exit(m == null ? 0 : 2);
        }
        String phase = m.get("phase");
        Path dir = Path.of(m.get("dir")).resolve(phase.equals("memory") ? "reverse-scan-memory" : "reverse-scan");
        long total = Long.parseLong(m.getOrDefault("total-memory-mb", "64")) << 20;
        long write = Long.parseLong(m.getOrDefault("write-memory-mb", "16")) << 20;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("driver", ReverseScanDriver.class.getName());
        report.put("args", List.of(args));
        report.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        report.put("totalMemoryBytes", total);
        report.put("writeMemoryBytes", write);
        if ((phase.equals("load") || phase.equals("memory")) && Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists: the load phase starts only in a directory it creates");
        }
        StorageConfig config = config(total, write);
        if (phase.equals("memory")) {
            String kind = m.getOrDefault("memory-kind", "SKIP_LIST");
            config = config.toBuilder().set(ConfigOptions.WRITE_MEMORY_SCHEME, WriteMemoryScheme.DYNAMIC)
                    .set(ConfigOptions.MEMORY_COMPONENT_KIND, MemoryComponentKind.valueOf(kind)).build();
            report.put("memoryKind", kind);
        }
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset ds = engine.createDatasetIfAbsent(DatasetSpec.builder("store").field("k", BYTES).field("v", BYTES).primaryKey("k").build());
            switch (phase) {
                case "load" -> load(engine, ds, Integer.parseInt(m.getOrDefault("keys", "1000000")),
                        Integer.parseInt(m.getOrDefault("value-bytes", "500")), true, report);
                case "memory" -> {
                    load(engine, ds, Integer.parseInt(m.getOrDefault("keys", "1000000")),
                            Integer.parseInt(m.getOrDefault("value-bytes", "500")), false, report);
                    report.put("flushes", engine.statistics().trees().values().stream().mapToLong(t -> t.flushes()).sum());
                    throughput(ds, Integer.parseInt(m.getOrDefault("repeats", "4")),
                            Integer.parseInt(m.getOrDefault("short-scans", "2000")), report);
                }
                case "throughput" -> throughput(ds, Integer.parseInt(m.getOrDefault("repeats", "4")),
                        Integer.parseInt(m.getOrDefault("short-scans", "2000")), report);
                case "heap" -> heap(ds, m.getOrDefault("how", "reverse"), report);
                default -> throw new IllegalArgumentException("unknown phase " + phase);
            }
            // Before the engine closes: after an OutOfMemoryError (the materialising heap phase) a
            // background thread of the engine may have died too, and close may then fail.
            if (m.containsKey("out")) {
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(m.get("out")).toFile(), report);
            }
        }
    }

    private static StorageConfig config(long total, long write) {
        return StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, total)
                .set(ConfigOptions.WRITE_MEMORY, write)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.min(8L << 20, write / 2))
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build();
    }

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    private static void load(StorageEngine engine, Dataset ds, int keys, int valueBytes, boolean settle, Map<String, Object> report) {
        List<Integer> order = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new java.util.Random(7));
        SplittableRandom rnd = new SplittableRandom(11);
        long start = System.nanoTime();
        for (int i = 0; i < keys; i += 100) {
            try (Transaction tx = engine.begin()) {
                for (int j = i; j < Math.min(keys, i + 100); j++) {
                    byte[] value = new byte[valueBytes]; // the transaction keeps the tuple until commit
                    rnd.nextBytes(value);
                    tx.upsert(ds, Tuple.of(key(order.get(j)), value));
                }
                tx.commit();
            }
        }
        if (settle) {
            engine.flushAndAwaitMerges();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("loaded %,d records of %d-byte values in %.1f s%n", keys, valueBytes, seconds);
        report.put("keys", keys);
        report.put("valueBytes", valueBytes);
        report.put("loadSeconds", seconds);
    }

    /** One full scan; returns {entries, nanoseconds}. */
    private static long[] fullScan(Dataset ds, boolean reverse) {
        long start = System.nanoTime();
        long n = 0;
        long checksum = 0;
        try (Cursor<Tuple> c = reverse ? ds.reverseScan(KeyRange.all()) : ds.scan(KeyRange.all())) {
            while (c.hasNext()) {
                checksum += c.next().getBytes(1).length;
                n++;
            }
        }
        if (checksum == 42) {
            System.out.print(""); // keeps the loop's reads alive
        }
        return new long[] {n, System.nanoTime() - start};
    }

    private static void throughput(Dataset ds, int repeats, int shortScans, Map<String, Object> report) {
        List<Map<String, Object>> full = new ArrayList<>();
        List<Double> forward = new ArrayList<>();
        List<Double> reverse = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            for (boolean rev : new boolean[] {false, true}) {
                long[] s = fullScan(ds, rev);
                double rate = s[0] / (s[1] / 1e9);
                System.out.printf("full %-7s scan %d: %,d entries in %.2f s = %,.0f entries/s%n", rev ? "reverse" : "forward", r, s[0],
                        s[1] / 1e9, rate);
                full.add(Map.of("direction", rev ? "reverse" : "forward", "repeat", r, "entries", s[0], "seconds", s[1] / 1e9,
                        "entriesPerSecond", rate));
                if (r > 0) {
                    (rev ? reverse : forward).add(rate);
                }
            }
        }
        report.put("fullScans", full);
        report.put("fullForwardMedian", median(forward));
        report.put("fullReverseMedian", median(reverse));
        long keys = (long) full.get(0).get("entries");
        Map<String, Object> shorts = new LinkedHashMap<>();
        for (boolean rev : new boolean[] {false, true, false, true}) {
            SplittableRandom rnd = new SplittableRandom(5);
            long start = System.nanoTime();
            long entries = 0;
            for (int i = 0; i < shortScans; i++) {
                long a = rnd.nextLong(Math.max(1, keys - 100));
                KeyRange range = KeyRange.closedOpen(Key.of((Object) key(a)), Key.of((Object) key(a + 100)));
                try (Cursor<Tuple> c = rev ? ds.reverseScan(range) : ds.scan(range)) {
                    while (c.hasNext()) {
                        c.next();
                        entries++;
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("100-key %-7s scans: %,.0f scans/s (%,d entries)%n", rev ? "reverse" : "forward", shortScans / seconds, entries);
            shorts.put(rev ? "reverseScansPerSecond" : "forwardScansPerSecond", shortScans / seconds); // the second round (warm) stays
        }
        report.put("shortScans", shorts);
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static void heap(Dataset ds, String how, Map<String, Object> report) {
        report.put("how", how);
        List<Map<String, Object>> samples = new ArrayList<>();
        long maxLive = 0;
        long n = 0;
        long bytes = 0;
        long start = System.nanoTime();
        String outcome = "completed";
        try {
            if (how.equals("reverse")) {
                try (Cursor<Tuple> c = ds.reverseScan(KeyRange.all())) {
                    while (c.hasNext()) {
                        Tuple t = c.next();
                        bytes += t.getBytes(0).length + t.getBytes(1).length;
                        if (++n % 10_000 == 0) {
                            maxLive = Math.max(maxLive, sample(samples, n, bytes));
                        }
                    }
                }
            } else if (how.equals("materialize")) {
                List<byte[][]> entries = new ArrayList<>();
                try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
                    while (c.hasNext()) {
                        Tuple t = c.next();
                        entries.add(new byte[][] {t.getBytes(0), t.getBytes(1)});
                        bytes += t.getBytes(0).length + t.getBytes(1).length;
                        if (++n % 10_000 == 0) {
                            maxLive = Math.max(maxLive, sample(samples, n, bytes));
                        }
                    }
                }
                Collections.reverse(entries);
            } else {
                throw new IllegalArgumentException("--how must be reverse or materialize, got " + how);
            }
        } catch (OutOfMemoryError e) {
            outcome = "OutOfMemoryError after " + n + " entries";
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%s: %s, %,d entries, %,d MiB of keys and values read in %.1f s; largest live heap after GC %,.1f MiB of %,d MiB max%n",
                how, outcome, n, bytes >> 20, seconds, maxLive / 1048576.0, Runtime.getRuntime().maxMemory() >> 20);
        report.put("outcome", outcome);
        report.put("entries", n);
        report.put("bytesRead", bytes);
        report.put("seconds", seconds);
        report.put("maxLiveHeapAfterGcBytes", maxLive);
        report.put("samples", samples);
    }

    /** Records the heap in use after the last collection (summed over heap pools); returns it. */
    private static long sample(List<Map<String, Object>> samples, long entries, long bytes) {
        long live = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (after != null) {
                live += after.getUsed();
            }
        }
        if (entries % 100_000 == 0) {
            samples.add(Map.of("entries", entries, "bytesRead", bytes, "liveHeapAfterGcBytes", live));
        }
        return live;
    }
}
