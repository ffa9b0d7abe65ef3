package dev.breakwater.bench.tuner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Figure 12 of paper 000 from {@code ExtendedYcsb --tuner on} results ({@code ycsb-<name>.json}): the
 * tuner's cycles of the measured phase ({@code run.engine.tuner}), write memory after each and cost
 * per operation, against seconds since the phase's first cycle.
 *
 * <p>Thread safety: stateless.
 */
final class YcsbTunerRuns {

    private static final double MIB = 1024.0 * 1024.0;

    private YcsbTunerRuns() {
    }

    static Map<String, Object> summarize(List<Path> files, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart x = new XYChartBuilder().width(900).height(420).title("Fig. 12: write memory chosen per cycle, YCSB one tree")
                .xAxisTitle("seconds since the first cycle").yAxisTitle("MiB").build();
        XYChart cost = new XYChartBuilder().width(900).height(420).title("Fig. 12: weighted I/O cost per operation per cycle")
                .xAxisTitle("seconds since the first cycle").yAxisTitle("pages per operation").build();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Path f : files) {
            JsonNode r = new ObjectMapper().readTree(f.toFile());
            String name = f.getFileName().toString().replaceFirst("\\.json$", "");
            JsonNode cycles = r.path("run").path("engine").path("tuner");
            List<Double> t = new ArrayList<>(), xs = new ArrayList<>(), cs = new ArrayList<>();
            long first = cycles.isEmpty() ? 0 : cycles.get(0).path("timeMillis").asLong();
            int steps = 0;
            for (JsonNode c : cycles) {
                t.add((c.path("timeMillis").asLong() - first) / 1000.0);
                xs.add(c.path("writeMemoryAfter").asDouble() / MIB);
                cs.add(c.path("cost").asDouble());
                steps += c.path("writeMemoryAfter").asLong() != c.path("writeMemoryBefore").asLong() ? 1 : 0;
            }
            if (!t.isEmpty()) {
                x.addSeries(name, t, xs);
                cost.addSeries(name, t, cs);
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("run", name);
            row.put("writeRatio", r.path("writeRatio").asDouble(Double.NaN));
            row.put("totalMemoryMiB", r.path("config").path("total-memory").asDouble() / MIB);
            row.put("cycles", cycles.size());
            row.put("steps", steps);
            row.put("startMiB", cycles.isEmpty() ? Double.NaN : cycles.get(0).path("writeMemoryBefore").asDouble() / MIB);
            row.put("finalMiB", xs.isEmpty() ? Double.NaN : xs.get(xs.size() - 1));
            row.put("meanCostLastFiveCycles", cs.isEmpty() ? Double.NaN
                    : cs.subList(Math.max(0, cs.size() - 5), cs.size()).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
            row.put("opsPerSecond", r.path("run").path("opsPerSecond").asDouble());
            rows.add(row);
        }
        List<Chart<?, ?>> charts = List.of(x, cost);
        BitmapEncoder.saveBitmap(charts, 2, 1, png.toString().replaceFirst("\\.png$", ""), BitmapEncoder.BitmapFormat.PNG);
        return Map.of("summary", rows);
    }
}
