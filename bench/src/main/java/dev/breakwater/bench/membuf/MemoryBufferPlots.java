package dev.breakwater.bench.membuf;

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
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * PNG plots of the paper-001 figures: from the driver's results ({@link MemoryBufferFigures}) and,
 * for Fig. 2, from a JMH JSON result file of {@link MemoryBufferBenchmark}
 * ({@code java -cp benchmarks.jar dev.breakwater.bench.membuf.MemoryBufferPlots jmh.json OUT_DIR}).
 *
 * <p>Thread safety: stateless static methods.
 */
public final class MemoryBufferPlots {

    private MemoryBufferPlots() {
    }

    /** Arguments: one or more JMH JSON result files, then the output directory. */
    public static void main(String[] args) throws IOException {
        ObjectMapper json = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ArrayNode all = json.createArrayNode();
        for (int i = 0; i < args.length - 1; i++) {
            all.addAll((com.fasterxml.jackson.databind.node.ArrayNode) json.readTree(Path.of(args[i]).toFile()));
        }
        Path out = Path.of(args[args.length - 1]);
        java.nio.file.Files.createDirectories(out);
        fig2(all, out);
    }

    static void save(Path file, List<? extends Chart<?, ?>> charts, int cols) throws IOException {
        List<Chart<?, ?>> list = new ArrayList<>(charts);
        int rows = (list.size() + cols - 1) / cols;
        String name = file.toString().replaceFirst("\\.png$", "");
        BitmapEncoder.saveBitmap(list, rows, cols, name, BitmapEncoder.BitmapFormat.PNG);
        System.err.println("wrote " + file);
    }

    private static CategoryChart bars(String title, String y, boolean log) {
        CategoryChart c = new CategoryChartBuilder().width(720).height(420).title(title).yAxisTitle(y).build();
        c.getStyler().setYAxisLogarithmic(log);
        if (log) {
            c.getStyler().setYAxisMin(1.0);
        }
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisLabelRotation(20);
        return c;
    }

    @SuppressWarnings("unchecked")
    static void fig1(Map<String, Object> fig1, Path dir) throws IOException {
        List<Map<String, Object>> runs = (List<Map<String, Object>>) fig1.get("runs");
        double[] ratios = (double[]) fig1.get("ratios");
        List<String> kinds = new ArrayList<>();
        for (BufferKind k : BufferKind.values()) {
            kinds.add(k.name());
        }
        CategoryChart a = bars("Fig. 1a: mean latency per operation vs point-query share", "ns per operation (log)", true);
        for (double ratio : ratios) {
            List<Double> ys = new ArrayList<>();
            for (String kind : kinds) {
                runs.stream().filter(r -> r.get("kind").equals(kind) && (double) r.get("ratio") == ratio)
                        .forEach(r -> ys.add(Math.max(1.0, (Double) r.get("meanOpNs"))));
            }
            a.addSeries(String.format("%.1f%% point queries", ratio * 100), kinds, ys);
        }
        CategoryChart b = bars("Fig. 1b: insert latency, insert-only", "ns (log)", true);
        for (String p : List.of("insertP50Ns", "insertP99Ns", "insertP999Ns", "insertP100Ns")) {
            List<Double> ys = new ArrayList<>();
            for (String kind : kinds) {
                runs.stream().filter(r -> r.get("kind").equals(kind) && (double) r.get("ratio") == 0.0)
                        .forEach(r -> ys.add(Math.max(1.0, ((Number) r.get(p)).doubleValue())));
            }
            b.addSeries(p.replace("insert", "").replace("Ns", ""), kinds, ys);
        }
        save(dir.resolve("fig1.png"), List.of(a, b), 2);
    }

    @SuppressWarnings("unchecked")
    static void fig4(Map<String, Object> fig4, Path dir) throws IOException {
        List<Map<String, Object>> runs = (List<Map<String, Object>>) fig4.get("runs");
        XYChart a = new XYChartBuilder().width(720).height(420).title("Fig. 4: latency of each interleaved point query")
                .xAxisTitle("query (in the last 25% of the inserts)").yAxisTitle("ns (log)").build();
        a.getStyler().setYAxisLogarithmic(true);
        a.getStyler().setDefaultSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
        CategoryChart b = bars("Fig. 4: throughput with interleaved operations", "operations per second (log)", true);
        List<String> kinds = new ArrayList<>();
        List<Double> ingest = new ArrayList<>();
        List<Double> query = new ArrayList<>();
        for (Map<String, Object> r : runs) {
            long[] ns = (long[]) r.get("queryNs");
            double[] x = new double[ns.length];
            double[] y = new double[ns.length];
            for (int i = 0; i < ns.length; i++) {
                x[i] = i;
                y[i] = Math.max(1, ns[i]);
            }
            a.addSeries((String) r.get("kind"), x, y).setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            kinds.add((String) r.get("kind"));
            ingest.add((Double) r.get("insertsPerSecond"));
            query.add((Double) r.get("queriesPerSecond"));
        }
        b.addSeries("inserts/s", kinds, ingest);
        b.addSeries("point queries/s", kinds, query);
        save(dir.resolve("fig4.png"), List.of(a, b), 2);
    }

