package dev.breakwater.bench.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Draws the per-tree time series that {@link MultiTreeWriteFigure} keeps in each row
 * ({@code treeSeries}): for the most written tree of each row, the write memory it holds, its memory
 * levels (M1 and below), and its flushed bytes so far, split into flushes the flush policy asked for,
 * flushes that freed room for its own seals, and flushes the log asked for. One chart per row and
 * file, in a grid. Runs nothing.
 *
 * <p>Thread safety: a command object, one thread.
 */
@Command(name = "tree-series-plot", mixinStandardHelpOptions = true,
        description = "Plot the hottest tree's memory and flushes over time from Figure 10 JSON results.")
public final class TreeSeriesPlot implements Callable<Integer> {

    private static final double MIB = 1 << 20;

    @Parameters(description = "MultiTreeWriteFigure JSON results")
    List<Path> inputs;
    @Option(names = "--out", required = true, description = "PNG to write.")
    Path out;
    @Option(names = "--columns", defaultValue = "2", description = "Charts per row. Default: ${DEFAULT-VALUE}.")
    int columns;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new TreeSeriesPlot()).execute(args));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Integer call() throws Exception {
        List<XYChart> charts = new ArrayList<>();
        for (Path in : inputs) {
            Map<String, Object> json = new ObjectMapper().readValue(in.toFile(), Map.class);
            for (Object r : (List<?>) json.get("rows")) {
                Map<String, Object> row = (Map<String, Object>) r;
                List<Map<String, Object>> series = (List<Map<String, Object>>) row.get("treeSeries");
                if (series != null && !series.isEmpty()) {
                    charts.add(chart(in.getFileName().toString().replaceFirst("\\.json$", ""), row, series));
                }
            }
        }
        if (charts.isEmpty()) {
            System.err.println("no row with a treeSeries");
            return 1;
        }
        int cols = Math.min(columns, charts.size());
        while (charts.size() % cols != 0) {
            charts.add(new XYChartBuilder().width(700).height(420).title("").build()); // the grid must be full
        }
        Figures.writePng(out, charts, cols);
        System.err.println("wrote " + out);
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static XYChart chart(String file, Map<String, Object> row, List<Map<String, Object>> series) {
        Map<String, Object> first = (Map<String, Object>) series.get(0).get("trees");
        Map<String, Object> last = (Map<String, Object>) series.get(series.size() - 1).get("trees");
        String hottest = null;
        double most = -1;
        for (String name : last.keySet()) {
            double w = num(tree(last, name), "entriesWritten") - num(tree(first, name), "entriesWritten");
            if (w > most) {
                most = w;
                hottest = name;
            }
        }
        int n = series.size();
        double[] t = new double[n];
        double[] memory = new double[n];
        double[] levels = new double[n];
        double[] policy = new double[n];
        double[] room = new double[n];
        double[] log = new double[n];
        Map<String, Object> t0 = tree(first, hottest);
        boolean partitioned = String.valueOf(row.get("scheme")).startsWith("Partitioned");
        for (int i = 0; i < n; i++) {
            Map<String, Object> s = series.get(i);
            Map<String, Object> x = tree((Map<String, Object>) s.get("trees"), hottest);
            t[i] = num(s, "seconds");
            memory[i] = num(x, "memoryBytes") / MIB;
            double runs = 0;
            for (Object b : (List<?>) x.get("runBytes")) {
                runs += ((Number) b).doubleValue();
            }
            levels[i] = runs / MIB;
            double flushed = delta(x, t0, "bytesFlushedForMemory") + delta(x, t0, "bytesFlushedForLog");
            room[i] = delta(x, t0, "bytesFlushedForSealRoom") / MIB;
            // Partitioned: what the log asked for, whatever label the pool's fill gave it; B+-dynamic: the label.
            log[i] = (partitioned ? delta(x, t0, "bytesFlushedForLogRequest") : delta(x, t0, "bytesFlushedForLog")) / MIB;
            policy[i] = flushed / MIB - room[i] - log[i];
        }
        XYChart c = new XYChartBuilder().width(700).height(420)
                .title(String.format("%s: %s, %s (%d MiB)", file, row.get("scheme"), hottest, ((Number) row.get("writeMemory")).longValue() >> 20))
                .xAxisTitle("seconds since warm-up start (warm-up " + row.get("treeSeriesWarmupSeconds") + " s)").yAxisTitle("MiB").build();
        c.getStyler().setMarkerSize(0);
        c.addSeries("memory held", t, memory);
        if (partitioned) {
            c.addSeries("memory levels (M1..)", t, levels);
        }
        c.addSeries("flushed: policy (cum.)", t, policy);
        if (partitioned) {
            c.addSeries("flushed: own seal room (cum.)", t, room);
        }
        c.addSeries("flushed: log (cum.)", t, log);
        return c;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tree(Map<String, Object> trees, String name) {
        return (Map<String, Object>) trees.get(name);
    }

    private static double delta(Map<String, Object> now, Map<String, Object> then, String key) {
        return num(now, key) - num(then, key);
    }

    private static double num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v == null ? 0 : ((Number) v).doubleValue();
    }
}
