package dev.breakwater.bench.membuf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemoryComponent;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The end-to-end and latency-series parts of paper 001, scaled to this machine: Fig. 1a (interleaved
 * point queries slow a vector's inserts), Fig. 1b (insert latency distribution: pre-sized vs growing
 * vector vs skip-list and the hash kinds), Fig. 4 (ingestion and point-query throughput, 200 queries
 * interleaved in the last quarter of the inserts) and Fig. 6 (flushes, merges, write and read
 * amplification of one LSM-tree per kind). Writes {@code fig1.json}, {@code fig4.json},
 * {@code fig6.json} and their PNGs into {@code --out} (default {@code docs/benchmarks-memory-buffers}).
 *
 * <p>Usage: {@code java <jvm-options> -cp bench/target/benchmarks.jar dev.breakwater.bench.membuf.MemoryBufferFigures
 * [--out DIR] [--entries N] [--e2e-keys N] [--work DIR] [--only fig1|fig4|fig6]}.
 *
 * <p>How: every figure runs each kind once as warm-up at a quarter of the size, then measures. All
 * kinds share one JVM, so the call sites are megamorphic for all of them alike. Latencies are
 * {@code System.nanoTime()} around each operation (about 25 ns of overhead each).
 *
 * <p>Thread safety: a single-threaded program.
 */
public final class MemoryBufferFigures {

    static final int VALUE_BYTES = 48;
    static final int PREFIX = 8;
    static final int BUCKETS = 1024;

