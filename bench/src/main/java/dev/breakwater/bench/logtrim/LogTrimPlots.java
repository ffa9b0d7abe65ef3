package dev.breakwater.bench.logtrim;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Draws the {@link LogTrimBench} results of a directory as one PNG: ops/s per workload (Fig 5),
 * peak log size on disk (Table 1) and recovery time (Table 4), base vs trimmed + compressed.
 * Usage: {@code LogTrimPlots <results dir> <out.png>}; reads {@code fig5-<workload>-<variant>.json}
 * and {@code table4-<variant>-<mb>.json}. Not thread-safe; a command-line tool.
 */
public final class LogTrimPlots {

    private LogTrimPlots() {
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        ObjectMapper json = new ObjectMapper();
        String[] workloads = {"write-only", "mixed", "read-heavy"};
        CategoryChart ops = new CategoryChartBuilder().width(560).height(400).title("Fig 5 (scaled): ops/s")
                .xAxisTitle("workload").yAxisTitle("ops/s").build();
        CategoryChart log = new CategoryChartBuilder().width(560).height(400).title("Table 1 (scaled): peak log on disk")
                .xAxisTitle("workload").yAxisTitle("MiB").build();
        for (String variant : new String[] {"base", "trim"}) {
            List<String> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            List<Double> peaks = new ArrayList<>();
            for (String w : workloads) {
                Path f = dir.resolve("fig5-" + w + "-" + variant + ".json");
                if (!Files.exists(f)) {
                    continue;
                }
                Map<String, Object> r = json.readValue(f.toFile(), Map.class);
                xs.add(w);
                ys.add(((Number) r.get("opsPerSecond")).doubleValue());
                peaks.add(((Number) r.get("peak-log-bytes")).doubleValue() / (1 << 20));
            }
            if (!xs.isEmpty()) {
                String name = variant.equals("base") ? "today's log" : "trimmed + LZ4";
                ops.addSeries(name, xs, ys);
                log.addSeries(name, xs, peaks);
            }
        }
        CategoryChart rec = new CategoryChartBuilder().width(560).height(400).title("Table 4 (scaled): recovery time")
                .xAxisTitle("log MiB").yAxisTitle("seconds (median open)").build();
        for (String variant : new String[] {"plain", "lz4"}) {
            List<String> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            try (var s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.getFileName().toString().startsWith("table4-" + variant + "-")).sorted().toList()) {
                    Map<String, Object> r = json.readValue(f.toFile(), Map.class);
                    xs.add(String.valueOf(r.get("log-mb")));
                    ys.add(((Number) r.get("open-seconds-median")).doubleValue());
                }
            }
            if (!xs.isEmpty()) {
                rec.addSeries(variant.equals("plain") ? "no compression" : "LZ4", xs, ys);
            }
        }
        List<Chart<?, ?>> charts = List.of(ops, log, rec);
        String out = args[1].endsWith(".png") ? args[1].substring(0, args[1].length() - 4) : args[1];
        BitmapEncoder.saveBitmap(charts, 1, 3, out, BitmapEncoder.BitmapFormat.PNG);
    }
}
