package dev.breakwater.bench.memory;

import dev.breakwater.bench.ycsb.Sizes;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.manager.ManagedTree;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
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
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * Figure 9 of paper 000 (§6.2.1, "benefits of dynamically adjusting disk levels"), scaled: one LSM
 * tree with a partitioned memory component under a continuous stream of updates while its write
 * memory alternates between {@code --large} and {@code --small} every {@code --period} seconds.
 *
 * <p>The tree runs under a real {@link WriteMemoryManager} over its own pool (ticked every 10 ms by
 * the controller thread, which also resizes the pool at each switch). Three ways to size its disk
 * levels:
 * <ul>
 *   <li><b>dynamic</b>: the default; the manager's {@code tick} reports the tree's average write
 *       memory through {@code setWriteMemoryShare}, and the leveling picker adds or retires levels
 *       by it (paper 000 §4.1.3);</li>
 *   <li><b>static-small</b> / <b>static-large</b>: the tree is registered through
 *       {@link PinnedShareTree}, which ignores the manager's share and pins the small or the
 *       large size.</li>
 * </ul>
 *
 * <p>Per mode, on a fresh tree: load {@code --records} records (with the large memory; not
 * measured), wait for merges, then write for {@code 2 · cycles · period} seconds with
 * {@code --threads} writers on Zipfian keys. Every {@code --sample} seconds it records the update
 * rate, the number of disk levels, the pool size and the bytes flushed and merged. Prints one line
 * per sample; writes JSON ({@code --out}) and a PNG ({@code --plot}: throughput per window and
 * levels over time).
 */
@Command(name = "varying-write-memory-figure", mixinStandardHelpOptions = true,
        description = "Paper 000 Figure 9: dynamic vs static disk levels while write memory alternates.")
public final class VaryingWriteMemoryFigure implements Callable<Integer> {

    enum Mode { DYNAMIC, STATIC_SMALL, STATIC_LARGE }

