package dev.breakwater.bench.advisor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The seeded-versus-unseeded tuner figure of docs/benchmarks-advisor.md, drawn from the JSON that
 * {@code bench/scripts/seed-convergence.py --json} writes (the script computes every number; this
 * only draws, since matplotlib is not installed here): above, each run's windowed cost per
 * operation per tuner cycle and its final cost (dashed); below, its write memory after each cycle.
 * Runs whose name starts with {@code unseeded} are drawn dotted in reds, every other group solid
 * (seeded in blues, nominal-seeded in greens).
 *
 * <p>Usage: {@code SeedPlots SERIES.json OUT.png "title"}. Thread safety: stateless.
 */
public final class SeedPlots {

    /** Colours by group: seeded blues, unseeded reds, nominal-seeded greens; anything else greys. */
    private static final Map<String, Color[]> PALETTES = Map.of(
            "seeded", new Color[] {new Color(0x1f4e9c), new Color(0x4f8fe0), new Color(0x0b2a5c)},
            "unseeded", new Color[] {new Color(0xc0392b), new Color(0xf08a24), new Color(0x7b241c)},
            "nominal", new Color[] {new Color(0x1e8449), new Color(0x58d68d), new Color(0x0b5345)});
    private static final Color[] OTHER = {new Color(0x555555), new Color(0x999999), new Color(0x8e44ad)};

    private SeedPlots() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: SeedPlots SERIES.json OUT.png [title]");
        }
        System.setProperty("java.awt.headless", "true");
        draw(Path.of(args[0]), Path.of(args[1]), args.length > 2 ? args[2] : "seeded vs unseeded tuner");
    }

    /** Reads {@code series} (the script's JSON) and writes {@code png}. */
    static void draw(Path series, Path png, String title) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(series.toFile());
        int window = doc.path("window").asInt();
        XYChart cost = new XYChartBuilder().width(1000).height(440)
                .title(title + ": cost per operation, mean of the last " + window + " cycles")
                .xAxisTitle("tuner cycle").yAxisTitle("weighted pages per operation").build();
        XYChart x = new XYChartBuilder().width(1000).height(440).title(title + ": write memory after each cycle")
                .xAxisTitle("tuner cycle").yAxisTitle("MiB").build();
        for (XYChart c : List.of(cost, x)) {
            c.getStyler().setMarkerSize(3);
            c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        }
        Map<String, Integer> perGroup = new HashMap<>();
        for (JsonNode run : doc.path("runs")) {
            String name = run.path("name").asText();
            String group = run.path("group").asText();
            boolean seeded = !group.equals("unseeded");
            Color[] palette = PALETTES.getOrDefault(group, OTHER);
            int k = perGroup.merge(group, 1, Integer::sum) - 1;
            Color color = palette[k % palette.length];
            JsonNode s = run.path("series");
            List<Double> cycles = new ArrayList<>();
            List<Double> windowed = new ArrayList<>();
            JsonNode w = s.path("window");
            for (int i = 0; i < w.size(); i++) {
                if (!w.get(i).isNull()) {
                    cycles.add(s.path("cycle").get(i).asDouble());
                    windowed.add(w.get(i).asDouble());
                }
            }
            if (cycles.isEmpty()) {
                continue;
            }
            XYSeries c = cost.addSeries(name, cycles, windowed);
            c.setLineStyle(seeded ? SeriesLines.SOLID : SeriesLines.DOT_DOT);
            c.setLineColor(color);
            c.setMarkerColor(color);
            double f = run.path("final").asDouble();
            XYSeries fin = cost.addSeries(name + " final", new double[] {1, s.path("cycle").size()}, new double[] {f, f});
            fin.setLineStyle(SeriesLines.DASH_DASH);
            fin.setLineColor(color);
            fin.setMarker(SeriesMarkers.NONE);
            fin.setShowInLegend(false);
            List<Double> all = new ArrayList<>();
            List<Double> xs = new ArrayList<>();
            for (int i = 0; i < s.path("xMiB").size(); i++) {
                all.add(s.path("cycle").get(i).asDouble());
                xs.add(s.path("xMiB").get(i).asDouble());
            }
            XYSeries xSeries = x.addSeries(name, all, xs);
            xSeries.setLineStyle(seeded ? SeriesLines.SOLID : SeriesLines.DOT_DOT);
            xSeries.setLineColor(color);
            xSeries.setMarkerColor(color);
        }
        String base = png.toString().replaceFirst("\\.png$", "");
        BitmapEncoder.saveBitmap(List.<Chart<?, ?>>of(cost, x), 2, 1, base, BitmapEncoder.BitmapFormat.PNG);
    }
}
