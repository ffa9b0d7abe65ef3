package dev.breakwater.bench.tuner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Paper 000's tuner figures from {@code ExtendedYcsb} results ({@link YcsbRun}):
 * <ul>
 *   <li>Figure 12 ({@link #fig12}): per tuner run, the write memory after each cycle of the measured
 *       phase and the cycle's cost per operation, against seconds since the phase's first cycle;</li>
 *   <li>Figure 6 on YCSB ({@link #fig6}): the measured cost(x) curve of fixed splits
 *       ({@code ycsb-fixed-<x>m*.json}, repeats averaged) with its write and read parts, and each
 *       tuner run of the same setting placed at the write memory where it ended, at its measured
 *       cost.</li>
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
final class YcsbTunerRuns {

    private YcsbTunerRuns() {
    }

    /**
     * One column per total memory: write memory after each cycle above, the cycle's cost below;
     * {@code figure} prefixes the titles (e.g. "Fig. 12: ").
     */
    static Map<String, Object> fig12(List<YcsbRun> runs, Path png, String figure) throws IOException {
        TreeMap<Double, XYChart[]> columns = new TreeMap<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (YcsbRun r : runs) {
            XYChart[] col = columns.computeIfAbsent(r.totalMemoryMiB(), m -> new XYChart[] {
                chart(String.format(Locale.ROOT, "%swrite memory chosen per cycle, total %.0f MiB", figure, m),
                        "seconds since the measured phase's first cycle", "MiB"),
                chart(String.format(Locale.ROOT, "cost per engine operation per cycle, total %.0f MiB", m),
                        "seconds since the measured phase's first cycle", "pages per operation")});
            XYChart x = col[0], cost = col[1];
            List<Double> t = new ArrayList<>(), xs = new ArrayList<>(), cs = new ArrayList<>();
            for (YcsbRun.Cycle c : r.cycles()) {
                t.add(c.seconds());
                xs.add(c.xAfterMiB());
                cs.add(c.cost());
            }
            if (!t.isEmpty()) {
                x.addSeries(r.name(), t, xs).setMarker(SeriesMarkers.NONE);
                cost.addSeries(r.name(), t, cs).setMarker(SeriesMarkers.NONE);
            }
            Map<String, Object> row = r.tunerSummary();
            row.put("writeRatio", r.writeRatio());
            row.put("totalMemoryMiB", r.totalMemoryMiB());
            row.put("datasets", r.datasets());
            row.put("minMiB", r.cycles().stream().mapToDouble(YcsbRun.Cycle::xAfterMiB).min().orElse(Double.NaN));
            row.put("maxMiB", r.cycles().stream().mapToDouble(YcsbRun.Cycle::xAfterMiB).max().orElse(Double.NaN));
            row.put("meanCycleCostLastFive", cs.isEmpty() ? Double.NaN
                    : cs.subList(Math.max(0, cs.size() - 5), cs.size()).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
            row.put("reasons", r.cycles().stream().collect(java.util.stream.Collectors.groupingBy(YcsbRun.Cycle::reason,
                    java.util.TreeMap::new, java.util.stream.Collectors.counting())));
            rows.add(row);
        }
        List<XYChart> charts = new ArrayList<>();
        columns.values().forEach(col -> charts.add(col[0]));
        columns.values().forEach(col -> charts.add(col[1]));
        save(png, charts, 2);
        return Map.of("summary", rows, "cycles", runs.stream().map(r -> Map.of("run", r.name(), "cycles", r.cycles())).toList());
    }

    /**
     * The measured cost(x) curve of {@code fixed} (write memory in MiB to its runs), the same for
     * {@code longer} (fixed splits measured as long as a tuner run, a series of its own), and the tuner
     * runs of the same setting on it.
     */
    static Map<String, Object> fig6(TreeMap<Double, List<YcsbRun>> fixed, TreeMap<Double, List<YcsbRun>> longer, List<YcsbRun> tuner,
                                    Path png) throws IOException {
        YcsbRun any = fixed.firstEntry().getValue().get(0);
        String setting = String.format(Locale.ROOT, "YCSB %s, %d tree(s), total %.0f MiB",
                Double.isNaN(any.writeRatio()) ? any.workload() : String.format(Locale.ROOT, "%.0f%% updates", 100 * any.writeRatio()),
                any.datasets(), any.totalMemoryMiB());
        XYChart c = chart("Fig. 6: measured cost(x), " + setting, "write memory x (MiB)", "pages per operation");
        List<Map<String, Object>> splits = new ArrayList<>();
        double bestX = Double.NaN, best = Double.MAX_VALUE;
        for (Map.Entry<Double, List<YcsbRun>> e : fixed.entrySet()) {
            double cost = mean(e.getValue(), YcsbRun::ioCostPerOp);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("writeMemoryMiB", e.getKey());
            s.put("ioCostPerOp", cost);
            s.put("pagesWrittenPerOp", mean(e.getValue(), YcsbRun::pagesWrittenPerOp));
            s.put("pagesReadPerOp", mean(e.getValue(), YcsbRun::pagesReadPerOp));
            s.put("opsPerSecond", mean(e.getValue(), YcsbRun::opsPerSecond));
            s.put("runs", e.getValue().stream().map(r -> Map.of("run", r.name(), "ioCostPerOp", r.ioCostPerOp(),
                    "opsPerSecond", r.opsPerSecond())).toList());
            splits.add(s);
            if (cost < best) {
                best = cost;
                bestX = e.getKey();
            }
        }
        addPoints(c, String.format(Locale.ROOT, "cost = %.0f·written + %.0f·read", any.omega(), any.gamma()), fixed, YcsbRun::ioCostPerOp);
        addPoints(c, "pages written (flush + merge)", fixed, YcsbRun::pagesWrittenPerOp);
        addPoints(c, "pages read (query + merge)", fixed, YcsbRun::pagesReadPerOp);
        List<Map<String, Object>> longSplits = new ArrayList<>();
        if (!longer.isEmpty()) {
            addPoints(c, "cost, fixed splits measured as long as the tuner run", longer, YcsbRun::ioCostPerOp);
            for (Map.Entry<Double, List<YcsbRun>> e : longer.entrySet()) {
                longSplits.add(Map.of("writeMemoryMiB", e.getKey(), "ioCostPerOp", mean(e.getValue(), YcsbRun::ioCostPerOp),
                        "pagesWrittenPerOp", mean(e.getValue(), YcsbRun::pagesWrittenPerOp),
                        "pagesReadPerOp", mean(e.getValue(), YcsbRun::pagesReadPerOp),
                        "seconds", mean(e.getValue(), YcsbRun::seconds)));
            }
        }
        List<Map<String, Object>> tuned = new ArrayList<>();
        for (YcsbRun t : tuner) {
            if (!t.sameSetting(any)) {
                continue;
            }
            String label = String.format(Locale.ROOT, "%s (opened at %.0f, ended at %.0f MiB)", t.name(), t.writeMemoryMiB(), t.finalMiB());
            c.addSeries(label, new double[] {t.finalMiB()}, new double[] {t.ioCostPerOp()}).setMarker(SeriesMarkers.DIAMOND);
            Map<String, Object> s = t.tunerSummary();
            s.put("costOverBest", t.ioCostPerOp() / best);
            tuned.add(s);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("setting", setting);
        summary.put("writeWeight", any.omega());
        summary.put("readWeight", any.gamma());
        summary.put("bestSplitMiB", bestX);
        summary.put("bestCost", best);
        summary.put("fixedSeconds", mean(fixed.values().stream().flatMap(List::stream).toList(), YcsbRun::seconds));
        summary.put("tuner", tuned);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("summary", summary);
        out.put("splits", splits);
        out.put("longSplits", longSplits);
        save(png, List.of(c), 1);
        return out;
    }

    private static void addPoints(XYChart chart, String name, TreeMap<Double, List<YcsbRun>> runs, ToDoubleFunction<YcsbRun> f) {
        List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
        for (Map.Entry<Double, List<YcsbRun>> e : runs.entrySet()) {
            xs.add(e.getKey());
            ys.add(mean(e.getValue(), f));
        }
        chart.addSeries(name, xs, ys);
    }

    private static double mean(List<YcsbRun> runs, ToDoubleFunction<YcsbRun> f) {
        return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static XYChart chart(String title, String xTitle, String yTitle) {
        System.setProperty("java.awt.headless", "true");
        return new XYChartBuilder().width(900).height(420).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    }

    private static void save(Path png, List<XYChart> charts, int rows) throws IOException {
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<Chart<?, ?>> list = (List) charts;
        BitmapEncoder.saveBitmap(list, rows, (charts.size() + rows - 1) / rows, png.toString().replaceFirst("\\.png$", ""),
                BitmapEncoder.BitmapFormat.PNG);
    }
}
