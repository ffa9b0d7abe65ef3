package dev.breakwater.bench.layout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Plots {@link LedgerLayoutDriver} reports against the history length (passes over the same ids):
 * the tree's open time, the manifest edits an open replays, and the table count, one series per
 * label. Usage: {@code LayoutPlot OUT.png LABEL=a.json,b.json,... [LABEL=...]}.
 *
 * <p>Thread safety: a command-line tool; single-threaded.
 */
public final class LayoutPlot {

    private LayoutPlot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LayoutPlot OUT.png LABEL=a.json,b.json,... [LABEL=...]");
            System.exit(2);
        }
        ObjectMapper json = new ObjectMapper();
        XYChart open = chart("Tree open time (median of 3)", "open ms");
        XYChart edits = chart("Manifest edits replayed at open", "edits");
        XYChart tables = chart("SSTables in the tree", "tables");
        for (int a = 1; a < args.length; a++) {
            String label = args[a].substring(0, args[a].indexOf('='));
            List<Double> x = new ArrayList<>();
            List<Double> ms = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            List<Double> t = new ArrayList<>();
            for (String file : args[a].substring(args[a].indexOf('=') + 1).split(",")) {
                JsonNode r = json.readTree(Path.of(file).toFile());
                x.add(r.get("passes").asDouble());
                ms.add(r.get("treeOpenSecondsMedian").asDouble() * 1000);
                e.add(r.get("manifestEditsReplayed").asDouble());
                t.add(r.get("tables").asDouble());
            }
            open.addSeries(label, x, ms);
            edits.addSeries(label, x, e);
            tables.addSeries(label, x, t);
        }
        List<Chart<?, ?>> charts = List.of(open, edits, tables);
        String name = args[0].endsWith(".png") ? args[0].substring(0, args[0].length() - 4) : args[0];
        BitmapEncoder.saveBitmap(charts, 1, 3, name, BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String y) {
        XYChart c = new XYChartBuilder().width(520).height(400).title(title).xAxisTitle("passes over the same 50,879 ids (history length)")
                .yAxisTitle(y).build();
        c.getStyler().setYAxisMin(0.0);
        return c;
    }
}
