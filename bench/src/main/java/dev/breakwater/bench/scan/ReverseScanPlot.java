package dev.breakwater.bench.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * Plots {@link ReverseScanDriver} reports: full-scan entries/s forward and reverse (medians of the
 * throughput report), and the live heap after GC against the data read for each heap report.
 *
 * <p>Thread safety: a command-line tool.
 */
public final class ReverseScanPlot {

    private ReverseScanPlot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: ReverseScanPlot throughput.json heap.json [heap.json ...] OUT.png");
            System.exit(2);
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode t = json.readTree(Path.of(args[0]).toFile());
        CategoryChart rates = new CategoryChartBuilder().width(640).height(420)
                .title("Full scans, " + (t.get("totalMemoryBytes").asLong() >> 20) + " MiB engine").xAxisTitle("direction")
                .yAxisTitle("entries / s").build();
        rates.addSeries("median", List.of("forward", "reverse"),
                List.of(t.get("fullForwardMedian").asDouble(), t.get("fullReverseMedian").asDouble()));
        rates.getStyler().setLegendVisible(false);
        XYChart heap = new XYChartBuilder().width(640).height(420).title("Live heap after GC, one full scan")
                .xAxisTitle("MiB of keys and values read").yAxisTitle("MiB").build();
        for (int i = 1; i < args.length - 1; i++) {
            JsonNode h = json.readTree(Path.of(args[i]).toFile());
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (JsonNode s : h.get("samples")) {
                x.add(s.get("bytesRead").asDouble() / 1048576.0);
                y.add(s.get("liveHeapAfterGcBytes").asDouble() / 1048576.0);
            }
            if (x.isEmpty()) {
                x.add(0.0);
                y.add(0.0);
            }
            String outcome = h.get("outcome").asText();
            heap.addSeries(h.get("how").asText() + ", -Xmx" + (h.get("maxHeapBytes").asLong() >> 20) + "m: "
                    + (outcome.contains(" after") ? outcome.substring(0, outcome.indexOf(" after")) : outcome), x, y);
        }
        heap.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        heap.getStyler().setYAxisMin(0.0);
        heap.getStyler().setXAxisDecimalPattern("#");
        List<Chart<?, ?>> charts = List.of(rates, heap);
        String out = args[args.length - 1];
        BitmapEncoder.saveBitmap(charts, 1, 2, out.endsWith(".png") ? out.substring(0, out.length() - 4) : out,
                BitmapEncoder.BitmapFormat.PNG);
    }
}
