package dev.breakwater.bench.txn;

import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import dev.breakwater.txn.log.LogManager;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogStatistics;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Measures commit throughput and latency with {@code SYNC} durability (a commit returns only after
 * its log record is fsynced) for several numbers of concurrent committers, and how many commits
 * the log's group commit makes durable per fsync.
 *
 * <p>Two targets, each on a fresh directory per committer count:
 * <ul>
 *   <li>{@code log}: the raw {@link LogManager} ({@code LogOptions.of(64 MiB, SYNC)}, real file
 *       system); each committer loops {@code commit(byte[payloadBytes])}.</li>
 *   <li>{@code engine}: a {@link StorageEngine} with default configuration and {@code SYNC}; one
 *       dataset {@code (id INT64 primary key, payload BYTES)}; each committer loops single-record
 *       {@code upsert}s of its own new keys with a payload of {@code payloadBytes - 8} bytes, so
 *       key plus payload are {@code payloadBytes} (the log record is a little larger: it carries
 *       the tree id and the encoded record).</li>
 * </ul>
 *
 * <p>How: the committers run for {@code --warmup} seconds, then for {@code --seconds} seconds of
 * measurement. A commit counts if it started and finished inside the measurement window; its
 * latency (from before the call to its return, so including the wait for the fsync) goes into a
 * per-thread sample array, and p50/p99/p99.9/max are nearest-rank percentiles over all samples.
 * Commits per fsync and the mean fsync time are the differences of {@link LogStatistics} counters
 * ({@code writtenRecords / fsyncs}, {@code fsyncNanos / fsyncs}) between the window's start and end.
 * Output: a table on stdout and, with {@code --out FILE}, a JSON report.
 */
public final class CommitThroughputDriver {

    static final int[] DEFAULT_COMMITTERS = {1, 2, 8, 32};