    private MemoryBufferFigures() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path out = Path.of(opts.getOrDefault("out", "docs/benchmarks-memory-buffers"));
        int entries = Integer.parseInt(opts.getOrDefault("entries", "140000"));
        int e2eKeys = Integer.parseInt(opts.getOrDefault("e2e-keys", "1000000"));
        Path work = Path.of(opts.getOrDefault("work", "/tmp/membuf/e2e"));
        String only = opts.getOrDefault("only", "all");
        Files.createDirectories(out);
        if (only.equals("all") || only.equals("fig1")) {
            Map<String, Object> fig1 = fig1(entries);
            write(out.resolve("fig1.json"), fig1);
            MemoryBufferPlots.fig1(fig1, out);
        }
        if (only.equals("all") || only.equals("fig4")) {
            Map<String, Object> fig4 = fig4(entries, 200);
            write(out.resolve("fig4.json"), fig4);
            MemoryBufferPlots.fig4(fig4, out);
        }
        if (only.equals("all") || only.equals("fig6")) {
            Map<String, Object> fig6 = fig6(e2eKeys, work);
            write(out.resolve("fig6.json"), fig6);
            MemoryBufferPlots.fig6(fig6, out);
        }
    }

    static void write(Path file, Object value) throws IOException {
        Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value) + "\n");
        System.err.println("wrote " + file);
    }

    static byte[] value() {
        byte[] v = new byte[VALUE_BYTES];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) (31 * i);
        }
        return v;
    }

    // ---------------------------------------------------------------- Fig. 1

    /** For each kind and point-query ratio: mean latencies, and the insert latency distribution. */
    static Map<String, Object> fig1(int n) {
        double[] ratios = {0, 0.001, 0.01};
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("entries", n);
        result.put("entryBytes", 16 + VALUE_BYTES);
        result.put("ratios", ratios);
        try (WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(2L << 30).withName("fig1"))) {
            for (BufferKind kind : BufferKind.values()) {
                interleaved(pool, kind.spec(PREFIX, BUCKETS, n / 4), n / 4, 0.01, 7); // warm-up
            }
            List<Map<String, Object>> runs = new ArrayList<>();
            for (BufferKind kind : BufferKind.values()) {
                for (double ratio : ratios) {
                    Map<String, Object> r = interleaved(pool, kind.spec(PREFIX, BUCKETS, n), n, ratio, 1);
                    r.put("kind", kind.name());
                    r.put("ratio", ratio);
                    System.err.printf("fig1 %-17s ratio %.3f: %s%n", kind, ratio, r);
                    runs.add(r);
                }
            }
            result.put("runs", runs);
        }
        return result;
    }

    /** Inserts {@code n} entries, each followed with probability {@code ratio} by a lookup of an earlier key. */
    static Map<String, Object> interleaved(WriteMemoryPool pool, MemoryComponentSpec spec, int n, double ratio, long seed) {
        byte[][] keys = BufferKind.keys(seed, n);
        byte[] value = value();
        long[] insertNs = new long[n];
        long queryNs = 0;
        long queryMax = 0;
        int queries = 0;
        SplittableRandom rnd = new SplittableRandom(seed);
        ValueHolder out = new ValueHolder();
        long start = System.nanoTime();
        try (MemoryComponent c = spec.create(pool)) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                c.put(keys[i], keys[i].length, value, value.length, false, i + 1);
                long t1 = System.nanoTime();
                insertNs[i] = t1 - t0;
                if (ratio > 0 && rnd.nextDouble() < ratio) {
                    byte[] k = keys[rnd.nextInt(i + 1)];
                    long q0 = System.nanoTime();
                    LookupResult r = c.get(k, k.length, Long.MAX_VALUE, out);
                    long q1 = System.nanoTime();
                    if (r != LookupResult.FOUND) {
                        throw new IllegalStateException("lost key " + Arrays.toString(k) + " in " + spec);
                    }
                    queryNs += q1 - q0;
                    queryMax = Math.max(queryMax, q1 - q0);
                    queries++;
                }
            }
            long total = System.nanoTime() - start;
            Map<String, Object> r = new LinkedHashMap<>();
            long insertTotal = Arrays.stream(insertNs).sum();
            r.put("meanOpNs", (double) total / (n + queries));
            r.put("meanInsertNs", (double) insertTotal / n);
            r.put("queries", queries);
            r.put("meanQueryNs", queries == 0 ? 0.0 : (double) queryNs / queries);
            r.put("maxQueryNs", queryMax);
            long[] sorted = insertNs.clone();
            Arrays.sort(sorted);
            r.put("insertP50Ns", sorted[n / 2]);
            r.put("insertP99Ns", sorted[(int) (n * 0.99)]);
            r.put("insertP999Ns", sorted[(int) (n * 0.999)]);
            r.put("insertP100Ns", sorted[n - 1]);
            r.put("bytesUsed", c.bytesUsed());
            r.put("payloadBytes", c.payloadBytes());
            return r;
        }
    }

    // ---------------------------------------------------------------- Fig. 4

    /** {@code n} inserts with {@code q} point queries spread evenly over the last quarter. */
    static Map<String, Object> fig4(int n, int q) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("entries", n);
        result.put("queries", q);
        try (WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(2L << 30).withName("fig4"))) {
            for (BufferKind kind : BufferKind.values()) {
                series(pool, kind.spec(PREFIX, BUCKETS, n / 4), n / 4, q, 7);
            }
            List<Map<String, Object>> runs = new ArrayList<>();
            for (BufferKind kind : BufferKind.values()) {
                Map<String, Object> r = series(pool, kind.spec(PREFIX, BUCKETS, n), n, q, 1);
                r.put("kind", kind.name());
                System.err.printf("fig4 %-17s ingest %.0f/s, queries %.0f/s%n", kind, r.get("insertsPerSecond"), r.get("queriesPerSecond"));
                runs.add(r);
            }
            result.put("runs", runs);
        }
        return result;
    }

    static Map<String, Object> series(WriteMemoryPool pool, MemoryComponentSpec spec, int n, int q, long seed) {
        byte[][] keys = BufferKind.keys(seed, n);
        byte[] value = value();
        long[] queryNs = new long[q];
        int firstQuery = n * 3 / 4;
        long insertTotal = 0;
        SplittableRandom rnd = new SplittableRandom(seed);
        ValueHolder out = new ValueHolder();
        int next = 0;
        try (MemoryComponent c = spec.create(pool)) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                c.put(keys[i], keys[i].length, value, value.length, false, i + 1);
                insertTotal += System.nanoTime() - t0;
                if (next < q && i >= firstQuery + (long) next * (n - firstQuery) / q) {
                    byte[] k = keys[rnd.nextInt(i + 1)];
                    long q0 = System.nanoTime();
                    c.get(k, k.length, Long.MAX_VALUE, out);
                    queryNs[next++] = System.nanoTime() - q0;
                }
            }
        }
        Map<String, Object> r = new LinkedHashMap<>();
        long queryTotal = Arrays.stream(queryNs).sum();
        r.put("insertsPerSecond", n / (insertTotal / 1e9));
        r.put("queriesPerSecond", q / (queryTotal / 1e9));
        r.put("meanQueryNs", (double) queryTotal / q);
        r.put("queryNs", queryNs);
        return r;
    }

    // ---------------------------------------------------------------- Fig. 6

    /** One LSM-tree per configuration loaded with {@code keys} unique entries, then settled and probed. */
    static Map<String, Object> fig6(int keys, Path work) throws IOException {
        Map<String, Object> result = new LinkedHashMap<>();
        long poolBytes = 32L << 20;
        long m0 = 4L << 20;
        int reserve = (int) (m0 / 96); // about the 64-byte entries a 4 MiB component holds
        result.put("keys", keys);
        result.put("entryBytes", 16 + VALUE_BYTES);
        result.put("writeMemory", poolBytes);
        result.put("memoryComponentBytes", m0);
        Object[][] configs = {
            {"SKIP_LIST", BufferKind.SKIP_LIST.spec(PREFIX, BUCKETS, 0)},
            {"VECTOR", BufferKind.VECTOR.spec(PREFIX, BUCKETS, 0)},
            {"VECTOR_PRESIZED", BufferKind.VECTOR_PRESIZED.spec(PREFIX, BUCKETS, reserve)},
            {"HASH_SKIP_LIST/1024", BufferKind.HASH_SKIP_LIST.spec(PREFIX, 1024, 0)},
            {"HASH_SKIP_LIST/16384", BufferKind.HASH_SKIP_LIST.spec(PREFIX, 16384, 0)},
            {"HASH_LINKED_LIST/1024", BufferKind.HASH_LINKED_LIST.spec(PREFIX, 1024, 0)},
            {"HASH_LINKED_LIST/16384", BufferKind.HASH_LINKED_LIST.spec(PREFIX, 16384, 0)},
        };
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Object[] config : configs) {
            Map<String, Object> r = endToEnd(keys, work.resolve(((String) config[0]).replace('/', '-')), poolBytes, m0,
                    (MemoryComponentSpec) config[1]);
            r.put("config", config[0]);
            System.err.printf("fig6 %-22s %s%n", config[0], r);
            runs.add(r);
        }
        result.put("runs", runs);
        return result;
    }

    static Map<String, Object> endToEnd(int n, Path dir, long poolBytes, long m0, MemoryComponentSpec spec) throws IOException {
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        int page = 4096;
        IoStatistics io = new IoStatistics();
        LsmTreeOptions options = LsmTreeOptions.defaults(page, m0);
        byte[] key = new byte[16];
        byte[] value = value();
        Map<String, Object> r = new LinkedHashMap<>();
        // How many entries one active component holds before its pages reach the seal threshold: the
        // seals the load needs follow from it (flush counts also depend on how many sealed
        // components one flush takes, which depends on timing).
        try (WriteMemoryPool probe = new WriteMemoryPool(WriteMemoryPoolOptions.of(m0 * 4).withPageSize(16 * 1024).withName("fig6-probe"));
             MemoryComponent c = spec.create(probe)) {
            int held = 0;
            while (c.bytesUsed() < m0) {
                BufferKind.key(3, held, key);
                c.put(key, key.length, value, value.length, false, held + 1);
                held++;
            }
            r.put("entriesPerComponent", held);
            r.put("componentSeals", (n + held - 1) / held);
            r.put("payloadShareOfComponent", (double) c.payloadBytes() / c.bytesUsed());
        }
        try (BufferCache cache = new BufferCache(BufferCacheOptions.of(page, 8L << 20), io);
             WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(poolBytes).withPageSize(16 * 1024).withName("fig6"))) {
            TreeResources resources = TreeResources.withPools(RealFileSystem.create(), cache, pool, io, 1, 1);
            try (LsmTree tree = LsmTree.open("fig6", dir, options, resources, true, spec)) {
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    BufferKind.key(3, i, key);
                    tree.put(key, value, i + 1);
                }
                long t1 = System.nanoTime();
                tree.flush();
                tree.awaitMerges();
                long t2 = System.nanoTime();
                IoStatisticsSnapshot afterLoad = io.snapshot();
                TreeStatisticsSnapshot s = tree.statistics();
                ValueHolder out = new ValueHolder();
                SplittableRandom rnd = new SplittableRandom(5);
                int lookups = 20_000;
                long q0 = System.nanoTime();
                for (int i = 0; i < lookups; i++) {
                    BufferKind.key(3, rnd.nextInt(n), key);
                    if (tree.get(key, out) != LookupResult.FOUND) {
                        throw new IllegalStateException("lost a key with " + spec);
                    }
                }
                long q1 = System.nanoTime();
                IoStatisticsSnapshot afterReads = io.snapshot();
                double ingested = (double) n * (16 + VALUE_BYTES);
                long flushWritten = afterLoad.bytesWritten(IoPurpose.FLUSH);
                long mergeWritten = afterLoad.bytesWritten(IoPurpose.MERGE);
                r.put("loadSeconds", (t1 - t0) / 1e9);
                r.put("settleSeconds", (t2 - t1) / 1e9);
                r.put("putsPerSecond", n / ((t1 - t0) / 1e9));
                r.put("flushes", s.flushes());
                r.put("merges", s.merges());
                r.put("bytesFlushed", flushWritten);
                r.put("mergeBytesWritten", mergeWritten);
                r.put("mergeBytesRead", afterLoad.bytesRead(IoPurpose.MERGE));
                r.put("writeAmplification", (flushWritten + mergeWritten) / ingested);
                r.put("mergeReadAmplification", afterLoad.bytesRead(IoPurpose.MERGE) / ingested);
                r.put("queryPagesReadPerLookup", (double) (afterReads.pagesRead(IoPurpose.QUERY) - afterLoad.pagesRead(IoPurpose.QUERY)) / lookups);
                r.put("lookupsPerSecond", lookups / ((q1 - q0) / 1e9));
                r.put("levels", s.levelBytes());
            } finally {
                resources.shutdownPools();
            }
        }
        return r;
    }
}
