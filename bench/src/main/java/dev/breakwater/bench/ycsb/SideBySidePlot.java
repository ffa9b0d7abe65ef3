package dev.breakwater.bench.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Plots a {@link SideBySide} JSON file ({@code --json}) as a PNG with two bar charts per workload:
 * throughput (median ops/s over repetitions) and bytes written per operation from the engines'
 * counters, split into log, flush and merges (merge bytes of every output level summed).
 *
 * <p>Usage: {@code SideBySidePlot results.json out.png [title]}. Stateless; run once per file.
 */
public final class SideBySidePlot {

    private SideBySidePlot() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SideBySidePlot results.json out.png [title]");
            System.exit(2);
        }
        plot(Path.of(args[0]), Path.of(args[1]), args.length > 2 ? args[2] : args[0]);
    }

    /** Writes the two charts of {@code json} to {@code png}. */
    static void plot(Path json, Path png, String title) throws IOException {
        JsonNode rows = new ObjectMapper().readTree(json.toFile());
        // engine -> workload -> values over repetitions
        Map<String, Map<String, List<double[]>>> by = new LinkedHashMap<>();
        List<String> workloads = new ArrayList<>();
        for (JsonNode r : rows) {
            String w = r.get("workload").asText();
            if (!workloads.contains(w)) {
                workloads.add(w);
            }
            double ops = r.get("operations").asDouble();
            JsonNode b = r.get("engineBreakdown");
            double merge = 0;
            for (var it = b.fields(); it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().startsWith("merge.L")) {
                    merge += e.getValue().asDouble();
                }
            }
            double[] v = {r.get("opsPerSecond").asDouble(), b.path("log").asDouble() / ops, b.path("flush").asDouble() / ops,
                merge / ops};
            by.computeIfAbsent(r.get("engine").asText(), k -> new LinkedHashMap<>()).computeIfAbsent(w, k -> new ArrayList<>()).add(v);
        }
        CategoryChart tput = new CategoryChartBuilder().width(720).height(440).title("Throughput, " + title)
                .xAxisTitle("workload").yAxisTitle("ops/s (median)").build();
        CategoryChart bytes = new CategoryChartBuilder().width(720).height(440).title("Bytes written per operation (engine counters)")
                .xAxisTitle("workload").yAxisTitle("bytes / op").build();
        bytes.getStyler().setStacked(true);
        bytes.getStyler().setXAxisLabelRotation(45);
        for (var e : by.entrySet()) {
            List<String> xs = new ArrayList<>();
            List<Double> t = new ArrayList<>();
            List<Double> log = new ArrayList<>();
            List<Double> flush = new ArrayList<>();
            List<Double> merge = new ArrayList<>();
            for (String w : workloads) {
                List<double[]> vs = e.getValue().get(w);
                if (vs == null) {
                    continue;
                }
                xs.add(w);
                t.add(median(vs, 0));
                log.add(median(vs, 1));
                flush.add(median(vs, 2));
                merge.add(median(vs, 3));
            }
            tput.addSeries(e.getKey(), xs, t);
            // Stacked bars need one series per part; engines side by side would stack onto each
            // other, so each engine's parts carry its name and the x categories its workload.
            List<String> labelled = xs.stream().map(w -> w + " " + shortName(e.getKey())).toList();
            bytes.addSeries(e.getKey() + " log", labelled, log);
            bytes.addSeries(e.getKey() + " flush", labelled, flush);
            bytes.addSeries(e.getKey() + " merges", labelled, merge);
        }
        fillMissing(bytes);
        List<Chart<?, ?>> charts = List.of(tput, bytes);
        String name = png.toString().endsWith(".png") ? png.toString().substring(0, png.toString().length() - 4) : png.toString();
        BitmapEncoder.saveBitmap(charts, 1, 2, name, BitmapEncoder.BitmapFormat.PNG);
    }

    private static String shortName(String engine) {
        return engine.startsWith("breakwater") ? "BW" : engine.startsWith("rocksdb") ? "RDB" : engine;
    }

    /**
     * XChart's stacked category chart needs every series on the same categories: give each series
     * zeros at the categories of the other engines.
     */
    private static void fillMissing(CategoryChart chart) {
        List<String> all = new ArrayList<>();
        for (var s : chart.getSeriesMap().values()) {
            for (Object x : s.getXData()) {
                if (!all.contains(x.toString())) {
                    all.add(x.toString());
                }
            }
        }
        Map<String, List<Double>> ys = new LinkedHashMap<>();
        for (var s : chart.getSeriesMap().values()) {
            List<String> xs = new ArrayList<>();
            s.getXData().forEach(x -> xs.add(x.toString()));
            List<Double> y = new ArrayList<>();
            List<Double> old = new ArrayList<>();
            s.getYData().forEach(v -> old.add(v.doubleValue()));
            for (String x : all) {
                int i = xs.indexOf(x);
                y.add(i < 0 ? 0.0 : old.get(i));
            }
            ys.put(s.getName(), y);
        }
        for (var e : ys.entrySet()) {
            chart.updateCategorySeries(e.getKey(), all, e.getValue(), null);
        }
    }

    private static double median(List<double[]> vs, int i) {
        double[] a = vs.stream().mapToDouble(v -> v[i]).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
