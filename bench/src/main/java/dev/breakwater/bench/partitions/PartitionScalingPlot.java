package dev.breakwater.bench.partitions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * Plots {@link PartitionScalingDriver} reports: operations per second against client threads, one
 * series per layout and partition count, and the one-thread scan rate per layout and partition
 * count; with several reports (runs of the same settings), the median of each point. Usage:
 * {@code PartitionScalingPlot report.json [report.json ...] OUT.png}.
 *
 * <p>Thread safety: a command-line tool; single-threaded.
 */
public final class PartitionScalingPlot {

    private PartitionScalingPlot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: PartitionScalingPlot report.json [report.json ...] OUT.png");
            System.exit(2);
        }
        List<JsonNode> reports = new ArrayList<>();
        for (int i = 0; i < args.length - 1; i++) {
            reports.add(new ObjectMapper().readTree(Path.of(args[i]).toFile()));
        }
        JsonNode r = reports.get(0);
        String outName = args[args.length - 1];
        XYChart ops = new XYChartBuilder().width(640).height(440).title("Point ops/s, median of " + reports.size() + " runs (" + r.get("writeFraction").asDouble() * 100
                + "% upserts, ASYNC), " + r.get("availableProcessors").asInt() + " cores").xAxisTitle("client threads")
                .yAxisTitle("operations / s").build();
        ops.getStyler().setYAxisMin(0.0);
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (JsonNode p : r.get("points")) {
            String name = p.get("layout").asText() + ", P=" + p.get("partitions").asInt();
            double median = median(reports, "points", p, "opsPerSecond");
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {p.get("threads").asDouble(), median});
        }
        for (var e : series.entrySet()) {
            ops.addSeries(e.getKey(), e.getValue().stream().mapToDouble(a -> a[0]).toArray(), e.getValue().stream().mapToDouble(a -> a[1]).toArray());
        }
        CategoryChart scans = new CategoryChartBuilder().width(520).height(440).title("100-key scans/s, 1 thread")
                .xAxisTitle("layout, partitions").yAxisTitle("scans / s").build();
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (JsonNode s : r.get("scans")) {
            labels.add((s.get("layout").asText().equals("one-engine") ? "one" : "per-part.") + " P=" + s.get("partitions").asInt());
            values.add(median(reports, "scans", s, "scansPerSecond"));
        }
        if (!labels.isEmpty()) {
            scans.addSeries("scans/s", labels, values);
        }
        scans.getStyler().setLegendVisible(false);
        scans.getStyler().setXAxisLabelRotation(30);
        List<Chart<?, ?>> charts = List.of(ops, scans);
        String name = outName.endsWith(".png") ? outName.substring(0, outName.length() - 4) : outName;
        BitmapEncoder.saveBitmap(charts, 1, 2, name, BitmapEncoder.BitmapFormat.PNG);
    }

    /** The median of {@code field} over the reports' entries of {@code list} with the same layout, P (and T). */
    static double median(List<JsonNode> reports, String list, JsonNode like, String field) {
        List<Double> v = new ArrayList<>();
        for (JsonNode rep : reports) {
            for (JsonNode e : rep.get(list)) {
                if (e.get("layout").equals(like.get("layout")) && e.get("partitions").equals(like.get("partitions"))
                        && (like.get("threads") == null || e.get("threads").equals(like.get("threads")))) {
                    v.add(e.get(field).asDouble());
                }
            }
        }
        v.sort(null);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
