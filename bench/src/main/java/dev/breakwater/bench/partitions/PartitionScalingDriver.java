package dev.breakwater.bench.partitions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Throughput of a dataset as its hash partitions and the client threads grow, in two layouts with
 * the same total memory:
 * <ul>
 *   <li>{@code one-engine}: one {@link StorageEngine} ({@code total-memory} M, {@code write-memory}
 *       W), one dataset {@code (id INT64 primary key, payload BYTES)} declared with P partitions;</li>
 *   <li>{@code engine-per-partition}: P engines, each with M/P and W/P, each holding one
 *       unpartitioned dataset; the client sends key k to engine {@code mix(k) mod P}.</li>
 * </ul>
 * P = 1 is the same in both (measured once, as {@code one-engine}).
 *
 * <p>Per layout and P: a fresh directory, {@code --keys} records preloaded in random order (100-byte
 * payloads, single-record upserts), {@code flushAndAwaitMerges}. Then per thread count T: T client
 * threads run for {@code --warmup} seconds unmeasured, then {@code --seconds} measured; each
 * operation picks a uniform random key and is an upsert (new payload) with probability
 * {@code --write-fraction}, else a get. Throughput = operations finished inside the window /
 * window length. Then every engine is flushed and its merges awaited, and one thread runs scans of
 * 100 consecutive keys from a random start for {@code --warmup} seconds unmeasured and
 * {@code --scan-seconds} measured (scans/s), which shows
 * the cost of one cursor per partition and their k-way merge. In {@code engine-per-partition} the
 * client scans every engine's dataset and does not merge the results (a real client would), so
 * that layout's scan figure is an upper bound. (Scans are measured after the flush because right
 * after the mixed phase their rate depends on how many memory levels and L0 groups the trees hold at
 * that moment; {@link ScanAfterWritesDriver} measures that state.)
 * Durability {@code ASYNC}, so commits do not wait for fsyncs and the numbers are the engine's data
 * path, not the disk's fsync rate.
 *
 * <p>Output: a table on stdout and a JSON report with {@code --out}.
 *
 * <p>Thread safety: a command-line tool.
 */