    @SuppressWarnings("unchecked")
    static void fig6(Map<String, Object> fig6, Path dir) throws IOException {
        List<Map<String, Object>> runs = (List<Map<String, Object>>) fig6.get("runs");
        List<String> configs = new ArrayList<>();
        Map<String, List<Double>> counts = new LinkedHashMap<>();
        Map<String, List<Double>> amps = new LinkedHashMap<>();
        for (String k : List.of("componentSeals", "flushes", "merges")) {
            counts.put(k, new ArrayList<>());
        }
        for (String k : List.of("writeAmplification", "mergeReadAmplification", "queryPagesReadPerLookup")) {
            amps.put(k, new ArrayList<>());
        }
        for (Map<String, Object> r : runs) {
            configs.add((String) r.get("config"));
            counts.forEach((k, v) -> v.add(((Number) r.get(k)).doubleValue()));
            amps.forEach((k, v) -> v.add(((Number) r.get(k)).doubleValue()));
        }
        CategoryChart a = bars("Fig. 6a: write and read amplification", "bytes per ingested byte / pages per lookup", false);
        amps.forEach((k, v) -> a.addSeries(k, configs, v));
        CategoryChart b = bars("Fig. 6b: component seals, flushes and merges", "count", false);
        counts.forEach((k, v) -> b.addSeries(k, configs, v));
        save(dir.resolve("fig6.png"), List.of(a, b), 2);
    }

    /** Fig. 2a: ns per operation per kind (default hash parameters); Fig. 2b: hash kinds vs prefix and buckets. */
    static void fig2(JsonNode jmh, Path dir) throws IOException {
        Map<String, Map<String, Double>> byOp = new LinkedHashMap<>();
        Map<String, Map<String, Double>> sweep = new LinkedHashMap<>();
        for (JsonNode run : jmh) {
            String op = run.get("benchmark").asText().replaceFirst(".*\\.", "");
            JsonNode p = run.get("params");
            String kind = p.get("kind").asText();
            int prefix = p.get("prefix").asInt();
            int buckets = p.get("buckets").asInt();
            double score = run.get("primaryMetric").get("score").asDouble();
            if (prefix == 8 && buckets == 1024) {
                byOp.computeIfAbsent(op, o -> new LinkedHashMap<>()).put(kind, score);
            }
            if (kind.startsWith("HASH") && !(prefix == 8 && buckets == 1024)) {
                sweep.computeIfAbsent(kind + " " + op, o -> new LinkedHashMap<>()).put("prefix " + prefix + ", " + buckets + " buckets", score);
            }
        }
        List<CategoryChart> charts = new ArrayList<>();
        CategoryChart a = bars("Fig. 2a: cost per operation (prefix 8, 1024 buckets)", "ns per operation (log)", true);
        List<String> kinds = new ArrayList<>();
        for (BufferKind k : BufferKind.values()) {
            kinds.add(k.name());
        }
        byOp.forEach((op, m) -> {
            List<String> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (String k : kinds) {
                if (m.containsKey(k)) {
                    xs.add(k);
                    ys.add(m.get(k));
                }
            }
            if (xs.size() == kinds.size()) {
                a.addSeries(op, xs, ys);
            }
        });
        charts.add(a);
        if (!sweep.isEmpty()) {
            CategoryChart b = bars("Fig. 2b: hash kinds vs prefix length and bucket count", "ns per operation (log)", true);
            List<String> xs = new ArrayList<>(new java.util.TreeSet<>(sweep.values().stream().flatMap(m -> m.keySet().stream()).toList()));
            sweep.forEach((series, m) -> {
                if (xs.size() > 1) {
                    List<Double> ys = new ArrayList<>();
                    xs.forEach(x -> ys.add(m.getOrDefault(x, 1.0))); // 1 ns marks a combination not measured
                    b.addSeries(series, xs, ys);
                }
            });
            b.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
            b.getStyler().setXAxisLabelRotation(45);
            charts.add(b);
        }
        save(dir.resolve("fig2.png"), charts, 1);
    }
}
