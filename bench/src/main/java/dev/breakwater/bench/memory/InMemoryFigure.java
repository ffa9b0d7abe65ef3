package dev.breakwater.bench.memory;

import dev.breakwater.bench.ycsb.Sizes;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * Figure 8 of paper 000 (§6.2.1, "CPU overhead of memory merges"), scaled: one LSM tree, one
 * thread, no log, data that fits in write memory, so nothing is flushed and the only difference
 * between the schemes is how the memory component is organized.
 *
 * <ul>
 *   <li><b>Partitioned</b>: M0 of {@code --memory-table} bytes sealed into {@code --memory-levels}
 *       memory levels of compact memory SSTables (memory merges, size ratio 10);</li>
 *   <li><b>B+-dynamic</b>: one skip-list memory component as large as the pool (never sealed).</li>
 * </ul>
 *
 * <p>The tree is driven directly (no engine, so no transaction log). With {@code --merge-mode SYNC}
 * (the default) the tree's flush executor runs its work on the writing thread
 * ({@link DirectExecutorService}), so sealing M0 and memory merges are synchronous with the write
 * that triggered them and inside the measured time; with {@code ASYNC} it is one background thread
 * and the measured time ends only when that thread is idle after the last operation. Either way
 * the process CPU time per operation is reported too.
 *
 * <p>Per scheme and workload, on a fresh tree: load {@code --records} records (YCSB keys, values of
 * {@code --value-size} random bytes) in YCSB's hashed key order (not measured), wait until
 * background work is idle, then run {@code --operations} operations on Zipfian keys: updates of
 * existing keys and point lookups in the workload's proportion. Reports throughput, CPU ns per
 * operation, the write memory in use at the end (what each scheme needs for the same data), and
 * the tree's memory-merge counters. Writes JSON ({@code --out}) and a PNG ({@code --plot}).
 */
@Command(name = "in-memory-figure", mixinStandardHelpOptions = true,
        description = "Paper 000 Figure 8: in-memory throughput of the partitioned memory component vs B+-dynamic.")
public final class InMemoryFigure implements java.util.concurrent.Callable<Integer> {

    /** Workloads: fraction of operations that are updates (the rest are point lookups). */
    enum Workload {
        WRITE_ONLY(1.0), WRITE_HEAVY(0.5), READ_HEAVY(0.05);

        final double writeFraction;

        Workload(double writeFraction) {
            this.writeFraction = writeFraction;
        }
    }

    enum Scheme { PARTITIONED, B_DYNAMIC }

    enum MergeMode { SYNC, ASYNC }

