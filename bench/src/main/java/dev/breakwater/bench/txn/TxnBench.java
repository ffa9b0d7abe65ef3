package dev.breakwater.bench.txn;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Helpers shared by the transaction-log drivers of this package: {@code --name value} command
 * lines, sizes with k/m/g suffixes, percentiles of latency samples, JSON output and scratch
 * directories. Measures nothing itself.
 */
final class TxnBench {

    static final double MIB = 1024.0 * 1024.0;

    private TxnBench() {
    }

    /** A driver's measurement: runs a parsed configuration, reporting progress to {@code log}. */
    @FunctionalInterface
    interface Measurement<C> {
        Map<String, Object> run(C config, PrintStream log) throws Exception;
    }

    /**
     * The command line every driver of this package shares: parse (usage on {@code --help} or on a
     * bad option, exit code 2 for the latter), run, print the table, and write the JSON report if
     * {@code out} names a file.
     */
    static <C> int runCli(String[] args, PrintStream stdout, PrintStream stderr, String usage,
                          java.util.function.Function<String[], C> parse, Measurement<C> measurement,
                          java.util.function.Function<Map<String, Object>, String> table,
                          java.util.function.Function<C, Path> out) throws Exception {
        C c;
        try {
            c = parse.apply(args);
        } catch (IllegalArgumentException e) {
            stderr.println(e.getMessage());
            stderr.println(usage);
            return 2;
        }
        if (c == null) {
            stdout.println(usage);
            return 0;
        }
        Map<String, Object> report = measurement.run(c, stderr);
        stdout.println(table.apply(report));
        if (out.apply(c) != null) {
            writeJson(report, out.apply(c), stdout, stderr);
        }
        return 0;
    }

    static void rejectUnknown(Map<String, String> m) {
        if (!m.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s) " + m.keySet());
        }
    }

    /** A byte count or plain number; k, m, g are powers of 1024. */
    static long size(String s, long dflt) {
        if (s == null) {
            return dflt;
        }
        String t = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long mult = 1;
        if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
            mult = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(t), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a number or size: '" + s + "'");
        }
    }

    static double seconds(String s, double dflt) {
        if (s == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number of seconds: '" + s + "'");
        }
    }

    /** A comma-separated list of positive integers. */
    static int[] intList(String s, int[] dflt) {
        if (s == null) {
            return dflt;
        }
        String[] parts = s.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a list of integers: '" + s + "'");
            }
            if (out[i] < 1) {
                throw new IllegalArgumentException("list values must be >= 1: '" + s + "'");
            }
        }
        return out;
    }

    static List<String> stringList(String s, List<String> dflt) {
        if (s == null) {
            return dflt;
        }
        List<String> out = new ArrayList<>();
        for (String p : s.split(",")) {
            if (!p.isBlank()) {
                out.add(p.trim().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** Nearest-rank percentile of the first {@code n} values of {@code sorted} (ascending); 0 if empty. */
    static long percentile(long[] sorted, int n, double p) {
        if (n == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * n);
        return sorted[Math.max(0, Math.min(n - 1, rank - 1))];
    }

    /** A growable array of longs (latency samples), one per thread, so recording allocates rarely. */
    static final class Samples {
        private long[] values = new long[1 << 14];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = v;
        }

        int size() {
            return size;
        }

        /** All samples of {@code parts}, sorted ascending. */
        static long[] merged(List<Samples> parts) {
            int total = 0;
            for (Samples s : parts) {
                total += s.size;
            }
            long[] all = new long[total];
            int at = 0;
            for (Samples s : parts) {
                System.arraycopy(s.values, 0, all, at, s.size);
                at += s.size;
            }
            Arrays.sort(all);
            return all;
        }
    }

    static double round(double v, int digits) {
        if (!Double.isFinite(v)) {
            return v;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** Writes {@code report} as indented JSON to {@code out}, or to {@code stdout} if {@code out} is null. */
    static void writeJson(Object report, Path out, PrintStream stdout, PrintStream stderr) throws IOException {
        String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
        if (out == null) {
            stdout.println(text);
        } else {
            Files.writeString(out, text + "\n");
            stderr.println("report written to " + out);
        }
    }

    /** The machine's 1-minute load average and processor count, for the report's context. */
    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        m.put("loadAverage1m", round(os.getSystemLoadAverage(), 2));
        m.put("javaVersion", System.getProperty("java.version"));
        return m;
    }

    /** {@code base/name} if a base was given (must not exist yet), else a fresh temporary directory. */
    static Path scratch(Path base, String name) throws IOException {
        if (base == null) {
            return Files.createTempDirectory("txnbench-" + name + "-");
        }
        Path p = base.resolve(name);
        if (Files.exists(p)) {
            throw new IllegalArgumentException(p + " already exists; give an empty --dir");
        }
        Files.createDirectories(p);
        return p;
    }

    /** Deletes {@code dir} and everything under it; quietly does nothing if it is missing. */
    static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
