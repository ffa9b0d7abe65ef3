package dev.breakwater.bench.lsm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the write amplification of one LSM tree under a random-key insert load and compares it
 * with equation 1 of paper 000 (section 2.1), the per-entry write cost of partitioned leveling:
 * {@code C = e/P + e/P·(T+1)·log_T(|L_N| / (a·M_w))} pages per entry, i.e. an amplification of
 * {@code C·P/e = 1 + (T+1)·log_T(|L_N| / (a·M_w))}.
 *
 * <p>How: {@code --keys} random 16-byte keys (distinct with overwhelming probability) with
 * {@code --value-bytes}-byte values are put, from one thread, into a fresh tree with leveling, size
 * ratio {@code --size-ratio}, 4 KiB pages and no compression. Write memory: the pool's capacity is
 * {@code --write-memory} and a memory table is sealed and flushed at half of it
 * ({@code --memtable-bytes} overrides), so one table can fill while the previous one flushes; with
 * the default {@code maxImmutables} of 2 writers stall when the pool is full. A progress line (rate,
 * ETA, stalls, tree shape) goes to stderr every second. After the load the tree is flushed and the
 * driver waits for merges to settle, then reports as JSON (stdout, or {@code --out FILE}): the bytes
 * ingested (entries × (key + value)), the bytes written by flushes and merges both from the
 * {@link dev.breakwater.common.stats.IoStatistics} counters (FLUSH and MERGE) and from
 * {@link TreeStatisticsSnapshot}, the write amplification (written / ingested), the level sizes, and
 * equation 1's prediction for the measured {@code |L_N|} (last level bytes), {@code T}, {@code e}
 * (key + value bytes) and {@code a·M_w} = {@code --write-memory}; the prediction is also given with
 * {@code a·M_w} = the memory-table size, which is what the engine's level targets are based on.
 * Manifest writes are counted under LOG and reported apart, not in the amplification.
 *
 * <p>{@code --dir} names the tree's directory (created; must be empty; the files are kept);
 * without it a temporary directory is used and deleted. {@code --direct-io true} writes and reads
 * SSTables with O_DIRECT (default false).
 */
public final class WriteAmplificationDriver {

    static final int PAGE = 4096;
    static final int KEY_BYTES = BenchKeys.KEY_BYTES;

