package dev.breakwater.bench.advisor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The two figures of docs/benchmarks-advisor.md. Stateless. */
final class AdvisorPlots {

    private AdvisorPlots() {
    }

    /** Predicted against measured pages per operation, one series per design, and the y = x line. */
    @SuppressWarnings("unchecked")
    static void check(Path png, Map<String, Object> report) throws IOException {
        XYChart c = new XYChartBuilder().width(800).height(520).title("Model vs engine: I/O pages per operation, 15 expected workloads")
                .xAxisTitle("measured pages/op").yAxisTitle("predicted pages/op").build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setYAxisLogarithmic(true);
        Map<String, List<double[]>> byDesign = new java.util.LinkedHashMap<>();
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) report.get("rows")) {
            double m = (Double) r.get("measuredPagesPerOp");
            double p = (Double) r.get("predictedPagesPerOp");
            byDesign.computeIfAbsent((String) r.get("design"), k -> new ArrayList<>()).add(new double[] {m, p});
            lo = Math.min(lo, Math.min(m, p));
            hi = Math.max(hi, Math.max(m, p));
        }
        for (Map.Entry<String, List<double[]>> e : byDesign.entrySet()) {
            c.addSeries(e.getKey(), e.getValue().stream().mapToDouble(a -> Math.max(a[0], 1e-4)).toArray(),
                    e.getValue().stream().mapToDouble(a -> Math.max(a[1], 1e-4)).toArray());
        }
        XYSeries diag = c.addSeries("y = x", new double[] {Math.max(lo, 1e-4), hi}, new double[] {Math.max(lo, 1e-4), hi});
        diag.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        diag.setMarker(SeriesMarkers.NONE);
        BitmapEncoder.saveBitmap(List.<Chart<?, ?>>of(c), 1, 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Sorted Δ per ρ (an inverse CDF) on the test set and in the ball. */
    @SuppressWarnings("unchecked")
    static void robust(Path png, Map<String, Object> report) throws IOException {
        XYChart c = new XYChartBuilder().width(800).height(520).title("Robust vs nominal on drifted workloads: normalized delta throughput")
                .xAxisTitle("fraction of sampled workloads").yAxisTitle("delta = C(nominal)/C(robust) - 1 (measured costs)").build();
        c.getStyler().setMarkerSize(0);
        Map<Object, List<Double>> deltas = new java.util.LinkedHashMap<>();
        ((Map<Object, List<Double>>) report.get("testSetDeltasByRho")).forEach((k, v) -> deltas.put("rho " + k + ", test set", v));
        ((Map<Object, List<Double>>) report.get("deltasByRho")).forEach((k, v) -> deltas.put("rho " + k + ", in the ball", v));
        for (Map.Entry<Object, List<Double>> e : deltas.entrySet()) {
            double[] y = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] x = new double[y.length];
            for (int i = 0; i < y.length; i++) {
                x[i] = (i + 0.5) / y.length;
            }
            c.addSeries(String.valueOf(e.getKey()), x, y).setMarker(SeriesMarkers.NONE);
        }
        c.addSeries("0", new double[] {0, 1}, new double[] {0, 0}).setMarker(SeriesMarkers.NONE);
        BitmapEncoder.saveBitmap(List.<Chart<?, ?>>of(c), 1, 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
