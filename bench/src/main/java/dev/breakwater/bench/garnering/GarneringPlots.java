package dev.breakwater.bench.garnering;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Draws the PNG plots of docs/benchmarks-garnering.md from the JSON files {@link GarneringDriver}
 * wrote into one directory (named by run label): {@code fig2.png} (each policy's rates relative to
 * leveling), {@code fig3.png} (write latency and short-range latency over c for T = 4 and 8),
 * {@code monkey.png} (false positives per zero-result lookup, uniform vs Monkey) and
 * {@code growth.png} (write amplification as data grows) and {@code ycsb.png} (YCSB run throughput
 * per workload, from ExtendedYcsb's JSON files {@code ycsb-POLICY-W.json}). Usage:
 * {@code GarneringPlots DIR}.
 */
public final class GarneringPlots {

    private GarneringPlots() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Map<String, JsonNode> runs = new TreeMap<>();
        ObjectMapper m = new ObjectMapper();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode n = m.readTree(p.toFile());
                String name = p.getFileName().toString();
                runs.put(n.has("label") ? n.get("label").asText() : name.substring(0, name.length() - ".json".length()), n);
            }
        }
        fig2(runs, dir.resolve("fig2.png"));
        fig3(runs, dir.resolve("fig3.png"));
        monkey(runs, dir.resolve("monkey.png"));
        growth(runs, dir.resolve("growth.png"));
        ycsb(runs, dir.resolve("ycsb.png"));
    }

    private static void ycsb(Map<String, JsonNode> runs, Path out) throws IOException {
        CategoryChart c = chart("YCSB (ExtendedYcsb), T = 4: measured throughput", "workload", "ops/s");
        List<String> xs = List.of("A", "B", "C", "E", "F");
        for (String p : new String[] {"LEVELING", "GARNERING"}) {
            List<Double> ys = new ArrayList<>();
            for (String w : xs) {
                JsonNode r = runs.get("ycsb-" + p + "-" + w);
                ys.add(r == null ? 0 : r.get("run").get("opsPerSecond").asDouble());
            }
            c.addSeries(p.equals("LEVELING") ? "leveling" : "garnering c=0.5", xs, ys);
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static CategoryChart chart(String title, String x, String y) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(500).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        return c;
    }

    private static void fig2(Map<String, JsonNode> runs, Path out) throws IOException {
        JsonNode base = runs.get("lev-T4");
        if (base == null) {
            return;
        }
        String[] metrics = {"loadOpsPerSec", "loadAndSettleOpsPerSec", "pointReadOpsPerSec", "shortRangeOpsPerSec", "longRangeOpsPerSec"};
        List<String> xs = List.of("load", "load+settle", "point read", "short range", "long range");
        CategoryChart c = chart("Throughput relative to leveling (T = 4, same memory)", "operation", "ops/s ÷ leveling's");
        for (String label : new String[] {"lev-T4", "static-c1.0-T4", "gar-c0.8-T4", "gar-c0.5-T4", "gar-c0.3-T4"}) {
            JsonNode r = runs.get(label);
            if (r == null) {
                continue;
            }
            List<Double> ys = new ArrayList<>();
            for (String k : metrics) {
                ys.add(r.get(k).asDouble() / base.get(k).asDouble());
            }
            c.addSeries(label, xs, ys);
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void fig3(Map<String, JsonNode> runs, Path out) throws IOException {
        CategoryChart c = chart("Effect of c and T (Garnering; c = 1.0 is static leveling)", "c", "mean µs per operation");
        List<String> cs = List.of("0.3", "0.5", "0.8", "1.0");
        for (int t : new int[] {4, 8}) {
            List<Double> write = new ArrayList<>();
            List<Double> shortRange = new ArrayList<>();
            for (String cv : cs) {
                JsonNode r = runs.get((cv.equals("1.0") ? "static-c" : "gar-c") + cv + "-T" + t);
                write.add(r == null ? 0 : r.get("meanWriteLatencyMicros").asDouble());
                shortRange.add(r == null ? 0 : r.get("shortRangeMeanMicros").asDouble());
            }
            c.addSeries("write, T=" + t, cs, write);
            c.addSeries("short range (seek+10), T=" + t, cs, shortRange);
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void monkey(Map<String, JsonNode> runs, Path out) throws IOException {
        CategoryChart c = chart("Zero-result lookups: uniform vs Monkey bits at equal filter memory", "tree, bits per key",
                "false positives per lookup");
        String[][] cases = {{"leveling T=4, 5 bits", "lev-T4-b5-"}, {"garnering c=0.5 T=4, 5 bits", "gar-c0.5-T4-b5-"},
            {"static leveling T=4, 3 bits", "static-c1.0-T4-b3-"}, {"garnering c=0.8 T=4, 3 bits", "gar-c0.8-T4-b3-"}};
        List<String> xs = new ArrayList<>();
        for (String[] k : cases) {
            xs.add(k[0]);
        }
        for (String alloc : new String[] {"uniform", "monkey"}) {
            List<Double> ys = new ArrayList<>();
            for (String[] k : cases) {
                JsonNode r = runs.get(k[1] + alloc);
                if (r == null) {
                    r = runs.get(k[1] + alloc.toUpperCase(java.util.Locale.ROOT));
                }
                ys.add(r == null ? 0 : r.get("zeroResultFalsePositivesPerLookup").asDouble());
            }
            c.addSeries(alloc, xs, ys);
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void growth(Map<String, JsonNode> runs, Path out) throws IOException {
        CategoryChart c = chart("Write amplification as data grows (T = 4)", "keys", "bytes written / bytes ingested");
        List<String> xs = List.of("100000", "400000", "1600000");
        for (String p : new String[] {"grow-lev-", "grow-gar-c0.5-"}) {
            List<Double> ys = new ArrayList<>();
            for (String n : xs) {
                JsonNode r = runs.get(p + n);
                ys.add(r == null ? 0 : r.get("writeAmplification").asDouble());
            }
            c.addSeries(p.startsWith("grow-lev") ? "leveling" : "garnering c=0.5", xs, ys);
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