    /** Parsed command line. {@code memtableBytes} 0 means write memory / 2. */
    record Config(long keys, int valueBytes, long writeMemory, long memtableBytes, int sizeRatio, Path dir,
                  boolean directIo, Path out, long cacheBytes, long seed) {

        long effectiveMemtableBytes() {
            return memtableBytes > 0 ? memtableBytes : writeMemory / 2;
        }
    }

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.lsm.WriteAmplificationDriver [options]",
            "  --keys N              entries to insert (default 5000000)",
            "  --value-bytes N       value size (default 100; keys are 16 bytes)",
            "  --write-memory SIZE   write-memory pool capacity, a*M_w (default 64m)",
            "  --memtable-bytes SIZE memory table seal threshold (default write memory / 2)",
            "  --size-ratio T        leveling size ratio (default 10)",
            "  --dir PATH            tree directory, must be empty (default: a temporary directory, deleted)",
            "  --direct-io BOOL      SSTable I/O with O_DIRECT (default false)",
            "  --cache SIZE          buffer cache capacity (default 256m)",
            "  --seed N              key stream (default 1)",
            "  --out FILE            write the JSON report to FILE instead of stdout",
            "SIZE accepts k, m, g suffixes (powers of 1024).");

    private WriteAmplificationDriver() {
    }

    public static void main(String[] args) throws Exception {
        int code = runCli(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs the driver; returns the process exit code (2 for a bad command line). */
    static int runCli(String[] args, PrintStream stdout, PrintStream stderr) throws IOException, InterruptedException {
        Config config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            stderr.println(e.getMessage());
            stderr.println(USAGE);
            return 2;
        }
        if (config == null) {
            stdout.println(USAGE);
            return 0;
        }
        Map<String, Object> report = run(config, stderr);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        String text = json.writeValueAsString(report);
        if (config.out() == null) {
            stdout.println(text);
        } else {
            Files.writeString(config.out(), text + "\n");
            stderr.println("report written to " + config.out());
        }
        return 0;
    }

    /** Null for {@code --help}. */
    static Config parse(String[] args) {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null) {
            return null;
        }
        long keys = size(m.remove("keys"), 5_000_000L);
        int valueBytes = (int) size(m.remove("value-bytes"), 100);
        long writeMemory = size(m.remove("write-memory"), 64L << 20);
        long memtable = size(m.remove("memtable-bytes"), 0);
        int sizeRatio = (int) size(m.remove("size-ratio"), 10);
        String dir = m.remove("dir");
        boolean directIo = bool(m.remove("direct-io"));
        String out = m.remove("out");
        long cache = size(m.remove("cache"), 256L << 20);
        long seed = size(m.remove("seed"), 1);
        if (!m.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s) " + m.keySet());
        }
        if (keys < 1 || valueBytes < 0 || writeMemory < 2L * 64 * 1024 || sizeRatio < 2) {
            throw new IllegalArgumentException("need --keys >= 1, --value-bytes >= 0, --write-memory >= 128k, --size-ratio >= 2");
        }
        return new Config(keys, valueBytes, writeMemory, memtable, sizeRatio, dir == null ? null : Path.of(dir), directIo,
                out == null ? null : Path.of(out), cache, seed);
    }

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

    static boolean bool(String s) {
        if (s == null || s.equalsIgnoreCase("false")) {
            return false;
        }
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalArgumentException("expected true or false, got '" + s + "'");
    }

    /** Loads, settles and measures; progress lines go to {@code progress}. */
    static Map<String, Object> run(Config c, PrintStream progress) throws IOException, InterruptedException {
        if (c.dir() != null && Files.isDirectory(c.dir())) {
            try (var entries = Files.list(c.dir())) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--dir " + c.dir() + " is not empty");
                }
            }
        }
        LsmTreeOptions options = LsmTreeOptions.defaults(PAGE, c.effectiveMemtableBytes()).withSizeRatio(c.sizeRatio())
                .withDirectIo(c.directIo());
        byte[] key = new byte[KEY_BYTES];
        byte[] value = new byte[c.valueBytes()];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) BenchKeys.mix(c.seed() * 31 + i);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        try (BenchTree bench = new BenchTree(c.dir(), options, c.cacheBytes(), c.writeMemory())) {
            AtomicLong loaded = new AtomicLong();
            Thread reporter = progressThread(bench, c.keys(), loaded, progress);
            long t0 = System.nanoTime();
            reporter.start();
            try {
                for (long i = 0; i < c.keys(); i++) {
                    BenchKeys.fill(c.seed(), i, key);
                    if (value.length >= 8) {
                        BenchKeys.putLong(value, 0, i);
                    }
                    bench.tree.put(key, value, 0);
                    loaded.setRelease(i + 1);
                }
            } finally {
                reporter.interrupt();
                reporter.join();
            }
            long t1 = System.nanoTime();
            progress.printf("loaded %,d entries in %.1f s; flushing%n", c.keys(), (t1 - t0) / 1e9);
            bench.tree.flush();
            long t2 = System.nanoTime();
            progress.printf("flushed in %.1f s; waiting for merges (%s)%n", (t2 - t1) / 1e9, bench.shape());
            bench.tree.awaitMerges();
            long t3 = System.nanoTime();
            progress.printf("merges settled in %.1f s: %s%n", (t3 - t2) / 1e9, bench.shape());
            report(report, c, options, bench, new double[] {(t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9});
        }
        return report;
    }

    private static Thread progressThread(BenchTree bench, long total, AtomicLong loaded, PrintStream out) {
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            long lastTime = start;
            long lastCount = 0;
            try {
                while (true) {
                    Thread.sleep(1000);
                    long now = System.nanoTime();
                    long n = loaded.getAcquire();
                    double rate = (n - lastCount) / ((now - lastTime) / 1e9);
                    double avg = n / ((now - start) / 1e9);
                    double eta = avg > 0 ? (total - n) / avg : Double.NaN;
                    TreeStatisticsSnapshot s = bench.tree.statistics();
                    out.printf("%,12d / %,d (%5.1f%%)  %,9.0f puts/s (avg %,9.0f)  ETA %5.0f s  stalls %d  flushes %d merges %d  %s%n",
                            n, total, 100.0 * n / total, rate, avg, eta, s.writeStalls(), s.flushes(), s.merges(), bench.shape());
                    lastTime = now;
                    lastCount = n;
                }
            } catch (InterruptedException e) {
                // load finished
            }
        }, "wa-progress");
        t.setDaemon(true);
        return t;
    }

    private static void report(Map<String, Object> r, Config c, LsmTreeOptions options, BenchTree bench, double[] seconds) {
        IoStatisticsSnapshot io = bench.io.snapshot();
        TreeStatisticsSnapshot s = bench.tree.statistics();
        long entrySize = KEY_BYTES + c.valueBytes();
        long ingested = s.entriesWritten() * entrySize;
        long flushIo = io.bytesWritten(IoPurpose.FLUSH);
        long mergeIo = io.bytesWritten(IoPurpose.MERGE);
        long pagesIo = io.pagesWritten(IoPurpose.FLUSH) + io.pagesWritten(IoPurpose.MERGE);

        Map<String, Object> config = new LinkedHashMap<>();
        config.put("keys", c.keys());
        config.put("keyBytes", KEY_BYTES);
        config.put("valueBytes", c.valueBytes());
        config.put("writeMemoryBytes", c.writeMemory());
        config.put("memoryTableBytes", c.effectiveMemtableBytes());
        config.put("sizeRatio", c.sizeRatio());
        config.put("pageSize", PAGE);
        config.put("policy", "LEVELING");
        config.put("targetTableBytes", options.targetTableBytes());
        config.put("directIo", c.directIo());
        config.put("cacheBytes", c.cacheBytes());
        config.put("seed", c.seed());
        config.put("dir", c.dir() == null ? "(temporary, deleted)" : c.dir().toString());
        r.put("config", config);

        Map<String, Object> time = new LinkedHashMap<>();
        time.put("loadSeconds", round(seconds[0], 2));
        time.put("flushSeconds", round(seconds[1], 2));
        time.put("mergeSettleSeconds", round(seconds[2], 2));
        time.put("loadPutsPerSecond", Math.round(c.keys() / seconds[0]));
        time.put("writeStalls", s.writeStalls());
        time.put("writeStallSeconds", round(s.writeStallNanos() / 1e9, 2));
        time.put("flushSlowdowns", s.flushSlowdowns());
        time.put("flushStops", s.flushStops());
        r.put("time", time);

        r.put("entriesWritten", s.entriesWritten());
        r.put("bytesIngested", ingested);

        Map<String, Object> written = new LinkedHashMap<>();
        written.put("flushBytes", flushIo);
        written.put("mergeBytes", mergeIo);
        written.put("totalBytes", flushIo + mergeIo);
        written.put("pages", pagesIo);
        written.put("manifestBytesUnderLog", io.bytesWritten(IoPurpose.LOG));
        written.put("mergeBytesRead", io.bytesRead(IoPurpose.MERGE));
        r.put("ioStatistics", written);

        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("flushes", s.flushes());
        tree.put("bytesFlushed", s.bytesFlushed());
        tree.put("merges", s.merges());
        tree.put("mergeBytesRead", s.mergeBytesRead());
        tree.put("mergeBytesWritten", s.mergeBytesWritten());
        tree.put("mergeAmplificationPerFlushedByte", round(s.mergeAmplification(), 3));
        r.put("treeStatistics", tree);

        double wa = ingested == 0 ? 0 : (double) (flushIo + mergeIo) / ingested;
        r.put("writeAmplification", round(wa, 3));
        r.put("writeAmplificationFromTreeStatistics",
                round(ingested == 0 ? 0 : (double) (s.bytesFlushed() + s.mergeBytesWritten()) / ingested, 3));
        r.put("measuredPagesPerEntry", round(s.entriesWritten() == 0 ? 0 : (double) pagesIo / s.entriesWritten(), 4));

        List<Map<String, Object>> levels = new ArrayList<>();
        long diskBytes = 0;
        for (int i = 0; i < s.levelBytes().size(); i++) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("level", i);
            l.put("bytes", s.levelBytes().get(i));
            l.put("tables", s.levelTables().get(i));
            if (i == 0) {
                l.put("groups", s.l0Groups());
            }
            levels.add(l);
            diskBytes += s.levelBytes().get(i);
        }
        r.put("levels", levels);
        r.put("diskBytes", diskBytes);
        r.put("spaceAmplification", round(ingested == 0 ? 0 : (double) diskBytes / ingested, 3));

        long lastLevel = s.levelBytes().get(s.levelBytes().size() - 1);
        Map<String, Object> eq = new LinkedHashMap<>();
        eq.put("formula", "C = e/P + e/P*(T+1)*log_T(|L_N|/(a*M_w)); amplification = C*P/e");
        eq.put("e", entrySize);
        eq.put("P", PAGE);
        eq.put("T", c.sizeRatio());
        eq.put("lastLevelBytes", lastLevel);
        eq.put("measuredLevelsBelowL0", s.levelBytes().size() - 1);
        eq.put("withWriteMemory", equation1(entrySize, c.sizeRatio(), lastLevel, c.writeMemory()));
        eq.put("withMemoryTableBytes", equation1(entrySize, c.sizeRatio(), lastLevel, c.effectiveMemtableBytes()));
        r.put("equation1", eq);
    }

    /** Equation 1 for {@code a·M_w = memory}. */
    static Map<String, Object> equation1(long e, int t, long lastLevelBytes, long memory) {
        double levels = Math.log((double) lastLevelBytes / memory) / Math.log(t);
        double pages = (double) e / PAGE + (double) e / PAGE * (t + 1) * levels;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("aMw", memory);
        m.put("levelsN", round(levels, 3));
        m.put("pagesPerEntry", round(pages, 4));
        m.put("amplification", round(pages * PAGE / e, 3));
        return m;
    }

    static double round(double v, int digits) {
        if (!Double.isFinite(v)) {
            return v;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
