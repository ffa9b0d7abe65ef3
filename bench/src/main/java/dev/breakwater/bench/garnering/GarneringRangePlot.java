package dev.breakwater.bench.garnering;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Draws the range-read plots of docs/benchmarks-garnering.md's Session 12 from the {@link GarneringDriver}
 * JSON files in the directories named after the output directory, labelled {@code POLICY-kKEYS-rN} (POLICY one of {@code static}, {@code gar0.8},
 * {@code gar0.5}, {@code lev}): {@code ranges-pages.png}, the median pages read per short (seek + 10) and
 * long (seek + 100) range read of each policy and data size next to the model's leaf pages
 * ({@code R·(1 + 1/E) + n/E}, E = {@value #ENTRIES_PER_LEAF} entries per leaf, R the median over the
 * repetitions of either every run or the runs a seek lands inside of, the sum of {@code runCoverage}), and {@code ranges-rates.png}, each policy's median load, load + settle, short and long
 * range rates divided by static leveling's at the same size. Usage: {@code GarneringRangePlot OUTDIR DIR...}.
 *
 * <p>Stateless; not for concurrent use on one directory.
 */
public final class GarneringRangePlot {

    /** Entries of 16-byte keys and 100-byte values in one uncompressed 4 KiB leaf (docs/formats.md §2). */
    static final int ENTRIES_PER_LEAF = 31;

    private static final String[][] POLICIES = {{"static", "static"}, {"gar0.8", "c=0.8"}, {"gar0.5", "c=0.5"}, {"lev", "leveling"}};

    private GarneringRangePlot() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Map<String, List<JsonNode>> groups = new LinkedHashMap<>(); // "static-k600000" -> its repetitions
        ObjectMapper m = new ObjectMapper();
        for (int i = 1; i < args.length; i++) {
            try (Stream<Path> files = Files.list(Path.of(args[i]))) {
                for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    JsonNode n = m.readTree(p.toFile());
                    groups.computeIfAbsent(n.get("label").asText().replaceAll("-r\\d+$", ""), k -> new ArrayList<>()).add(n);
                }
            }
        }
        List<String> sizes = groups.keySet().stream().map(g -> g.substring(g.indexOf("-k") + 2)).distinct()
                .sorted((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b))).toList();
        pages(groups, sizes, dir.resolve("ranges-pages.png"));
        rates(groups, sizes, dir.resolve("ranges-rates.png"));
    }

    private static void pages(Map<String, List<JsonNode>> groups, List<String> sizes, Path out) throws IOException {
        List<String> xs = new ArrayList<>();
        List<List<Double>> ys = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>(), new ArrayList<>());
        for (String size : sizes) {
            for (String[] p : POLICIES) {
                List<JsonNode> rs = groups.get(p[0] + "-k" + size);
                if (rs == null) {
                    continue;
                }
                xs.add(p[1] + ", " + size + " keys");
                double runs = median(rs, "runs");
                double covered = medianCovered(rs);
                ys.get(0).add(median(rs, "shortRangePagesReadPerOp"));
                ys.get(1).add(leaves(runs, 10));
                ys.get(2).add(leaves(covered, 10));
                ys.get(3).add(median(rs, "longRangePagesReadPerOp"));
                ys.get(4).add(leaves(runs, 100));
                ys.get(5).add(leaves(covered, 100));
            }
        }
        CategoryChart c = chart("Pages read per range read (median of repetitions) and the leaf-page model", "pages per operation");
        String[] names = {"short, measured", "short, model: every run", "short, model: runs the seek lands in",
            "long, measured", "long, model: every run", "long, model: runs the seek lands in"};
        for (int i = 0; i < names.length; i++) {
            c.addSeries(names[i], xs, ys.get(i));
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void rates(Map<String, List<JsonNode>> groups, List<String> sizes, Path out) throws IOException {
        String[] metrics = {"loadOpsPerSec", "loadAndSettleOpsPerSec", "shortRangeOpsPerSec", "longRangeOpsPerSec"};
        String[] names = {"load", "load + settle", "short range", "long range"};
        List<String> xs = new ArrayList<>();
        List<List<Double>> ys = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (String size : sizes) {
            List<JsonNode> base = groups.get("static-k" + size);
            if (base == null) {
                continue;
            }
            for (String[] p : POLICIES) {
                List<JsonNode> rs = groups.get(p[0] + "-k" + size);
                if (rs == null || p[0].equals("static")) {
                    continue;
                }
                xs.add(p[1] + ", " + size + " keys");
                for (int i = 0; i < metrics.length; i++) {
                    ys.get(i).add(median(rs, metrics[i]) / median(base, metrics[i]));
                }
            }
        }
        CategoryChart c = chart("Medians relative to static leveling at the same size (1.0 = equal)", "ops/s ÷ static leveling's");
        for (int i = 0; i < names.length; i++) {
            c.addSeries(names[i], xs, ys.get(i));
        }
        BitmapEncoder.saveBitmap(c, out.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Leaf pages of a range read of {@code n} entries over {@code runs} runs when no leaf is cached. */
    private static double leaves(double runs, int n) {
        return runs * (1 + 1.0 / ENTRIES_PER_LEAF) + (double) n / ENTRIES_PER_LEAF;
    }

    /** Median over the repetitions of the runs a seek lands inside of (the sum of {@code runCoverage}; 0 if not recorded). */
    private static double medianCovered(List<JsonNode> rs) {
        double[] v = rs.stream().mapToDouble(r -> {
            double sum = 0;
            for (JsonNode c : r.path("runCoverage")) {
                sum += c.get("coverage").asDouble();
            }
            return sum;
        }).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double median(List<JsonNode> rs, String key) {
        double[] v = rs.stream().mapToDouble(r -> r.get(key).asDouble()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static CategoryChart chart(String title, String y) {
        CategoryChart c = new CategoryChartBuilder().width(1100).height(520).title(title).xAxisTitle("policy, keys").yAxisTitle(y).build();
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        c.getStyler().setXAxisLabelRotation(20);
        return c;
    }
}
