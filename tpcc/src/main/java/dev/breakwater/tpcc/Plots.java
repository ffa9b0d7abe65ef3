package dev.breakwater.tpcc;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws the run's time series into one PNG: transactions per second (and New-Orders per minute / 60)
 * on top, write-memory use and buffer-cache size below.
 *
 * <p>Thread safety: stateless. Runs headless.
 */
final class Plots {

    private static final int WIDTH = 1000, HEIGHT = 380;

    private Plots() {
    }

    static void write(Path png, List<Sample> samples, String title) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Double> t = new ArrayList<>();
        List<Double> txps = new ArrayList<>();
        List<Double> nops = new ArrayList<>();
        List<Double> wm = new ArrayList<>();
        List<Double> wmCap = new ArrayList<>();
        List<Double> cache = new ArrayList<>();
        for (Sample s : samples) {
            t.add(s.seconds());
            txps.add(s.txPerSecond());
            nops.add(s.newOrdersPerMinute() / 60);
            wm.add(s.writeMemoryUsed() / 1048576.0);
            wmCap.add(s.writeMemoryCapacity() / 1048576.0);
            cache.add(s.bufferCacheBytes() / 1048576.0);
        }
        if (t.isEmpty()) {
            t.add(0.0);
            for (List<Double> l : List.of(txps, nops, wm, wmCap, cache)) {
                l.add(0.0);
            }
        }
        XYChart rate = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title + ": throughput")
                .xAxisTitle("seconds").yAxisTitle("per second").build();
        rate.addSeries("committed tx/s", t, txps).setMarker(SeriesMarkers.NONE);
        rate.addSeries("New-Order tx/s", t, nops).setMarker(SeriesMarkers.NONE);
        XYChart memory = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("memory")
                .xAxisTitle("seconds").yAxisTitle("MiB").build();
        memory.addSeries("write memory used", t, wm).setMarker(SeriesMarkers.NONE);
        memory.addSeries("write memory capacity", t, wmCap).setMarker(SeriesMarkers.NONE);
        memory.addSeries("buffer cache", t, cache).setMarker(SeriesMarkers.NONE);
        BufferedImage top = BitmapEncoder.getBufferedImage(rate);
        BufferedImage bottom = BitmapEncoder.getBufferedImage(memory);
        BufferedImage both = new BufferedImage(WIDTH, 2 * HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = both.createGraphics();
        g.drawImage(top, 0, 0, null);
        g.drawImage(bottom, 0, HEIGHT, null);
        g.dispose();
        ImageIO.write(both, "png", png.toFile());
    }
}