    record Config(int[] committers, double seconds, double warmupSeconds, int payloadBytes, List<String> targets,
                  Path dir, Path out) {
    }

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.txn.CommitThroughputDriver [options]",
            "  --committers LIST   committer thread counts (default 1,2,8,32)",
            "  --seconds S         measured seconds per point (default 10)",
            "  --warmup S          unmeasured seconds before each point (default 2)",
            "  --payload-bytes N   log payload / record size (default 200)",
            "  --targets LIST      log,engine (default both)",
            "  --dir PATH          parent of the scratch directories, kept (default: temporary, deleted)",
            "  --out FILE          also write the JSON report to FILE");

    /** One committer's unit of work: one durable commit. */
    @FunctionalInterface
    interface Work {
        void commit(int thread, long seq) throws Exception;
    }

    /** A target opened on a directory: the work, its log statistics, and how to close it. */
    record Target(Work work, Supplier<LogStatistics> statistics, Closeable closer) {
    }

    private CommitThroughputDriver() {
    }

    public static void main(String[] args) throws Exception {
        int code = runCli(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    static int runCli(String[] args, PrintStream stdout, PrintStream stderr) throws Exception {
        return TxnBench.runCli(args, stdout, stderr, USAGE, CommitThroughputDriver::parse, CommitThroughputDriver::run, CommitThroughputDriver::table, Config::out);
    }

    static Config parse(String[] args) {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null) {
            return null;
        }
        int[] committers = TxnBench.intList(m.remove("committers"), DEFAULT_COMMITTERS);
        double seconds = TxnBench.seconds(m.remove("seconds"), 10);
        double warmup = TxnBench.seconds(m.remove("warmup"), 2);
        int payload = (int) TxnBench.size(m.remove("payload-bytes"), 200);
        List<String> targets = TxnBench.stringList(m.remove("targets"), List.of("log", "engine"));
        String dir = m.remove("dir");
        String out = m.remove("out");
        TxnBench.rejectUnknown(m);
        if (seconds <= 0 || warmup < 0 || payload < 16) {
            throw new IllegalArgumentException("need --seconds > 0, --warmup >= 0, --payload-bytes >= 16");
        }
        for (String t : targets) {
            if (!t.equals("log") && !t.equals("engine")) {
                throw new IllegalArgumentException("unknown target '" + t + "' (log, engine)");
            }
        }
        return new Config(committers, seconds, warmup, payload, targets, dir == null ? null : Path.of(dir),
                out == null ? null : Path.of(out));
    }

    static Map<String, Object> run(Config c, PrintStream progress) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("durability", "SYNC");
        config.put("seconds", c.seconds());
        config.put("warmupSeconds", c.warmupSeconds());
        config.put("payloadBytes", c.payloadBytes());
        config.put("logSegmentBytes", 64L << 20);
        config.put("dir", c.dir() == null ? "(temporary, deleted)" : c.dir().toString());
        report.put("config", config);
        report.put("machineAtStart", TxnBench.machine());
        List<Map<String, Object>> results = new ArrayList<>();
        for (String target : c.targets()) {
            for (int n : c.committers()) {
                Path dir = TxnBench.scratch(c.dir(), target + "-" + n);
                try {
                    Target t = target.equals("log") ? openLog(dir, c.payloadBytes()) : openEngine(dir, c.payloadBytes());
                    Map<String, Object> r;
                    try {
                        r = measure(t, n, c.seconds(), c.warmupSeconds());
                    } finally {
                        t.closer().close();
                    }
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("target", target);
                    row.put("committers", n);
                    row.putAll(r);
                    results.add(row);
                    progress.printf("%s committers=%d: %,.0f commits/s, %.2f commits/fsync, p50 %d us, p99 %d us%n",
                            target, n, (double) r.get("commitsPerSecond"), (double) r.get("commitsPerFsync"),
                            (long) r.get("p50Micros"), (long) r.get("p99Micros"));
                } finally {
                    if (c.dir() == null) {
                        TxnBench.deleteTree(dir);
                    }
                }
            }
        }
        report.put("results", results);
        report.put("machineAtEnd", TxnBench.machine());
        return report;
    }

    static Target openLog(Path dir, int payloadBytes) throws IOException {
        LogManager log = LogManager.open(RealFileSystem.create(), dir.resolve("log"),
                LogOptions.of(64L << 20, Durability.SYNC), new IoStatistics());
        ThreadLocal<byte[]> payload = ThreadLocal.withInitial(() -> new byte[payloadBytes]);
        Work w = (thread, seq) -> {
            byte[] p = payload.get();
            p[0] = (byte) thread;
            p[1] = (byte) seq;
            p[2] = (byte) (seq >>> 8);
            log.commit(p);
        };
        return new Target(w, log::statistics, log);
    }

    static Target openEngine(Path dir, int recordBytes) {
        // -Dbreakwater.config=FILE starts from a JSON/YAML configuration instead of the defaults.
        String file = System.getProperty("breakwater.config");
        StorageConfig base = file == null ? StorageConfig.defaults() : StorageConfig.load(Path.of(file));
        StorageConfig config = base.toBuilder().set(ConfigOptions.DURABILITY, Durability.SYNC).build();
        StorageEngine engine = StorageEngine.open(dir.resolve("engine"), config);
        Dataset ds = engine.createDataset(DatasetSpec.builder("bench").field("id", FieldType.INT64)
                .field("payload", FieldType.BYTES).primaryKey("id").build());
        int valueBytes = recordBytes - Long.BYTES;
        ThreadLocal<byte[]> payload = ThreadLocal.withInitial(() -> new byte[valueBytes]);
        Work w = (thread, seq) -> {
            byte[] p = payload.get();
            p[0] = (byte) seq;
            ds.upsert(Tuple.of(((long) thread << 40) | seq, p));
        };
        return new Target(w, () -> engine.statistics().log(), engine::close);
    }

    /** Runs {@code committers} threads on {@code t}: warm-up, then the measured window. */
    static Map<String, Object> measure(Target t, int committers, double seconds, double warmup) throws Exception {
        Window window = new Window();
        var started = new CountDownLatch(committers);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<TxnBench.Samples> samples = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < committers; i++) {
            TxnBench.Samples s = new TxnBench.Samples();
            samples.add(s);
            int id = i;
            Thread th = new Thread(() -> {
                started.countDown();
                long seq = 0;
                try {
                    while (true) {
                        if (window.stop) {
                            return;
                        }
                        long open = window.open;
                        long close = window.close;
                        long t0 = System.nanoTime();
                        t.work().commit(id, seq++);
                        long t1 = System.nanoTime();
                        if (t0 >= open && t1 <= close) {
                            s.add(t1 - t0);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "committer-" + i);
            threads.add(th);
        }
        threads.forEach(Thread::start);
        started.await();
        Thread.sleep((long) (warmup * 1000));
        LogStatistics s0 = t.statistics().get();
        long open = System.nanoTime();
        long close = open + (long) (seconds * 1e9);
        window.close = close;
        window.open = open;
        while (System.nanoTime() < close && failure.get() == null) {
            Thread.sleep(Math.max(1, Math.min(100, (close - System.nanoTime()) / 1_000_000)));
        }
        LogStatistics s1 = t.statistics().get();
        long end = System.nanoTime();
        window.stop = true;
        for (Thread th : threads) {
            th.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a committer failed", failure.get());
        }
        long[] all = TxnBench.Samples.merged(samples);
        double windowSeconds = (Math.min(end, close) - open) / 1e9;
        long fsyncs = s1.fsyncs() - s0.fsyncs();
        long records = s1.writtenRecords() - s0.writtenRecords();
        long fsyncNanos = s1.fsyncNanos() - s0.fsyncNanos();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("windowSeconds", TxnBench.round(windowSeconds, 3));
        r.put("commits", all.length);
        r.put("commitsPerSecond", TxnBench.round(all.length / windowSeconds, 1));
        r.put("logRecordsWritten", records);
        r.put("logBytesWritten", s1.writtenBytes() - s0.writtenBytes());
        r.put("batches", s1.batches() - s0.batches());
        r.put("fsyncs", fsyncs);
        r.put("fsyncsPerSecond", TxnBench.round(fsyncs / windowSeconds, 1));
        r.put("commitsPerFsync", TxnBench.round(fsyncs == 0 ? 0 : (double) records / fsyncs, 2));
        r.put("meanFsyncMicros", TxnBench.round(fsyncs == 0 ? 0 : fsyncNanos / 1000.0 / fsyncs, 1));
        r.put("fsyncBusyFraction", TxnBench.round(fsyncNanos / 1e9 / windowSeconds, 3));
        r.put("p50Micros", TxnBench.percentile(all, all.length, 50) / 1000);
        r.put("p99Micros", TxnBench.percentile(all, all.length, 99) / 1000);
        r.put("p999Micros", TxnBench.percentile(all, all.length, 99.9) / 1000);
        r.put("maxMicros", all.length == 0 ? 0 : all[all.length - 1] / 1000);
        r.put("meanMicros", TxnBench.round(mean(all) / 1000.0, 1));
        return r;
    }

    /** The measurement window, published to the committers; {@code Long.MAX_VALUE} until it opens. */
    private static final class Window {
        volatile long open = Long.MAX_VALUE;
        volatile long close = Long.MAX_VALUE;
        volatile boolean stop;
    }

    private static double mean(long[] v) {
        if (v.length == 0) {
            return 0;
        }
        double sum = 0;
        for (long x : v) {
            sum += x;
        }
        return sum / v.length;
    }

    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-7s %10s %12s %10s %12s %12s %10s %10s %10s %10s%n", "target", "committers",
                "commits/s", "fsyncs/s", "commits/fsync", "fsync us", "p50 us", "p99 us", "p99.9 us", "max us"));
        for (Map<String, Object> r : (List<Map<String, Object>>) report.get("results")) {
            sb.append(String.format("%-7s %10d %12.0f %10.0f %12.2f %12.1f %10d %10d %10d %10d%n", r.get("target"),
                    r.get("committers"), r.get("commitsPerSecond"), r.get("fsyncsPerSecond"), r.get("commitsPerFsync"),
                    r.get("meanFsyncMicros"), r.get("p50Micros"), r.get("p99Micros"), r.get("p999Micros"),
                    r.get("maxMicros")));
        }
        return sb.toString();
    }
}
