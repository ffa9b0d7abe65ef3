package dev.breakwater.bench.tuner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNGs of {@link TunerFigures}: Figure 13 (cost and tpmC against the split, tuner runs as
 * horizontal lines), Figure 6 (cost(x) with its write and read parts) and Figure 14 (write memory and
 * cost per operation over time through a mix switch).
 *
 * <p>Thread safety: stateless. Runs headless.
 */
final class TunerPlots {

    private static final int W = 800, H = 420;

    private TunerPlots() {
    }

    static void fig13(Path png, TreeMap<Double, List<TpccRun>> fixed, TreeMap<Double, List<TpccRun>> pinned, List<TpccRun> tuner,
                      String memory) throws IOException {
        XYChart cost = chart("Fig. 13: weighted I/O cost per transaction (ω=2, γ=1), total " + memory,
                "write memory (MiB)", "pages per transaction");
        XYChart tpmC = chart("Fig. 13: tpmC, total " + memory, "write memory (MiB)", "tpmC");
        addPoints(cost, "fixed splits", fixed, TpccRun::ioCostPerTx);
        addPoints(tpmC, "fixed splits", fixed, TpccRun::tpmC);
        if (!pinned.isEmpty()) {
            addPoints(cost, "fixed splits, tuner's M0", pinned, TpccRun::ioCostPerTx);
            addPoints(tpmC, "fixed splits, tuner's M0", pinned, TpccRun::tpmC);
        }
        double lo = fixed.firstKey(), hi = fixed.lastKey();
        for (TpccRun t : tuner) {
            String label = t.name() + " (" + fmt(t.initialWriteMemoryMiB()) + " -> " + fmt(t.finalWriteMemoryMiB()) + " MiB)";
            cost.addSeries(label, new double[] {lo, hi}, new double[] {t.ioCostPerTx(), t.ioCostPerTx()}).setMarker(SeriesMarkers.NONE);
            tpmC.addSeries(label, new double[] {lo, hi}, new double[] {t.tpmC(), t.tpmC()}).setMarker(SeriesMarkers.NONE);
        }
        save(png, List.of(cost, tpmC), 2);
    }

    static void fig6(Path png, TreeMap<Double, List<TpccRun>> fixed, String memory) throws IOException {
        XYChart c = chart("Fig. 6: measured cost(x), TPC-C, total " + memory, "write memory x (MiB)", "pages per transaction");
        addPoints(c, "cost = 2·written + read", fixed, TpccRun::ioCostPerTx);
        addPoints(c, "pages written (flush + merge)", fixed, TpccRun::pagesWrittenPerTx);
        addPoints(c, "pages read (query + merge)", fixed, TpccRun::pagesReadPerTx);
        save(png, List.of(c), 1);
    }

    static void fig14(Path png, TpccRun run, Double optimum, String memory) throws IOException {
        XYChart x = chart("Fig. 14: write memory, standard -> read-mostly at " + fmt(run.switchAtSeconds()) + " s, total " + memory,
                "seconds", "MiB");
        List<Double> t = new ArrayList<>(), wm = new ArrayList<>(), cache = new ArrayList<>();
        for (double[] s : run.samples()) {
            t.add(s[0]);
            wm.add(s[2]);
            cache.add(s[3]);
        }
        x.addSeries("write memory", t, wm).setMarker(SeriesMarkers.NONE);
        x.addSeries("buffer cache", t, cache).setMarker(SeriesMarkers.NONE);
        XYChart cost = chart("Fig. 14: cost per operation of each tuner cycle (ω=2, γ=1)", "seconds", "pages per operation");
        List<Double> ct = new ArrayList<>(), cv = new ArrayList<>();
        for (TpccRun.Cycle c : run.cycles()) {
            ct.add(c.seconds());
            cv.add(c.cost());
        }
        if (!ct.isEmpty()) {
            cost.addSeries("tuner cycles", ct, cv);
            if (optimum != null && !optimum.isNaN()) {
                double end = ct.get(ct.size() - 1);
                cost.addSeries("read-mostly optimum (fixed splits)", new double[] {run.switchAtSeconds(), end},
                        new double[] {optimum, optimum}).setMarker(SeriesMarkers.NONE);
                cost.addSeries("optimum + 5%", new double[] {run.switchAtSeconds(), end},
                        new double[] {optimum * 1.05, optimum * 1.05}).setMarker(SeriesMarkers.NONE);
            }
        }
        save(png, List.of(x, cost), 1);
    }

    private static void addPoints(XYChart chart, String name, TreeMap<Double, List<TpccRun>> runs, ToDoubleFunction<TpccRun> f) {
        List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
        for (Map.Entry<Double, List<TpccRun>> e : runs.entrySet()) {
            xs.add(e.getKey());
            ys.add(e.getValue().stream().mapToDouble(f).average().orElse(Double.NaN));
        }
        chart.addSeries(name, xs, ys);
    }

    private static XYChart chart(String title, String xTitle, String yTitle) {
        System.setProperty("java.awt.headless", "true");
        return new XYChartBuilder().width(W).height(H).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    }

    private static void save(Path png, List<XYChart> charts, int cols) throws IOException {
        String name = png.toString().replaceFirst("\\.png$", "");
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<Chart<?, ?>> list = (List) charts;
        BitmapEncoder.saveBitmap(list, (charts.size() + cols - 1) / cols, cols, name, BitmapEncoder.BitmapFormat.PNG);
    }

    private static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%.0f", v);
    }
}
