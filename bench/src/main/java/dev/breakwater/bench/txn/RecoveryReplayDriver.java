package dev.breakwater.bench.txn;

import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogReader;
import dev.breakwater.txn.log.LogStatistics;
import dev.breakwater.txn.log.ReplayResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures crash-recovery replay speed: how many MB of transaction log {@link StorageEngine#open}
 * replays per second after a crash.
 *
 * <p>How: a child JVM opens an engine with one dataset {@code (id INT64 primary key, payload BYTES)}
 * and upserts new keys ({@code --record-bytes} of key plus payload) from {@code --writers} threads
 * with {@code ASYNC} durability (the log format and the replay work are the same as with SYNC; ASYNC
 * only fills the log faster) until {@code --mb} MiB of log are written. The write memory, the
 * memory-component size and the maximum log size are set so that nothing is flushed to a tree (the
 * child checks that no tree flushed), so recovery must replay the whole log. The child waits until
 * every appended byte is written and fsynced, reports, and the parent kills it with
 * {@link Process#destroyForcibly()} (SIGKILL: no close, no flush).
 *
 * <p>The parent then (1) scans the log three times with a bare {@link LogReader} (read and checksum
 * only, no tree work), (2) times {@code open} plus {@code close} of a second engine with the same
 * configuration and dataset that was closed cleanly (nothing to replay), to estimate the fixed cost
 * of opening an engine (classes loaded and warmed up before the timed recovery), and (3) times
 * {@code StorageEngine.open} on the killed directory with the same configuration: replay of every
 * record into the memory components, plus that fixed cost. Reported: log bytes, records, open
 * seconds, replay MiB/s and records/s both gross (log bytes / open time) and net of the fixed cost,
 * the bare-reader MiB/s, and checks that the replayed byte count equals what the child wrote and
 * that the trees have no disk components. The log was just written, so it is read from the page
 * cache: these are warm-cache numbers (cold-cache replay needs the caches dropped, which this
 * driver does not do on a shared machine).
 */
public final class RecoveryReplayDriver {

    record Config(long mib, int recordBytes, int writers, Path dir, Path out, long childHeapMib, int recoveryThreads) {
    }

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.txn.RecoveryReplayDriver [options]",
            "  --mb N             MiB of log the child writes before it is killed (default 256)",
            "  --record-bytes N   key + payload bytes per upsert (default 200)",
            "  --writers N        writer threads in the child (default 2)",
            "  --child-heap-mb N  child JVM heap (default 1024)",
            "  --recovery-threads N  recovery-threads of the recovering engine (default 0: automatic)",
            "  --dir PATH         parent of the engine directories, kept (default: temporary, deleted)",
            "  --out FILE         also write the JSON report to FILE",
            "The parent JVM needs -XX:MaxDirectMemorySize of at least 4 x --mb + 256m (write memory for replay).");

    static final String DATASET = "bench";
    static final String READY = "READY";

    private RecoveryReplayDriver() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(Path.of(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            return;
        }
        int code = runCli(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    static int runCli(String[] args, PrintStream stdout, PrintStream stderr) throws Exception {
        return TxnBench.runCli(args, stdout, stderr, USAGE, RecoveryReplayDriver::parse, RecoveryReplayDriver::run, RecoveryReplayDriver::table, Config::out);
    }

    static Config parse(String[] args) {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null) {
            return null;
        }
        long mib = TxnBench.size(m.remove("mb"), 256);
        long record = TxnBench.size(m.remove("record-bytes"), 200);
        long writers = TxnBench.size(m.remove("writers"), 2);
        long heap = TxnBench.size(m.remove("child-heap-mb"), 1024);
        long recoveryThreads = TxnBench.size(m.remove("recovery-threads"), 0);
        String dir = m.remove("dir");
        String out = m.remove("out");
        TxnBench.rejectUnknown(m);
        if (mib < 1 || record < 16 || record > 8192 || writers < 1 || heap < 64) {
            throw new IllegalArgumentException("need --mb >= 1, 16 <= --record-bytes <= 8192, --writers >= 1, --child-heap-mb >= 64");
        }
        return new Config(mib, (int) record, (int) writers, dir == null ? null : Path.of(dir),
                out == null ? null : Path.of(out), heap, (int) recoveryThreads);
    }

    /** Write memory large enough that {@code logMib} of small upserts never fill it (memory tables cost more than the log). */
    static long writeMemoryFor(long logMib) {
        return Math.max(64L << 20, logMib * 4 << 20);
    }

    /** The configuration of both the child and the recovering parent: nothing may flush. */
    static StorageConfig config(long logMib, Durability durability) {
        long writeMemory = writeMemoryFor(logMib);
        return StorageConfig.builder()
                .set(ConfigOptions.DURABILITY, durability)
                .set(ConfigOptions.WRITE_MEMORY, writeMemory)
                .set(ConfigOptions.TOTAL_MEMORY, writeMemory + (64L << 20))
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, writeMemory)
                .set(ConfigOptions.FLUSH_THRESHOLD, 1.0)
                .set(ConfigOptions.MAX_LOG_SIZE, Math.max(1L << 30, logMib * 4 << 20))
                .build();
    }

    static DatasetSpec spec() {
        return DatasetSpec.builder(DATASET).field("id", FieldType.INT64).field("payload", FieldType.BYTES)
                .primaryKey("id").build();
    }

    // ---------------------------------------------------------------- parent

    static Map<String, Object> run(Config c, PrintStream progress) throws Exception {
        Path base = c.dir() == null ? TxnBench.scratch(null, "recovery") : c.dir();
        Path crashed = base.resolve("crashed");
        Path clean = base.resolve("clean");
        StorageConfig config = config(c.mib(), Durability.SYNC).toBuilder()
                .set(ConfigOptions.RECOVERY_THREADS, c.recoveryThreads()).build();
        Map<String, Object> report = new LinkedHashMap<>();
        try {
            Map<String, Object> cfg = new LinkedHashMap<>();
            cfg.put("logMiB", c.mib());
            cfg.put("recordBytes", c.recordBytes());
            cfg.put("writers", c.writers());
            cfg.put("writeMemoryBytes", writeMemoryFor(c.mib()));
            cfg.put("childDurability", "ASYNC");
            cfg.put("dir", c.dir() == null ? "(temporary, deleted)" : base.toString());
            report.put("config", cfg);
            report.put("machineAtStart", TxnBench.machine());

            long[] child = runChildAndKill(c, crashed, progress);
            long childRecords = child[0];
            long childLogBytes = child[1];
            long childFlushes = child[2];

            // (1) bare log scan: read + checksum, no tree work; three times (the first one with a cold JIT)
            int maxRecord = LogOptions.fromConfig(config).maxRecordSize();
            AtomicLong scanned = new AtomicLong();
            ReplayResult bare = null;
            List<Double> bareSeconds = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long s0 = System.nanoTime();
                bare = new LogReader(RealFileSystem.withoutDirectIo(), crashed.resolve("log"), maxRecord,
                        new IoStatistics()).forEach(0, (lsn, payload) -> scanned.addAndGet(payload.remaining()));
                bareSeconds.add(TxnBench.round((System.nanoTime() - s0) / 1e9, 3));
            }
            double bareFirst = bareSeconds.get(0);
            double bareBest = bareSeconds.stream().mapToDouble(Double::doubleValue).min().orElseThrow();

            // (2) fixed cost of open: same dataset, closed cleanly, nothing to replay. Run first so that
            // class loading and JIT of the open path are not charged to replay.
            try (StorageEngine e = StorageEngine.open(clean, config)) {
                e.createDataset(spec());
            }
            long e0 = System.nanoTime();
            try (StorageEngine e = StorageEngine.open(clean, config)) {
                e.dataset(DATASET);
            }
            double emptyOpenSeconds = (System.nanoTime() - e0) / 1e9;
            // (3) recovery: open the killed engine
            long o0 = System.nanoTime();
            long cpu0 = processCpuNanos();
            Map<String, Object> recovered = new LinkedHashMap<>();
            double openSeconds;
            double openCpuSeconds;
            try (StorageEngine engine = StorageEngine.open(crashed, config)) {
                openSeconds = (System.nanoTime() - o0) / 1e9;
                openCpuSeconds = (processCpuNanos() - cpu0) / 1e9;
                EngineStatistics st = engine.statistics();
                long treeEntries = 0;
                long diskBytes = 0;
                long flushes = 0;
                for (TreeStatisticsSnapshot t : st.trees().values()) {
                    treeEntries += t.entriesWritten();
                    flushes += t.flushes();
                    for (long b : t.levelBytes()) {
                        diskBytes += b;
                    }
                }
                // IoPurpose.LOG also counts the trees' manifest reads (a few dozen bytes here)
                recovered.put("logPurposeBytesReadByOpen", st.io().bytesRead(IoPurpose.LOG));
                recovered.put("treeEntriesReplayed", treeEntries);
                recovered.put("treeDiskBytes", diskBytes);
                recovered.put("treeFlushesDuringOpen", flushes);
                Dataset ds = engine.dataset(DATASET);
                recovered.put("firstKeyPresent", ds.get(Key.of(0L)) != null);
                progress.printf("recovered in %.2f s; closing (flushes the replayed data, not timed)%n", openSeconds);
            }

            // closing the empty engine is included above but is tiny; note it in the report
            double net = Math.max(1e-6, openSeconds - emptyOpenSeconds);

            Map<String, Object> written = new LinkedHashMap<>();
            written.put("records", childRecords);
            written.put("logBytes", childLogBytes);
            written.put("treeFlushesInChild", childFlushes);
            report.put("written", written);
            Map<String, Object> bareScan = new LinkedHashMap<>();
            bareScan.put("records", bare.records());
            bareScan.put("bytes", bare.bytes());
            bareScan.put("secondsPerRun", bareSeconds);
            bareScan.put("mibPerSecondFirst", TxnBench.round(bare.bytes() / TxnBench.MIB / bareFirst, 1));
            bareScan.put("mibPerSecondBest", TxnBench.round(bare.bytes() / TxnBench.MIB / bareBest, 1));
            bareScan.put("stop", bare.stopReason().toString());
            report.put("bareLogScan", bareScan);
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("openSeconds", TxnBench.round(openSeconds, 3));
            rec.put("emptyOpenAndCloseSeconds", TxnBench.round(emptyOpenSeconds, 3));
            rec.put("openCpuSeconds", TxnBench.round(openCpuSeconds, 3));
            rec.put("replayMiBPerCpuSecond", TxnBench.round(childLogBytes / TxnBench.MIB / openCpuSeconds, 1));
            rec.put("recoveryThreads", c.recoveryThreads());
            rec.put("replayMiBPerSecondGross", TxnBench.round(childLogBytes / TxnBench.MIB / openSeconds, 1));
            rec.put("replayMiBPerSecondNet", TxnBench.round(childLogBytes / TxnBench.MIB / net, 1));
            rec.put("recordsPerSecondGross", TxnBench.round(childRecords / openSeconds, 0));
            rec.put("recordsPerSecondNet", TxnBench.round(childRecords / net, 0));
            rec.putAll(recovered);
            report.put("recovery", rec);
            report.put("machineAtEnd", TxnBench.machine());
            return report;
        } finally {
            if (c.dir() == null) {
                TxnBench.deleteTree(base);
            }
        }
    }

    /** Starts the child, waits for its READY line, kills it; returns {records, log bytes, tree flushes}. */
    static long[] runChildAndKill(Config c, Path dir, PrintStream progress) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx" + c.childHeapMib() + "m");
        cmd.add("-XX:MaxDirectMemorySize=" + (writeMemoryFor(c.mib()) + (512L << 20)));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RecoveryReplayDriver.class.getName());
        cmd.add("--child");
        cmd.add(dir.toString());
        cmd.add(Long.toString(c.mib() << 20));
        cmd.add(Integer.toString(c.recordBytes()));
        cmd.add(Integer.toString(c.writers()));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(READY)) {
                    String[] f = line.split(" ");
                    progress.println("child: " + line + "; killing it");
                    p.destroyForcibly();
                    if (!p.waitFor(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("child did not die");
                    }
                    return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
                }
                progress.println("child: " + line);
            }
            throw new IllegalStateException("child exited with " + p.waitFor() + " before it was ready");
        } finally {
            p.destroyForcibly();
        }
    }

    // ---------------------------------------------------------------- child

    /** Fills the log of a fresh engine in {@code dir}, prints {@code READY records logBytes flushes}, then waits to be killed. */
    static void child(Path dir, long targetLogBytes, int recordBytes, int writers) throws Exception {
        StorageEngine engine = StorageEngine.open(dir, config(targetLogBytes >> 20, Durability.ASYNC));
        Dataset ds = engine.createDataset(spec());
        AtomicLong nextKey = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            threads.add(new Thread(() -> {
                byte[] payload = new byte[recordBytes - Long.BYTES];
                try {
                    while (engine.statistics().log().appendedBytes() < targetLogBytes) {
                        for (int k = 0; k < 256; k++) {
                            long key = nextKey.getAndIncrement();
                            payload[0] = (byte) key;
                            ds.upsert(Tuple.of(key, payload));
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "writer-" + i));
        }
        long t0 = System.nanoTime();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("writer failed", failure.get());
        }
        LogStatistics s;
        while (true) { // ASYNC: wait for the flusher to write and fsync everything appended
            s = engine.statistics().log();
            if (s.writtenBytes() == s.appendedBytes()) {
                break;
            }
            Thread.sleep(5);
        }
        long flushes = 0;
        for (TreeStatisticsSnapshot t : engine.statistics().trees().values()) {
            flushes += t.flushes();
        }
        System.err.printf("child wrote %,d records, %,d log bytes in %.1f s%n", s.writtenRecords(), s.writtenBytes(),
                (System.nanoTime() - t0) / 1e9);
        System.out.println(READY + " " + s.writtenRecords() + " " + s.writtenBytes() + " " + flushes);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        Map<String, Object> w = (Map<String, Object>) report.get("written");
        Map<String, Object> b = (Map<String, Object>) report.get("bareLogScan");
        Map<String, Object> r = (Map<String, Object>) report.get("recovery");
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("log written by the killed child: %,d records, %.1f MiB (tree flushes: %s)%n",
                w.get("records"), ((Number) w.get("logBytes")).longValue() / TxnBench.MIB, w.get("treeFlushesInChild")));
        sb.append(String.format("bare LogReader scan:   %s s  %8.1f MiB/s first  %8.1f MiB/s best%n", b.get("secondsPerRun"),
                b.get("mibPerSecondFirst"), b.get("mibPerSecondBest")));
        sb.append(String.format("StorageEngine.open:    %8.3f s  %8.1f MiB/s gross  %8.1f MiB/s net  %,.0f records/s gross  %,.0f net%n",
                r.get("openSeconds"), r.get("replayMiBPerSecondGross"), r.get("replayMiBPerSecondNet"),
                r.get("recordsPerSecondGross"), r.get("recordsPerSecondNet")));
        sb.append(String.format("empty open+close:      %8.3f s%n", r.get("emptyOpenAndCloseSeconds")));
        sb.append(String.format("open CPU time:         %8.3f s  %8.1f MiB per CPU-second (all threads of this JVM)%n",
                r.get("openCpuSeconds"), r.get("replayMiBPerCpuSecond")));
        sb.append(String.format("checks: open read %,d log+manifest bytes, %,d tree entries, %d disk bytes in trees, first key present %s%n",
                r.get("logPurposeBytesReadByOpen"), r.get("treeEntriesReplayed"), r.get("treeDiskBytes"), r.get("firstKeyPresent")));
        return sb.toString();
    }

    /** CPU time of this JVM (every thread), which a loaded machine does not inflate as it does wall time. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
