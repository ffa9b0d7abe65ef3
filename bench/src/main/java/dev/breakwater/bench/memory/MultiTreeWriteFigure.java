package dev.breakwater.bench.memory;

import dev.breakwater.bench.ycsb.ExtendedYcsb;
import dev.breakwater.bench.ycsb.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Figure 10 of paper 000 (§6.2.2), scaled: many datasets with only a primary tree, a write-only
 * stream of updates to existing keys after a load phase, an x/y hotspot across datasets and
 * YCSB's Zipfian within each, under each write-memory scheme and flush policy.
 *
 * <p>What it measures, per configuration: update throughput and bytes written per update by
 * flushes plus merges (from the engine's per-tree statistics, and {@code /proc/self/io}
 * {@code write_bytes} of the whole process as a cross-check, which also holds the log). Every
 * configuration runs the same number of operations with the same seed on a fresh data directory,
 * through {@link ExtendedYcsb#runConfiguration}. Part a: the configurations at each
 * {@code --write-memory} size with the {@code --hotspot} skew; part b: every configuration at each
 * {@code --skews} value with {@code --skew-write-memory}. Prints one progress line per second
 * (the YCSB driver's) and one per configuration with the plan's ETA; writes all rows as JSON
 * ({@code --out}) and a 2×2 PNG ({@code --plot}).
 */
@Command(name = "multi-tree-write-figure", mixinStandardHelpOptions = true,
        description = "Paper 000 Figure 10: write-memory schemes and flush policies on many primary trees.")
public final class MultiTreeWriteFigure implements Callable<Integer> {

    /** The compared schemes: paper names, and the engine options that select them. */
    enum Scheme {
        B_STATIC("B+-static", "STATIC", "MAX_MEMORY", 8),
        B_STATIC_TUNED("B+-static-tuned", "STATIC", "MAX_MEMORY", -1),
        B_DYNAMIC_MEM("B+-dynamic-MEM", "DYNAMIC", "MAX_MEMORY", 0),
        B_DYNAMIC_LSN("B+-dynamic-LSN", "DYNAMIC", "MIN_LSN", 0),
        B_DYNAMIC_OPT("B+-dynamic-OPT", "DYNAMIC", "OPTIMAL", 0),
        PARTITIONED_MEM("Partitioned-MEM", "PARTITIONED", "MAX_MEMORY", 0),
        PARTITIONED_LSN("Partitioned-LSN", "PARTITIONED", "MIN_LSN", 0),
        PARTITIONED_OPT("Partitioned-OPT", "PARTITIONED", "OPTIMAL", 0);

        final String label;
        final String scheme;
        final String policy;
        /** D for STATIC: a fixed value, -1 for "one per dataset" (tuned), 0 for not STATIC. */
        final int activeDatasets;

        Scheme(String label, String scheme, String policy, int activeDatasets) {
            this.label = label;
            this.scheme = scheme;
            this.policy = policy;
            this.activeDatasets = activeDatasets;
        }
    }

    @Option(names = "--dir", description = "Parent of the per-run data directories. Default: a temp dir.")
    Path dir;
    @Option(names = "--datasets", defaultValue = "10", description = "Datasets (primary trees). Default: ${DEFAULT-VALUE}.")
    int datasets;
    @Option(names = "--records", defaultValue = "20000", description = "Records (~1 KB) loaded per dataset. Default: ${DEFAULT-VALUE}.")
    long records;
    @Option(names = "--operations", defaultValue = "200000", description = "Measured updates per configuration. Default: ${DEFAULT-VALUE}.")
    long operations;
    @Option(names = "--max-seconds", defaultValue = "60",
            description = "Cap on one configuration's measured phase; bytes/op stay per operation actually run. Default: ${DEFAULT-VALUE}.")
    double maxSeconds;
    @Option(names = "--warmup", defaultValue = "2", description = "Warm-up seconds before measuring. Default: ${DEFAULT-VALUE}.")
    double warmup;
    @Option(names = "--threads", defaultValue = "2", description = "Client threads. Default: ${DEFAULT-VALUE}.")
    int threads;
    @Option(names = "--write-memory", split = ",", defaultValue = "16m,64m",
            description = "Write-memory sizes of part a; \"\" runs no part a (only part b). Default: ${DEFAULT-VALUE}.")
    List<String> writeMemory;
    @Option(names = "--hotspot", defaultValue = "80/20", description = "Skew of part a. Default: ${DEFAULT-VALUE}.")
    String hotspot;
    @Option(names = "--skews", split = ",", defaultValue = "50/50,70/30,80/20,90/10",
            description = "Skews of part b (empty: skip). Default: ${DEFAULT-VALUE}.")
    List<String> skews;
    @Option(names = "--skew-write-memory", defaultValue = "16m", description = "Write memory of part b. Default: ${DEFAULT-VALUE}.")
    String skewWriteMemory;
    @Option(names = "--cache", defaultValue = "128m", description = "Buffer cache (total memory = write memory + this). Default: ${DEFAULT-VALUE}.")
    String cache;
    @Option(names = "--max-log-size", defaultValue = "256m", description = "Engine max log size. Default: ${DEFAULT-VALUE}.")
    String maxLogSize;
    @Option(names = "--schemes", split = ",", description = "Subset of ${COMPLETION-CANDIDATES}. Default: all.")
    List<Scheme> schemes;
    @Option(names = "--direct-io", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Direct I/O for disk reads. Default: ${DEFAULT-VALUE}.")
    boolean directIo;
    @Option(names = "--engine-option", description = "Engine option name=value for every configuration (repeatable).")
    List<String> engineOptions = new ArrayList<>();
    @Option(names = "--seed", defaultValue = "42", description = "Seed (the same for every configuration). Default: ${DEFAULT-VALUE}.")
    long seed;
    @Option(names = "--out", defaultValue = "fig10.json", description = "JSON results. Default: ${DEFAULT-VALUE}.")
    Path out;
    @Option(names = "--plot", description = "PNG plot (default: beside --out).")
    Path plot;
    @Option(names = "--quiet", description = "No per-second progress lines.")
    boolean quiet;
    @Option(names = "--tree-series-millis", defaultValue = "1000",
            description = "Per-tree time series (write memory by level, flushes by cause, L0) every this many milliseconds, kept "
                    + "in each row's treeSeries (0: none). Default: ${DEFAULT-VALUE}.")
    long treeSeriesMillis;
    @Option(names = "--replot", description = "Run nothing: read the rows of this JSON result and redraw the PNG and table.")
    Path replot;

    /** Result rows of the last call, for tests. */
    final List<Map<String, Object>> rows = new ArrayList<>();

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new MultiTreeWriteFigure()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<Scheme> list = schemes == null || schemes.isEmpty() ? List.of(Scheme.values()) : schemes;
        writeMemory = writeMemory == null ? List.of() : writeMemory.stream().filter(w -> !w.isBlank()).toList();
        if (replot != null) {
            Map<String, Object> old = new com.fasterxml.jackson.databind.ObjectMapper().readValue(replot.toFile(), Map.class);
            rows.clear();
            for (Object r : (List<?>) old.get("rows")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> row = (Map<String, Object>) r;
                rows.add(row);
            }
            Path png = plot != null ? plot : Figures.pngBeside(replot);
            plot(list, png);
            System.err.println("wrote " + png);
            System.out.println(table());
            return 0;
        }
        List<String[]> plan = new ArrayList<>(); // part, write memory, skew
        for (String wm : writeMemory) {
            for (Scheme s : list) {
                plan.add(new String[] {"a", wm, hotspot, s.name()});
            }
        }
        for (String skew : skews == null ? List.<String>of() : skews) {
            if (skew.isBlank()) {
                continue;
            }
            boolean inPartA = skew.equals(hotspot) && writeMemory.stream().anyMatch(w -> Sizes.parse(w) == Sizes.parse(skewWriteMemory));
            for (Scheme s : list) {
                plan.add(new String[] {inPartA ? "b=a" : "b", skewWriteMemory, skew, s.name()});
            }
        }
        Figures.Plan progress = new Figures.Plan((int) plan.stream().filter(p -> !p[0].equals("b=a")).count());
        rows.clear();
        for (String[] p : plan) {
            Scheme s = Scheme.valueOf(p[3]);
            if (p[0].equals("b=a")) { // the same configuration already ran in part a: reuse its row
                Map<String, Object> copy = new LinkedHashMap<>(row("a", s.label, Sizes.parse(p[1]), p[2]));
                copy.put("part", "b");
                copy.put("reusedFromPartA", true);
                rows.add(copy);
                continue;
            }
            progress.starting(String.format("part %s: %s, write memory %s, hotspot %s", p[0], s.label, p[1], p[2]));
            Map<String, Object> row = runOne(p[0], s, p[1], p[2]);
            rows.add(row);
            progress.finished(String.format("%,.0f updates/s, %,.0f B/op flush+merge (%,.0f /proc), stalls %s",
                    row.get("opsPerSecond"), row.get("engineBytesPerOp"), row.get("procWriteBytesPerOp"), row.get("writeStalls")));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", "paper 000 Figure 10 (scaled)");
        json.put("datasets", datasets);
        json.put("recordsPerDataset", records);
        json.put("operations", operations);
        json.put("seed", seed);
        json.put("targets", targets());
        json.put("rows", rows);
        Figures.writeJson(out, json);
        Path png = plot != null ? plot : Figures.pngBeside(out);
        plot(list, png);
        System.err.println("wrote " + out + " and " + png);
        System.out.println(table());
        return 0;
    }

    private Map<String, Object> runOne(String part, Scheme s, String wm, String skew) throws Exception {
        long wmBytes = Sizes.parse(wm);
        List<String> args = new ArrayList<>(List.of("--workload", "WRITE_ONLY", "--datasets", Integer.toString(datasets),
                "--records", Long.toString(records), "--hotspot", skew, "--threads", Integer.toString(threads),
                "--operations", Long.toString(operations), "--max-seconds", Double.toString(maxSeconds), "--warmup", Double.toString(warmup),
                "--write-memory", Long.toString(wmBytes), "--total-memory", Long.toString(wmBytes + Sizes.parse(cache)),
                "--max-log-size", maxLogSize, "--durability", "ASYNC", "--seed", Long.toString(seed),
                "--write-memory-scheme", s.scheme, "--flush-policy", s.policy, directIo ? "--direct-io" : "--no-direct-io"));
        if (s.activeDatasets != 0) {
            args.add("--static-active-datasets");
            args.add(Integer.toString(s.activeDatasets > 0 ? s.activeDatasets : datasets));
        }
        for (String o : engineOptions) {
            args.add("--engine-option");
            args.add(o);
        }
        if (dir != null) {
            args.add("--dir");
            args.add(dir.toString());
        }
        if (quiet) {
            args.add("--quiet");
        }
        if (treeSeriesMillis > 0) {
            args.add("--tree-series-millis");
            args.add(Long.toString(treeSeriesMillis));
        }
        Map<String, Object> r = ExtendedYcsb.runConfiguration(args.toArray(String[]::new));
        Map<String, Object> run = Figures.map(r, "run");
        Map<String, Object> eng = Figures.map(run, "engine");
        double ops = Figures.number(run, "operations");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("part", part);
        row.put("scheme", s.label);
        row.put("writeMemory", wmBytes);
        row.put("hotspot", skew);
        row.put("operations", (long) ops);
        row.put("seconds", run.get("seconds"));
        row.put("opsPerSecond", run.get("opsPerSecond"));
        double flushed = Figures.number(eng, "bytesFlushed");
        double merged = Figures.number(eng, "mergeBytesWritten");
        row.put("flushBytesPerOp", flushed / ops);
        row.put("mergeBytesPerOp", merged / ops);
        row.put("engineBytesPerOp", (flushed + merged) / ops);
        row.put("procWriteBytesPerOp", Figures.number(Figures.map(eng, "procSelfIo"), "writeBytes") / ops);
        row.put("logBytesPerOp", Figures.number(eng, "logBytesWritten") / ops);
        row.put("bytesFlushedForMemory", eng.get("bytesFlushedForMemory"));
        row.put("bytesFlushedForLog", eng.get("bytesFlushedForLog"));
        row.put("flushes", eng.get("flushes"));
        row.put("merges", eng.get("merges"));
        row.put("averageFlushBytes", Figures.number(eng, "flushes") == 0 ? 0.0 : flushed / Figures.number(eng, "flushes"));
        row.put("writeAmplification", eng.get("writeAmplification"));
        row.put("mergeBytesPerOpByLevel", mergeBytesPerOpByLevel(Figures.map(eng, "trees"), ops));
        row.put("writeStalls", eng.get("writeStalls"));
        row.put("writeStallMillis", eng.get("writeStallMillis"));
        row.put("updateLatencyMicros", Figures.map(Figures.map(Figures.map(run, "ops"), "UPDATE"), "latencyMicros"));
        row.put("load", Map.of("seconds", Figures.map(r, "load").get("seconds")));
        row.put("config", r.get("config"));
        row.put("trees", eng.get("trees"));
        if (run.containsKey("treeSeries")) {
            row.put("treeSeriesWarmupSeconds", run.get("treeSeriesWarmupSeconds"));
            row.put("treeSeries", run.get("treeSeries"));
        }
        return row;
    }

    /** Merge bytes written per update by output level (L0 first), summed over the trees' {@code mergeBytesWrittenByLevel}. */
    static List<Double> mergeBytesPerOpByLevel(Map<String, Object> trees, double ops) {
        List<Double> sum = new ArrayList<>();
        for (Object t : trees.values()) {
            List<?> levels = (List<?>) ((Map<?, ?>) t).get("mergeBytesWrittenByLevel");
            for (int i = 0; levels != null && i < levels.size(); i++) {
                if (sum.size() <= i) {
                    sum.add(0.0);
                }
                sum.set(i, sum.get(i) + ((Number) levels.get(i)).doubleValue() / ops);
            }
        }
        return sum;
    }

    private Map<String, Object> row(String part, String scheme, long wm, String skew) {
        for (Map<String, Object> r : rows) {
            if (r.get("part").equals(part) && r.get("scheme").equals(scheme) && ((Number) r.get("writeMemory")).longValue() == wm
                    && r.get("hotspot").equals(skew)) {
                return r;
            }
        }
        return null;
    }

    /** Partitioned-OPT bytes/op over B+-static and B+-dynamic-MEM, per part-a write memory (issue 5 targets ≤ 0.5, ≤ 0.8). */
    private List<Map<String, Object>> targets() {
        List<Map<String, Object>> t = new ArrayList<>();
        for (String wm : writeMemory) {
            long w = Sizes.parse(wm);
            Map<String, Object> opt = row("a", Scheme.PARTITIONED_OPT.label, w, hotspot);
            Map<String, Object> st = row("a", Scheme.B_STATIC.label, w, hotspot);
            Map<String, Object> dyn = row("a", Scheme.B_DYNAMIC_MEM.label, w, hotspot);
            if (opt == null) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("writeMemory", w);
            putRatio(m, "optOverStatic", opt, st);
            putRatio(m, "optOverDynamicMem", opt, dyn);
            t.add(m);
        }
        return t;
    }

    /**
     * Puts Partitioned-OPT's bytes/op over the baseline's under {@code key}, when the baseline ran and wrote bytes in its
     * measured phase; a baseline that wrote nothing (a run too short for a flush to finish) gets {@code key + "Missing"}
     * with the reason instead of a ratio of NaN or infinity.
     */
    static void putRatio(Map<String, Object> m, String key, Map<String, Object> opt, Map<String, Object> baseline) {
        if (baseline == null) {
            return;
        }
        double denominator = Figures.number(baseline, "engineBytesPerOp");
        if (denominator > 0) {
            m.put(key, Figures.number(opt, "engineBytesPerOp") / denominator);
        } else {
            m.put(key + "Missing", baseline.get("scheme") + " wrote no bytes in its measured phase; run more operations");
        }
    }

    /** A Markdown table of every row. */
    String table() {
        StringBuilder b = new StringBuilder();
        b.append("| part | scheme | write memory | hotspot | updates/s | flush B/op | merge B/op | flush+merge B/op | /proc write B/op | stalls |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : rows) {
            b.append(String.format("| %s | %s | %d MiB | %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %s |%n", r.get("part"), r.get("scheme"),
                    ((Number) r.get("writeMemory")).longValue() >> 20, r.get("hotspot"), Figures.number(r, "opsPerSecond"),
                    Figures.number(r, "flushBytesPerOp"), Figures.number(r, "mergeBytesPerOp"), Figures.number(r, "engineBytesPerOp"),
                    Figures.number(r, "procWriteBytesPerOp"), r.get("writeStalls")));
        }
        for (Map<String, Object> t : targets()) {
            // A run of a subset of schemes (--schemes) may lack either baseline: print only the ratios it has.
            b.append(String.format("%nwrite memory %d MiB: Partitioned-OPT bytes/op =", ((Number) t.get("writeMemory")).longValue() >> 20));
            if (t.containsKey("optOverStatic")) {
                b.append(String.format(" %.2f x B+-static (target <= 0.5)", Figures.number(t, "optOverStatic")));
            }
            if (t.containsKey("optOverDynamicMem")) {
                b.append(String.format(" %.2f x B+-dynamic-MEM (target <= 0.8)", Figures.number(t, "optOverDynamicMem")));
            }
            for (String missing : List.of("optOverStaticMissing", "optOverDynamicMemMissing")) {
                if (t.containsKey(missing)) {
                    b.append(" no ratio: ").append(t.get(missing)).append('.');
                }
            }
        }
        return b.toString();
    }

    private void plot(List<Scheme> list, Path png) throws Exception {
        List<String> labels = list.stream().map(s -> s.label).toList();
        CategoryChart tput = bar("(a) throughput, hotspot " + hotspot, "updates/s");
        CategoryChart bytes = bar("(a) bytes written per update (flush + merge)", "log10(bytes/op)");
        for (String wm : writeMemory) {
            long w = Sizes.parse(wm);
            List<Double> t = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Scheme s : list) {
                Map<String, Object> r = row("a", s.label, w, hotspot);
                t.add(r == null ? 0 : Figures.number(r, "opsPerSecond"));
                y.add(r == null ? 0 : log10(Figures.number(r, "engineBytesPerOp")));
            }
            tput.addSeries("write memory " + wm, labels, t);
            bytes.addSeries("write memory " + wm, labels, y);
        }
        List<CategoryChart> charts = new ArrayList<>();
        if (!writeMemory.isEmpty()) {
            charts.add(tput);
            charts.add(bytes);
        }
        List<String> skewList = skews == null ? List.of() : skews.stream().filter(x -> !x.isBlank()).toList();
        if (!skewList.isEmpty()) {
            long w = Sizes.parse(skewWriteMemory);
            CategoryChart st = bar("(b) throughput by skew, write memory " + skewWriteMemory, "updates/s");
            CategoryChart sb = bar("(b) bytes per update by skew, write memory " + skewWriteMemory, "log10(bytes/op)");
            for (Scheme s : list) {
                List<Double> t = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (String skew : skewList) {
                    Map<String, Object> r = row("b", s.label, w, skew);
                    t.add(r == null ? 0 : Figures.number(r, "opsPerSecond"));
                    y.add(r == null ? 0 : log10(Figures.number(r, "engineBytesPerOp")));
                }
                st.addSeries(s.label, skewList, t);
                sb.addSeries(s.label, skewList, y);
            }
            charts.add(st);
            charts.add(sb);
        }
        Figures.writePng(png, charts, 2);
    }

    /**
     * XChart cannot draw bars on a logarithmic axis, and B+-static writes ~1000x more than the
     * others: the bytes charts plot log10 of the value on a linear axis instead.
     */
    private static double log10(double v) {
        return v <= 1 ? 0 : Math.log10(v);
    }

    private static CategoryChart bar(String title, String yTitle) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(480).title(title).yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setXAxisLabelRotation(30);
        return c;
    }
}