    @Option(names = "--records", defaultValue = "200000", description = "Records loaded. Default: ${DEFAULT-VALUE}.")
    int records;
    @Option(names = "--value-size", defaultValue = "1000", description = "Value bytes (YCSB: 10 fields of 100). Default: ${DEFAULT-VALUE}.")
    int valueSize;
    @Option(names = "--operations", defaultValue = "1000000", description = "Measured operations per run. Default: ${DEFAULT-VALUE}.")
    long operations;
    @Option(names = "--workloads", split = ",", defaultValue = "WRITE_ONLY,WRITE_HEAVY,READ_HEAVY",
            description = "Subset of ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    List<Workload> workloads;
    @Option(names = "--schemes", split = ",", defaultValue = "PARTITIONED,B_DYNAMIC",
            description = "Subset of ${COMPLETION-CANDIDATES} (for profiling one). Default: ${DEFAULT-VALUE}.")
    List<Scheme> schemes;
    @Option(names = "--memory-table", defaultValue = "4m", description = "Partitioned: M0 size. Default: ${DEFAULT-VALUE}.")
    String memoryTable;
    @Option(names = "--memory-levels", defaultValue = "2", description = "Partitioned: memory levels. Default: ${DEFAULT-VALUE}.")
    int memoryLevels;
    @Option(names = "--pool", defaultValue = "1g", description = "Write-memory pool (large enough that nothing flushes). Default: ${DEFAULT-VALUE}.")
    String pool;
    @Option(names = "--merge-mode", defaultValue = "SYNC", description = "SYNC or ASYNC memory work. Default: ${DEFAULT-VALUE}.")
    MergeMode mergeMode;
    @Option(names = "--repetitions", defaultValue = "1", description = "Runs per cell (median reported). Default: ${DEFAULT-VALUE}.")
    int repetitions;
    @Option(names = "--seed", defaultValue = "42", description = "Seed of the operation mix and values. Default: ${DEFAULT-VALUE}.")
    long seed;
    @Option(names = "--dir", description = "Parent of the per-run tree directories. Default: a temp dir.")
    Path dir;
    @Option(names = "--out", defaultValue = "fig8.json", description = "JSON results. Default: ${DEFAULT-VALUE}.")
    Path out;
    @Option(names = "--plot", description = "PNG plot (default: beside --out).")
    Path plot;
    @Option(names = "--quiet", description = "No per-second progress lines.")
    boolean quiet;

    /** Rows of the last call, for tests. */
    final List<Map<String, Object>> rows = new ArrayList<>();

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new InMemoryFigure()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        byte[][] keys = Figures.recordKeys(records);
        byte[][] values = Figures.printableValues(seed, valueSize);
        Figures.Plan plan = new Figures.Plan(workloads.size() * schemes.size() * repetitions);
        rows.clear();
        for (Workload w : workloads) {
            for (int rep = 0; rep < repetitions; rep++) {
                // Alternate which scheme goes first between repetitions.
                Scheme[] order = rep % 2 == 0 ? Scheme.values() : new Scheme[] {Scheme.B_DYNAMIC, Scheme.PARTITIONED};
                for (Scheme s : order) {
                    if (!schemes.contains(s)) {
                        continue;
                    }
                    plan.starting(s + ", " + w + ", repetition " + (rep + 1));
                    Map<String, Object> row = runOne(s, w, rep, keys, values);
                    rows.add(row);
                    plan.finished(String.format("%,.0f ops/s, %,.0f CPU ns/op, write memory used %.1f MiB, memory merges %s",
                            row.get("opsPerSecond"), row.get("cpuNanosPerOp"), Figures.number(row, "writeMemoryUsedBytes") / 1048576.0,
                            row.get("memoryMerges")));
                }
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", "paper 000 Figure 8 (scaled)");
        json.put("records", records);
        json.put("valueSize", valueSize);
        json.put("operations", operations);
        json.put("mergeMode", mergeMode.name());
        json.put("memoryTableBytes", Sizes.parse(memoryTable));
        json.put("memoryLevels", memoryLevels);
        json.put("summary", summary());
        json.put("rows", rows);
        Figures.writeJson(out, json);
        Path png = plot != null ? plot : Figures.pngBeside(out);
        plot(png);
        System.err.println("wrote " + out + " and " + png);
        System.out.println(table());
        return 0;
    }

    private Map<String, Object> runOne(Scheme scheme, Workload w, int rep, byte[][] keys, byte[][] values) throws Exception {
        long poolBytes = Sizes.parse(pool);
        int pageSize = 16 * 1024;
        LsmTreeOptions options = scheme == Scheme.PARTITIONED
                ? LsmTreeOptions.defaults(pageSize, Sizes.parse(memoryTable)).withMemoryLevels(memoryLevels)
                : LsmTreeOptions.defaults(pageSize, Sizes.parse(memoryTable)).withMemoryTableBytes(poolBytes).withMemoryLevels(0);
        Path base = dir != null ? Files.createDirectories(dir) : null;
        Path treeDir = base != null ? Files.createTempDirectory(base, "fig8-") : Files.createTempDirectory("fig8-");
        IoStatistics io = new IoStatistics();
        ThreadPoolExecutor background = mergeMode == MergeMode.ASYNC
                ? new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>()) : null;
        ExecutorService flushExecutor = background != null ? background : new DirectExecutorService();
        ThreadPoolExecutor mergeExecutor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        Map<String, Object> row = new LinkedHashMap<>();
        try (BufferCache cache = new BufferCache(BufferCacheOptions.of(pageSize, 16L << 20), io);
             WriteMemoryPool writeMemory = new WriteMemoryPool(WriteMemoryPoolOptions.of(poolBytes).withName("fig8"))) {
            TreeResources resources = new TreeResources(RealFileSystem.create(), cache, writeMemory, io, flushExecutor, mergeExecutor, flushExecutor);
            try (LsmTree tree = LsmTree.open("fig8", treeDir, options, resources)) {
                // Load (not measured).
                AtomicLong done = new AtomicLong();
                Progress progress = new Progress("load " + scheme, done, records);
                long loadStart = System.nanoTime();
                SplittableRandom rnd = new SplittableRandom(seed);
                for (int i = 0; i < records; i++) {
                    tree.put(keys[i], values[rnd.nextInt(values.length)], 0);
                    done.lazySet(i + 1);
                }
                awaitIdle(tree, background);
                double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
                progress.close();

                TreeStatisticsSnapshot before = tree.statistics();
                ScrambledZipfianGenerator zipf = new ScrambledZipfianGenerator(0, records - 1);
                ValueHolder holder = new ValueHolder();
                long found = 0;
                long writes = 0;
                done.set(0);
                progress = new Progress(scheme + " " + w, done, operations);
                long cpu0 = Figures.processCpuNanos();
                long t0 = System.nanoTime();
                for (long i = 0; i < operations; i++) {
                    byte[] key = keys[(int) (long) zipf.nextValue()];
                    if (rnd.nextDouble() < w.writeFraction) {
                        tree.put(key, values[rnd.nextInt(values.length)], 0);
                        writes++;
                    } else if (tree.get(key, holder) == LookupResult.FOUND) {
                        found++;
                    }
                    if ((i & 1023) == 0) {
                        done.lazySet(i);
                    }
                }
                awaitIdle(tree, background);
                long nanos = System.nanoTime() - t0;
                long cpu = Figures.processCpuNanos() - cpu0;
                progress.close();
                TreeStatisticsSnapshot after = tree.statistics();
                long reads = operations - writes;
                row.put("scheme", scheme == Scheme.PARTITIONED ? "Partitioned" : "B+-dynamic");
                row.put("workload", w.name());
                row.put("repetition", rep + 1);
                row.put("operations", operations);
                row.put("writes", writes);
                row.put("reads", reads);
                row.put("readsFound", found);
                row.put("seconds", nanos / 1e9);
                row.put("opsPerSecond", operations / (nanos / 1e9));
                row.put("cpuNanosPerOp", cpu < 0 ? -1.0 : (double) cpu / operations);
                row.put("loadSeconds", loadSeconds);
                row.put("writeMemoryUsedBytes", writeMemory.usedBytes());
                row.put("treeMemoryBytes", tree.memoryBytes());
                row.put("flushes", after.flushes());
                row.put("memorySeals", after.memorySeals() - before.memorySeals());
                row.put("memoryMerges", after.memoryMerges() - before.memoryMerges());
                row.put("memoryMergeInputBytes", after.memoryMergeBytes() - before.memoryMergeBytes());
                long ingested = writes * (long) (keys[0].length + valueSize);
                row.put("memoryMergeInputPerIngestedByte", ingested == 0 ? 0.0
                        : (double) (after.memoryMergeBytes() - before.memoryMergeBytes()) / ingested);
                long sealBytes = after.memorySealBytes() - before.memorySealBytes();
                row.put("memorySealInputBytes", sealBytes);
                // Seals and memory merges together: what the memory levels read (and so rewrote) per byte written.
                row.put("memoryRewritePerIngestedByte", ingested == 0 ? 0.0
                        : (double) (sealBytes + after.memoryMergeBytes() - before.memoryMergeBytes()) / ingested);
                row.put("writeStalls", after.writeStalls() - before.writeStalls());
                // Nothing must have reached disk: the comparison is about the memory component alone.
                if (after.flushes() != 0) {
                    System.err.println("WARNING: " + scheme + " flushed " + after.flushes() + " times; the pool is too small");
                }
                tree.close(false);
            }
            resources.shutdownPools();
        } finally {
            if (background != null) {
                background.shutdownNow();
            }
            mergeExecutor.shutdownNow();
            deleteTree(treeDir);
        }
        return row;
    }

    /** Waits until the tree has no sealed table left and its background thread (if any) is idle. */
    private static void awaitIdle(LsmTree tree, ThreadPoolExecutor background) throws InterruptedException {
        int quiet = 0;
        while (quiet < 2) {
            boolean idle = tree.flushingBytes() == 0
                    && (background == null || (background.getActiveCount() == 0 && background.getQueue().isEmpty()));
            quiet = idle ? quiet + 1 : 0;
            if (quiet < 2) {
                Thread.sleep(background == null ? 0 : 1);
            }
        }
    }

    static void deleteTree(Path p) {
        dev.breakwater.bench.ycsb.ExtendedYcsb.deleteTree(p);
    }

    /** The median row of {@code scheme} and {@code workload} by throughput. */
    private Map<String, Object> median(String scheme, String workload) {
        List<Map<String, Object>> m = rows.stream().filter(r -> r.get("scheme").equals(scheme) && r.get("workload").equals(workload))
                .sorted((a, b) -> Double.compare(Figures.number(a, "opsPerSecond"), Figures.number(b, "opsPerSecond"))).toList();
        return m.isEmpty() ? null : m.get(m.size() / 2);
    }

    private List<Map<String, Object>> summary() {
        List<Map<String, Object>> s = new ArrayList<>();
        for (Workload w : workloads) {
            Map<String, Object> p = median("Partitioned", w.name());
            Map<String, Object> d = median("B+-dynamic", w.name());
            if (p == null || d == null) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("workload", w.name());
            m.put("partitionedOpsPerSecond", p.get("opsPerSecond"));
            m.put("dynamicOpsPerSecond", d.get("opsPerSecond"));
            m.put("throughputRatio", Figures.number(p, "opsPerSecond") / Figures.number(d, "opsPerSecond"));
            m.put("cpuPerOpRatio", Figures.number(p, "cpuNanosPerOp") / Figures.number(d, "cpuNanosPerOp"));
            m.put("partitionedWriteMemoryBytes", p.get("writeMemoryUsedBytes"));
            m.put("dynamicWriteMemoryBytes", d.get("writeMemoryUsedBytes"));
            s.add(m);
        }
        return s;
    }

    String table() {
        StringBuilder b = new StringBuilder("| workload | scheme | rep | ops/s | CPU ns/op | write memory used (MiB) | memory merges | merge input / ingested bytes | seal + merge input / ingested bytes |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : rows) {
            b.append(String.format("| %s | %s | %s | %,.0f | %,.0f | %.1f | %s | %.2f | %.2f |%n", r.get("workload"), r.get("scheme"), r.get("repetition"),
                    Figures.number(r, "opsPerSecond"), Figures.number(r, "cpuNanosPerOp"), Figures.number(r, "writeMemoryUsedBytes") / 1048576.0,
                    r.get("memoryMerges"), Figures.number(r, "memoryMergeInputPerIngestedByte"), Figures.number(r, "memoryRewritePerIngestedByte")));
        }
        for (Map<String, Object> m : summary()) {
            b.append(String.format("%n%s: Partitioned / B+-dynamic throughput %.2f (target >= 0.85), CPU per op %.2f, write memory %.0f / %.0f MiB",
                    m.get("workload"), Figures.number(m, "throughputRatio"), Figures.number(m, "cpuPerOpRatio"),
                    Figures.number(m, "partitionedWriteMemoryBytes") / 1048576.0, Figures.number(m, "dynamicWriteMemoryBytes") / 1048576.0));
        }
        return b.toString();
    }

    private void plot(Path png) throws Exception {
        List<String> names = workloads.stream().map(Enum::name).toList();
        CategoryChart t = new CategoryChartBuilder().width(700).height(450).title("In-memory throughput, 1 thread, no log (median)")
                .yAxisTitle("ops/s").build();
        CategoryChart m = new CategoryChartBuilder().width(700).height(450).title("Write memory used for the same data")
                .yAxisTitle("MiB").build();
        for (String s : List.of("Partitioned", "B+-dynamic")) {
            List<Double> y = new ArrayList<>();
            List<Double> mem = new ArrayList<>();
            for (String w : names) {
                Map<String, Object> r = median(s, w);
                y.add(r == null ? 0 : Figures.number(r, "opsPerSecond"));
                mem.add(r == null ? 0 : Figures.number(r, "writeMemoryUsedBytes") / 1048576.0);
            }
            t.addSeries(s, names, y);
            m.addSeries(s, names, mem);
        }
        t.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        m.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        Figures.writePng(png, List.of(t, m), 2);
    }

    /** One stderr line per second with rate and ETA, until closed. */
    private final class Progress implements AutoCloseable {
        private final Thread thread;
        private volatile boolean stop;

        Progress(String name, AtomicLong done, long target) {
            thread = new Thread(() -> {
                long start = System.nanoTime();
                long last = 0;
                while (!stop) {
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    long d = done.get();
                    double rate = d - last;
                    last = d;
                    System.err.printf("[%s] %5.0fs  %,10.0f ops/s  %,12d ops  ETA %s%n", name, (System.nanoTime() - start) / 1e9, rate, d,
                            rate > 0 ? String.format("%.0fs", (target - d) / rate) : "?");
                }
            }, "fig8-progress");
            thread.setDaemon(true);
            if (!quiet) {
                thread.start();
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.interrupt();
            if (thread.isAlive()) {
                thread.join();
            }
        }
    }
}