public final class PartitionScalingDriver {

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.partitions.PartitionScalingDriver [options]",
            "  --partitions LIST    partition counts (default 1,2,4)",
            "  --threads LIST       client thread counts (default 1,2,4)",
            "  --layouts LIST       one-engine,engine-per-partition (default both)",
            "  --keys N             records (default 300000)",
            "  --seconds S          measured seconds per point (default 6)",
            "  --warmup S           unmeasured seconds before each point (default 2)",
            "  --scan-seconds S     seconds of the one-thread scan run (default 3; 0 skips it)",
            "  --write-fraction F   share of upserts among operations (default 0.5)",
            "  --total-memory-mb M  total memory of all engines together (default 128)",
            "  --write-memory-mb W  write memory of all engines together (default 32)",
            "  --dir PATH           scratch parent directory (required); the driver works in PATH/partition-scaling,",
            "                       which it creates and deletes (it must not exist beforehand)",
            "  --out FILE           JSON report");

    record Point(String layout, int partitions, int threads, double seconds, long ops, double opsPerSecond) {
    }

    record ScanPoint(String layout, int partitions, double seconds, long scans, double scansPerSecond) {
    }

    private PartitionScalingDriver() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null || !m.containsKey("dir")) {
            System.err.println(USAGE);
            System.exit(m == null ? 0 : 2);
        }
        int[] partitions = ints(m.getOrDefault("partitions", "1,2,4"));
        int[] threads = ints(m.getOrDefault("threads", "1,2,4"));
        List<String> layouts = List.of(m.getOrDefault("layouts", "one-engine,engine-per-partition").split(","));
        int keys = Integer.parseInt(m.getOrDefault("keys", "300000"));
        double seconds = Double.parseDouble(m.getOrDefault("seconds", "6"));
        double warmup = Double.parseDouble(m.getOrDefault("warmup", "2"));
        double scanSeconds = Double.parseDouble(m.getOrDefault("scan-seconds", "3"));
        double writeFraction = Double.parseDouble(m.getOrDefault("write-fraction", "0.5"));
        long totalMemory = Long.parseLong(m.getOrDefault("total-memory-mb", "128")) << 20;
        long writeMemory = Long.parseLong(m.getOrDefault("write-memory-mb", "32")) << 20;
        Path dir = Path.of(m.get("dir")).resolve("partition-scaling");
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists: the driver deletes what it works in, so it starts only "
                    + "in a directory it creates; move it away");
        }
        List<Point> points = new ArrayList<>();
        List<ScanPoint> scans = new ArrayList<>();
        System.out.printf("%-22s %4s %4s %14s%n", "layout", "P", "T", "ops/s");
        for (String layout : layouts) {
            for (int p : partitions) {
                if (p == 1 && layout.equals("engine-per-partition") && layouts.contains("one-engine")) {
                    continue; // identical to one-engine with P = 1
                }
                Files.createDirectories(dir);
                try (Setup setup = Setup.open(layout, p, dir, totalMemory, writeMemory)) {
                    setup.preload(keys);
                    for (int t : threads) {
                        run(setup, t, keys, warmup, writeFraction);
                        long[] ops = run(setup, t, keys, seconds, writeFraction);
                        double secs = ops[1] / 1e9;
                        Point pt = new Point(layout, p, t, secs, ops[0], ops[0] / secs);
                        points.add(pt);
                        System.out.printf("%-22s %4d %4d %,14.0f%n", layout, p, t, pt.opsPerSecond());
                    }
                    if (scanSeconds > 0) {
                        setup.settle(); // scans over disk components only: see the class comment
                        scan(setup, keys, warmup); // the scan path's JIT warm-up
                        long[] s = scan(setup, keys, scanSeconds);
                        ScanPoint sp = new ScanPoint(layout, p, s[1] / 1e9, s[0], s[0] / (s[1] / 1e9));
                        scans.add(sp);
                        System.out.printf("%-22s %4d scans/s (100 keys, 1 thread) %,10.0f%n", layout, p, sp.scansPerSecond());
                    }
                }
                deleteRecursively(dir);
            }
        }
        if (m.containsKey("out")) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("driver", PartitionScalingDriver.class.getName());
            report.put("args", List.of(args));
            report.put("keys", keys);
            report.put("writeFraction", writeFraction);
            report.put("totalMemoryBytes", totalMemory);
            report.put("writeMemoryBytes", writeMemory);
            report.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            report.put("points", points);
            report.put("scans", scans);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of(m.get("out")).toFile(), report);
        }
    }

    /** Runs T threads for {@code seconds}; returns {operations, window nanoseconds}. */
    private static long[] run(Setup setup, int threads, int keys, double seconds, double writeFraction) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] counts = new long[threads * 8]; // padded: one slot per thread, 64 bytes apart
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int slot = t * 8;
            SplittableRandom rnd = new SplittableRandom(31L * t + System.nanoTime());
            Thread w = new Thread(() -> {
                byte[] payload = new byte[100];
                ready.countDown();
                try {
                    go.await();
                    long n = 0;
                    while (!stop.get()) {
                        long k = rnd.nextInt(keys);
                        if (rnd.nextDouble() < writeFraction) {
                            payload[rnd.nextInt(payload.length)]++;
                            setup.dataset(k).upsert(Tuple.of(k, payload));
                        } else {
                            setup.dataset(k).get(Key.of(k));
                        }
                        n++;
                        if ((n & 63) == 0) {
                            counts[slot] = n;
                        }
                    }
                    counts[slot] = n;
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "client-" + t);
            w.start();
            workers.add(w);
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        long elapsed = System.nanoTime() - start;
        if (failure.get() != null) {
            throw new IllegalStateException("a client failed", failure.get());
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            total += counts[t * 8];
        }
        return new long[] {total, elapsed};
    }

    /** One thread of 100-key scans from random starts; returns {scans, nanoseconds}. */
    private static long[] scan(Setup setup, int keys, double seconds) {
        SplittableRandom rnd = new SplittableRandom(7);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        long n = 0;
        while (System.nanoTime() < end) {
            long from = rnd.nextInt(keys);
            setup.scan100(from);
            n++;
        }
        return new long[] {n, System.nanoTime() - start};
    }

    /** The engines and datasets of one layout and partition count. */
    static final class Setup implements AutoCloseable {
        private final List<StorageEngine> engines;
        private final Dataset[] datasets;

        private Setup(List<StorageEngine> engines, Dataset[] datasets) {
            this.engines = engines;
            this.datasets = datasets;
        }

        static Setup open(String layout, int partitions, Path dir, long totalMemory, long writeMemory) {
            DatasetSpec.Builder spec = DatasetSpec.builder("kv").field("id", FieldType.INT64).field("payload", FieldType.BYTES)
                    .primaryKey("id");
            switch (layout) {
                case "one-engine" -> {
                    StorageEngine e = StorageEngine.open(dir.resolve("engine"), config(totalMemory, writeMemory));
                    return new Setup(List.of(e), new Dataset[] {e.createDataset(spec.partitions(partitions).build())});
                }
                case "engine-per-partition" -> {
                    List<StorageEngine> engines = new ArrayList<>();
                    Dataset[] ds = new Dataset[partitions];
                    for (int p = 0; p < partitions; p++) {
                        StorageEngine e = StorageEngine.open(dir.resolve("engine-" + p),
                                config(totalMemory / partitions, writeMemory / partitions));
                        engines.add(e);
                        ds[p] = e.createDataset(spec.build());
                    }
                    return new Setup(List.copyOf(engines), ds);
                }
                default -> throw new IllegalArgumentException("unknown layout '" + layout + "': one-engine or engine-per-partition");
            }
        }

        private static StorageConfig config(long totalMemory, long writeMemory) {
            return StorageConfig.builder()
                    .set(ConfigOptions.TOTAL_MEMORY, totalMemory)
                    .set(ConfigOptions.WRITE_MEMORY, writeMemory)
                    // The default M0 (32 MiB) must fit an engine's share; the engine caps it at write-memory / 8 anyway.
                    .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.min(32L << 20, writeMemory))
                    .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                    .build();
        }

        /** The dataset that holds key {@code k}: the one dataset, or engine {@code mix(k) mod P}'s. */
        Dataset dataset(long k) {
            if (datasets.length == 1) {
                return datasets[0];
            }
            long h = k * 0x9e3779b97f4a7c15L;
            h ^= h >>> 32;
            return datasets[(int) Long.remainderUnsigned(h, datasets.length)];
        }

        void preload(int keys) {
            byte[] payload = new byte[100];
            for (int k : shuffledKeys(keys)) {
                dataset(k).upsert(Tuple.of((long) k, payload));
            }
            settle();
        }

        /** 0 .. keys - 1 in a fixed random order (the preload's). */
        static int[] shuffledKeys(int keys) {
            int[] order = new int[keys];
            for (int i = 0; i < keys; i++) {
                order[i] = i;
            }
            SplittableRandom rnd = new SplittableRandom(1);
            for (int i = keys - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int x = order[i];
                order[i] = order[j];
                order[j] = x;
            }
            return order;
        }

        /** Flushes every engine's memory and waits for merges. */
        void settle() {
            for (StorageEngine e : engines) {
                e.flushAndAwaitMerges();
            }
        }

        /** 100 consecutive keys from {@code from}: one merged scan, or a merge of one scan per engine. */
        void scan100(long from) {
            KeyRange range = KeyRange.closedOpen(Key.of(from), Key.of(from + 100));
            if (datasets.length == 1) {
                drain(datasets[0].scan(range));
                return;
            }
            for (Dataset d : datasets) { // the client merges; counting the rows is enough to compare costs
                drain(d.scan(range));
            }
        }

        private static void drain(Cursor<Tuple> c) {
            try (c) {
                while (c.hasNext()) {
                    c.next();
                }
            }
        }

        @Override
        public void close() {
            for (StorageEngine e : engines) {
                e.close();
            }
        }
    }

    private static int[] ints(String list) {
        return Stream.of(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
