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
 * Plots a {@link PartitionScalingDriver} report: operations per second against client threads, one
 * series per layout and partition count, and the one-thread scan rate per layout and partition
 * count. Usage: {@code PartitionScalingPlot report.json OUT.png}.
 *
 * <p>Thread safety: a command-line tool; single-threaded.
 */
public final class PartitionScalingPlot {

    private PartitionScalingPlot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: PartitionScalingPlot report.json OUT.png");
            System.exit(2);
        }
        JsonNode r = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        XYChart ops = new XYChartBuilder().width(640).height(440).title("Point ops/s (" + r.get("writeFraction").asDouble() * 100
                + "% upserts, ASYNC), " + r.get("availableProcessors").asInt() + " cores").xAxisTitle("client threads")
                .yAxisTitle("operations / s").build();
        ops.getStyler().setYAxisMin(0.0);
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (JsonNode p : r.get("points")) {
            String name = p.get("layout").asText() + ", P=" + p.get("partitions").asInt();
            series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {p.get("threads").asDouble(), p.get("opsPerSecond").asDouble()});
        }
        for (var e : series.entrySet()) {
            ops.addSeries(e.getKey(), e.getValue().stream().mapToDouble(a -> a[0]).toArray(), e.getValue().stream().mapToDouble(a -> a[1]).toArray());
        }
        CategoryChart scans = new CategoryChartBuilder().width(520).height(440).title("100-key scans/s, 1 thread")
                .xAxisTitle("layout, partitions").yAxisTitle("scans / s").build();
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (JsonNode s : r.get("scans")) {
            labels.add(s.get("layout").asText().replace("engine-per-partition", "per-partition") + " P=" + s.get("partitions").asInt());
            values.add(s.get("scansPerSecond").asDouble());
        }
        if (!labels.isEmpty()) {
            scans.addSeries("scans/s", labels, values);
        }
        scans.getStyler().setLegendVisible(false);
        List<Chart<?, ?>> charts = List.of(ops, scans);
        String name = args[1].endsWith(".png") ? args[1].substring(0, args[1].length() - 4) : args[1];
        BitmapEncoder.saveBitmap(charts, 1, 2, name, BitmapEncoder.BitmapFormat.PNG);
    }
}