    @Option(names = "--records", defaultValue = "250000", description = "Records loaded. Default: ${DEFAULT-VALUE}.")
    int records;
    @Option(names = "--value-size", defaultValue = "1000", description = "Value bytes. Default: ${DEFAULT-VALUE}.")
    int valueSize;
    @Option(names = "--large", defaultValue = "64m", description = "Large write memory. Default: ${DEFAULT-VALUE}.")
    String large;
    @Option(names = "--small", defaultValue = "4m", description = "Small write memory. Default: ${DEFAULT-VALUE}.")
    String small;
    @Option(names = "--period", defaultValue = "8", description = "Seconds at each size. Default: ${DEFAULT-VALUE}.")
    double period;
    @Option(names = "--cycles", defaultValue = "2", description = "Large+small cycles. Default: ${DEFAULT-VALUE}.")
    int cycles;
    @Option(names = "--sample", defaultValue = "1", description = "Sample window in seconds. Default: ${DEFAULT-VALUE}.")
    double sample;
    @Option(names = "--memory-table", defaultValue = "512k", description = "M0 size (at most small / 8 is safe). Default: ${DEFAULT-VALUE}.")
    String memoryTable;
    @Option(names = "--target-table", defaultValue = "8m", description = "Disk SSTable size. Default: ${DEFAULT-VALUE}.")
    String targetTable;
    @Option(names = "--cache", defaultValue = "64m", description = "Buffer cache. Default: ${DEFAULT-VALUE}.")
    String cache;
    @Option(names = "--threads", defaultValue = "1", description = "Writer threads. Default: ${DEFAULT-VALUE}.")
    int threads;
    @Option(names = "--modes", split = ",", defaultValue = "DYNAMIC,STATIC_SMALL,STATIC_LARGE",
            description = "Subset of ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    List<Mode> modes;
    @Option(names = "--seed", defaultValue = "42", description = "Seed. Default: ${DEFAULT-VALUE}.")
    long seed;
    @Option(names = "--dir", description = "Parent of the per-run tree directories. Default: a temp dir.")
    Path dir;
    @Option(names = "--out", defaultValue = "fig9.json", description = "JSON results. Default: ${DEFAULT-VALUE}.")
    Path out;
    @Option(names = "--plot", description = "PNG plot (default: beside --out).")
    Path plot;
    @Option(names = "--quiet", description = "No per-sample lines.")
    boolean quiet;

    /** Results of the last call, by mode label, for tests. */
    final Map<String, Map<String, Object>> results = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new VaryingWriteMemoryFigure()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    static String label(Mode m) {
        return switch (m) {
            case DYNAMIC -> "dynamic";
            case STATIC_SMALL -> "static-small";
            case STATIC_LARGE -> "static-large";
        };
    }

    @Override
    public Integer call() throws Exception {
        byte[][] keys = Figures.recordKeys(records);
        byte[][] values = Figures.printableValues(seed, valueSize);
        Figures.Plan plan = new Figures.Plan(modes.size());
        results.clear();
        for (Mode m : modes) {
            plan.starting(label(m) + String.format(" (%s / %s every %.0f s, %d cycles)", large, small, period, cycles));
            Map<String, Object> r = runOne(m, keys, values);
            results.put(label(m), r);
            plan.finished(String.format("%,.0f updates/s overall, %,.0f B written/update, disk levels %s",
                    r.get("opsPerSecond"), r.get("bytesWrittenPerOp"), r.get("levelRange")));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", "paper 000 Figure 9 (scaled)");
        json.put("records", records);
        json.put("valueSize", valueSize);
        json.put("largeBytes", Sizes.parse(large));
        json.put("smallBytes", Sizes.parse(small));
        json.put("periodSeconds", period);
        json.put("cycles", cycles);
        json.put("modes", results);
        Figures.writeJson(out, json);
        Path png = plot != null ? plot : Figures.pngBeside(out);
        plot(png);
        System.err.println("wrote " + out + " and " + png);
        System.out.println(table());
        return 0;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> runOne(Mode mode, byte[][] keys, byte[][] values) throws Exception {
        long largeBytes = Sizes.parse(large);
        long smallBytes = Sizes.parse(small);
        int pageSize = 16 * 1024;
        LsmTreeOptions options = LsmTreeOptions.defaults(pageSize, Sizes.parse(memoryTable)).withMemoryLevels(2)
                .withTargetTableBytes(Sizes.parse(targetTable));
        Path base = dir != null ? Files.createDirectories(dir) : null;
        Path treeDir = base != null ? Files.createTempDirectory(base, "fig9-") : Files.createTempDirectory("fig9-");
        IoStatistics io = new IoStatistics();
        AtomicLong logPosition = new AtomicLong(); // bytes written so far stand in for the log
        Map<String, Object> result = new LinkedHashMap<>();
        try (BufferCache bc = new BufferCache(BufferCacheOptions.of(pageSize, Sizes.parse(cache)), io);
             WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(largeBytes).withName("fig9"))) {
            TreeResources resources = TreeResources.withPools(RealFileSystem.create(), bc, pool, io, 1, 1);
            WriteMemoryManager manager = new WriteMemoryManager(pool, new WriteMemoryOptions(WriteMemoryScheme.PARTITIONED,
                    FlushPolicyKind.OPTIMAL, 0.95, 8, Math.max(1, 4 * largeBytes), Sizes.parse(memoryTable)), logPosition::get);
            try (LsmTree tree = LsmTree.open("fig9", treeDir, options, resources)) {
                ManagedTree managed = switch (mode) {
                    case DYNAMIC -> tree;
                    case STATIC_SMALL -> new PinnedShareTree(tree, smallBytes);
                    case STATIC_LARGE -> new PinnedShareTree(tree, largeBytes);
                };
                manager.register(managed, "fig9");
                Controller controller = new Controller(manager, pool);
                controller.start();
                try {
                    // Load with the large memory (not measured).
                    long loadStart = System.nanoTime();
                    SplittableRandom rnd = new SplittableRandom(seed);
                    for (int i = 0; i < records; i++) {
                        tree.put(keys[i], values[rnd.nextInt(values.length)], logPosition.addAndGet(keys[i].length + valueSize));
                        if (!quiet && i > 0 && i % 50_000 == 0) {
                            System.err.printf("[load %s] %,d of %,d records, %.0fs%n", label(mode), i, records, (System.nanoTime() - loadStart) / 1e9);
                        }
                    }
                    tree.awaitMerges();
                    result.put("loadSeconds", (System.nanoTime() - loadStart) / 1e9);
                    result.put("levelsAfterLoad", diskLevels(tree.statistics()));

                    // Measured: writers run while the controller alternates the pool size.
                    AtomicLong done = new AtomicLong();
                    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                    List<Thread> writers = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        long ts = seed * 7919 + t;
                        writers.add(new Thread(() -> {
                            SplittableRandom r = new SplittableRandom(ts);
                            ScrambledZipfianGenerator zipf = new ScrambledZipfianGenerator(0, records - 1);
                            try {
                                while (!controller.stopWriters) {
                                    byte[] k = keys[(int) (long) zipf.nextValue()];
                                    tree.put(k, values[r.nextInt(values.length)], logPosition.addAndGet(k.length + valueSize));
                                    done.incrementAndGet();
                                }
                            } catch (Throwable e) {
                                errors.add(e);
                            }
                        }, "fig9-writer-" + t));
                    }
                    TreeStatisticsSnapshot s0 = tree.statistics();
                    long flushIo0 = io.snapshot().bytesWritten(IoPurpose.FLUSH);
                    long mergeIo0 = io.snapshot().bytesWritten(IoPurpose.MERGE);
                    List<Map<String, Object>> samples = new ArrayList<>();
                    long t0 = System.nanoTime();
                    writers.forEach(Thread::start);
                    int windows = 2 * cycles;
                    long lastDone = 0;
                    long lastT = t0;
                    TreeStatisticsSnapshot last = s0;
                    double total = windows * period;
                    double nextSample = sample;
                    int lastWindow = -1;
                    while (true) {
                        double elapsed = (System.nanoTime() - t0) / 1e9;
                        int window = (int) Math.min(windows - 1, Math.floor(elapsed / period));
                        if (window != lastWindow) {
                            long target = window % 2 == 0 ? largeBytes : smallBytes;
                            controller.requestResize(target);
                            lastWindow = window;
                        }
                        if (elapsed >= nextSample || elapsed >= total) {
                            long now = System.nanoTime();
                            long d = done.get();
                            TreeStatisticsSnapshot s = tree.statistics();
                            Map<String, Object> smp = new LinkedHashMap<>();
                            smp.put("t", (now - t0) / 1e9);
                            smp.put("window", window);
                            smp.put("writeMemory", pool.capacityBytes());
                            smp.put("writeMemoryUsed", pool.usedBytes());
                            smp.put("opsPerSecond", (d - lastDone) / ((now - lastT) / 1e9));
                            smp.put("diskLevels", diskLevels(s));
                            smp.put("l0Groups", s.l0Groups());
                            smp.put("levelBytes", s.levelBytes());
                            smp.put("flushBytes", s.bytesFlushed() - last.bytesFlushed());
                            smp.put("mergeBytes", s.mergeBytesWritten() - last.mergeBytesWritten());
                            samples.add(smp);
                            if (!quiet) {
                                System.err.printf("[%s] %5.1fs  memory %3d MiB  %,9.0f updates/s  disk levels %d  L0 groups %d  merged %,.0f MiB  ETA %.0fs%n",
                                        label(mode), smp.get("t"), pool.capacityBytes() >> 20, smp.get("opsPerSecond"), smp.get("diskLevels"),
                                        s.l0Groups(), (s.mergeBytesWritten() - last.mergeBytesWritten()) / 1048576.0, Math.max(0, total - elapsed));
                            }
                            lastDone = d;
                            lastT = now;
                            last = s;
                            nextSample += sample;
                        }
                        if (elapsed >= total || !errors.isEmpty()) {
                            break;
                        }
                        Thread.sleep(10);
                    }
                    controller.stopWriters = true;
                    for (Thread w : writers) {
                        w.join();
                    }
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    if (!errors.isEmpty()) {
                        throw new IllegalStateException("writer failed", errors.peek());
                    }
                    TreeStatisticsSnapshot s1 = tree.statistics();
                    long ops = done.get();
                    long flushed = s1.bytesFlushed() - s0.bytesFlushed();
                    long merged = s1.mergeBytesWritten() - s0.mergeBytesWritten();
                    result.put("mode", label(mode));
                    result.put("operations", ops);
                    result.put("seconds", seconds);
                    result.put("opsPerSecond", ops / seconds);
                    result.put("bytesFlushed", flushed);
                    result.put("bytesMerged", merged);
                    result.put("bytesWrittenPerOp", ops == 0 ? 0.0 : (double) (flushed + merged) / ops);
                    result.put("ioFlushBytes", io.snapshot().bytesWritten(IoPurpose.FLUSH) - flushIo0);
                    result.put("ioMergeBytes", io.snapshot().bytesWritten(IoPurpose.MERGE) - mergeIo0);
                    result.put("writeStalls", s1.writeStalls() - s0.writeStalls());
                    result.put("writeStallMillis", (s1.writeStallNanos() - s0.writeStallNanos()) / 1_000_000);
                    result.put("flushStops", s1.flushStops() - s0.flushStops());
                    result.put("windows", windowSummary(samples, windows));
                    int min = samples.stream().mapToInt(x -> (Integer) x.get("diskLevels")).min().orElse(0);
                    int max = samples.stream().mapToInt(x -> (Integer) x.get("diskLevels")).max().orElse(0);
                    result.put("levelRange", min == max ? Integer.toString(min) : min + ".." + max);
                    result.put("samples", samples);
                } finally {
                    controller.stopWriters = true;
                    controller.shutdown();
                }
                manager.unregister(managed);
                tree.close(false);
            }
            resources.shutdownPools();
        } finally {
            dev.breakwater.bench.ycsb.ExtendedYcsb.deleteTree(treeDir);
        }
        return result;
    }

    /** Disk levels below L0 holding data. */
    private static int diskLevels(TreeStatisticsSnapshot s) {
        int n = 0;
        for (int i = 1; i < s.levelBytes().size(); i++) {
            if (s.levelBytes().get(i) > 0) {
                n++;
            }
        }
        return n;
    }

    /** Throughput per window (one write-memory size each). */
    private List<Map<String, Object>> windowSummary(List<Map<String, Object>> samples, int windows) {
        List<Map<String, Object>> w = new ArrayList<>();
        for (int i = 0; i < windows; i++) {
            double ops = 0;
            double secs = 0;
            double prevT = 0;
            int maxLevels = 0;
            for (Map<String, Object> s : samples) {
                double t = (Double) s.get("t");
                if ((Integer) s.get("window") == i) {
                    ops += (Double) s.get("opsPerSecond") * (t - prevT);
                    secs += t - prevT;
                    maxLevels = Math.max(maxLevels, (Integer) s.get("diskLevels"));
                }
                prevT = t;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("window", i);
            m.put("writeMemory", i % 2 == 0 ? large : small);
            m.put("opsPerSecond", secs == 0 ? 0 : ops / secs);
            m.put("maxDiskLevels", maxLevels);
            w.add(m);
        }
        return w;
    }

    @SuppressWarnings("unchecked")
    String table() {
        StringBuilder b = new StringBuilder("| mode | updates/s overall | per window (" + large + ", " + small + ", ...) | B written/update | disk levels | stalls |\n|---|---|---|---|---|---|\n");
        for (var e : results.entrySet()) {
            Map<String, Object> r = e.getValue();
            StringBuilder w = new StringBuilder();
            for (Map<String, Object> x : (List<Map<String, Object>>) r.get("windows")) {
                w.append(w.length() == 0 ? "" : ", ").append(String.format("%,.0f", Figures.number(x, "opsPerSecond")));
            }
            b.append(String.format("| %s | %,.0f | %s | %,.0f | %s | %s |%n", e.getKey(), Figures.number(r, "opsPerSecond"), w,
                    Figures.number(r, "bytesWrittenPerOp"), r.get("levelRange"), r.get("writeStalls")));
        }
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    private void plot(Path png) throws Exception {
        XYChart t = new XYChartBuilder().width(800).height(450).title("Write throughput, memory " + large + " / " + small + " alternating")
                .xAxisTitle("seconds").yAxisTitle("updates/s").build();
        XYChart l = new XYChartBuilder().width(800).height(450).title("Disk levels (below L0)")
                .xAxisTitle("seconds").yAxisTitle("levels").build();
        for (var e : results.entrySet()) {
            List<Map<String, Object>> samples = (List<Map<String, Object>>) e.getValue().get("samples");
            if (samples.isEmpty()) {
                continue;
            }
            List<Double> x = samples.stream().map(s -> (Double) s.get("t")).toList();
            t.addSeries(e.getKey(), x, samples.stream().map(s -> (Double) s.get("opsPerSecond")).toList());
            l.addSeries(e.getKey(), x, samples.stream().map(s -> ((Integer) s.get("diskLevels")).doubleValue()).toList());
        }
        t.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        l.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        Figures.writePng(png, List.of(t, l), 1);
    }

    /**
     * The only thread that calls the manager: ticks it every 10 ms and applies pool resizes asked
     * for by the driver ({@code tick} and {@code resize} must not run concurrently).
     */
    private static final class Controller extends Thread {
        private final WriteMemoryManager manager;
        private final WriteMemoryPool pool;
        private volatile long resizeTo = -1;
        private volatile boolean stop;
        volatile boolean stopWriters;

        Controller(WriteMemoryManager manager, WriteMemoryPool pool) {
            super("fig9-controller");
            setDaemon(true);
            this.manager = manager;
            this.pool = pool;
        }

        void requestResize(long bytes) {
            resizeTo = bytes;
        }

        @Override
        public void run() {
            while (!stop) {
                long r = resizeTo;
                if (r > 0) {
                    resizeTo = -1;
                    if (r != pool.capacityBytes()) {
                        manager.resize(r, 5_000);
                    }
                }
                manager.tick();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void shutdown() throws InterruptedException {
            stop = true;
            interrupt();
            join();
        }
    }
}
