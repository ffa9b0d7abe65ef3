package dev.breakwater.bench.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.ycsb.YcsbRecords;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What the three memory-figure drivers share: JSON output, PNG output, a progress line with rate
 * and ETA over a list of configurations, and the process CPU clock.
 *
 * <p>Thread safety: stateless static helpers, except {@link Plan}, which one driver thread uses.
 */
final class Figures {

    /** The YCSB keys of records {@code 0..records-1}, as bytes. */
    static byte[][] recordKeys(int records) {
        byte[][] keys = new byte[records][];
        for (int i = 0; i < records; i++) {
            keys[i] = YcsbRecords.key(i).getBytes(StandardCharsets.UTF_8);
        }
        return keys;
    }

    /** 64 values of {@code size} printable random bytes, from {@code seed}: writes cycle through them. */
    static byte[][] printableValues(long seed, int size) {
        SplittableRandom vr = new SplittableRandom(seed);
        byte[][] values = new byte[64][size];
        for (byte[] v : values) {
            for (int i = 0; i < v.length; i++) {
                v[i] = (byte) (' ' + vr.nextInt(95));
            }
        }
        return values;
    }


    private Figures() {
    }

    /** Writes {@code value} as indented JSON to {@code file} (parent directories created). */
    static void writeJson(Path file, Object value) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value));
    }

    /** Saves {@code charts} side by side ({@code cols} per row) as one PNG. */
    static void writePng(Path file, List<? extends Chart<?, ?>> charts, int cols) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        String name = file.toString().endsWith(".png") ? file.toString().substring(0, file.toString().length() - 4) : file.toString();
        int rows = (charts.size() + cols - 1) / cols;
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<Chart<?, ?>> list = (List) charts;
        BitmapEncoder.saveBitmap(list, rows, cols, name, BitmapEncoder.BitmapFormat.PNG);
    }

    /** The PNG next to a JSON file: {@code x.json} → {@code x.png}. */
    static Path pngBeside(Path json) {
        return json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", "") + ".png");
    }

    /** CPU time of the whole process so far (every thread, GC included), in nanoseconds; -1 if unknown. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    static double number(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v == null ? 0 : ((Number) v).doubleValue();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> m, String key) {
        return (Map<String, Object>) m.get(key);
    }

    /** Counts finished configurations and prints "[i/n] name ... elapsed, ETA" lines to stderr. */
    static final class Plan {
        private final PrintStream err = System.err;
        private final int total;
        private final long start = System.nanoTime();
        private int done;

        Plan(int total) {
            this.total = total;
        }

        void starting(String what) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            String eta = done == 0 ? "?" : String.format("%.0fs", elapsed / done * (total - done));
            err.printf("=== [%d/%d] %s  (elapsed %.0fs, ETA %s)%n", done + 1, total, what, elapsed, eta);
        }

        void finished(String summary) {
            done++;
            err.println("    " + summary);
        }
    }
}
