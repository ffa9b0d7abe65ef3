package dev.breakwater.bench.txn;

import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.txn.log.LogManager;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.LogStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures how fast the transaction log can write when it is bandwidth-bound rather than
 * fsync-bound, and compares it with plain sequential writes plus fsync to the same disk.
 *
 * <p>{@code log}: a {@link LogManager} with {@code ASYNC} durability ({@code --segment-size}
 * segments, default 4 MiB log buffers) gets {@code --record-bytes} payloads (default 64 KiB) from
 * {@code --appenders} threads for {@code --seconds}; then the driver waits until everything
 * appended is durable ({@code awaitDurable} of the last LSN). Reported: bytes written (headers
 * included) over the time from the first append to that point, i.e. MB/s written <em>and</em>
 * fsynced, plus the batches, fsyncs, mean fsync time and appends that waited for buffer space.
 *
 * <p>Baselines, through {@link RealFileSystem} into files of the same segment size (new file,
 * directory fsync, as the log does), for {@code --seconds} each:
 * <ul>
 *   <li>{@code buffered-fsync-per-chunk}: buffered positional writes of {@code --chunk} bytes
 *       (default 4 MiB, the log buffer size), an fsync after each: the log flusher's I/O pattern
 *       with nothing else in the way.</li>
 *   <li>{@code buffered-fsync-per-file}: the same writes, one fsync per segment file (streaming).</li>
 *   <li>{@code direct-fsync-per-file}: O_DIRECT writes of {@code --chunk} bytes, one fsync per file
 *       (the NOTES.md "sequential direct write" figure).</li>
 * </ul>
 * The log's segment files are buffered (not O_DIRECT), so the first baseline is the fair ceiling.
 * Files are deleted after each phase.
 */
public final class LogAppendBandwidth {

    record Config(double seconds, int recordBytes, int appenders, long segmentSize, int chunkBytes, Path dir, Path out,
                  List<String> phases) {
    }

    static final List<String> ALL_PHASES = List.of("log", "buffered-fsync-per-chunk", "buffered-fsync-per-file",
            "direct-fsync-per-file");

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.txn.LogAppendBandwidth [options]",
            "  --seconds S         seconds per phase (default 10)",
            "  --record-bytes N    log payload size (default 64k)",
            "  --appenders N       appending threads (default 1)",
            "  --segment-size N    log segment / baseline file size (default 64m)",
            "  --chunk N           baseline write size (default 4m = the log buffer size)",
            "  --phases LIST       " + String.join(",", ALL_PHASES) + " (default all)",
            "  --dir PATH          parent of the scratch directories (default: temporary); files are deleted",
            "  --out FILE          also write the JSON report to FILE");

    private LogAppendBandwidth() {
    }

    public static void main(String[] args) throws Exception {
        int code = runCli(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    static int runCli(String[] args, PrintStream stdout, PrintStream stderr) throws Exception {
        return TxnBench.runCli(args, stdout, stderr, USAGE, LogAppendBandwidth::parse, LogAppendBandwidth::run, LogAppendBandwidth::table, Config::out);
    }

    static Config parse(String[] args) {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null) {
            return null;
        }
        double seconds = TxnBench.seconds(m.remove("seconds"), 10);
        long record = TxnBench.size(m.remove("record-bytes"), 64 << 10);
        long appenders = TxnBench.size(m.remove("appenders"), 1);
        long segment = TxnBench.size(m.remove("segment-size"), 64L << 20);
        long chunk = TxnBench.size(m.remove("chunk"), LogOptions.DEFAULT_BUFFER_SIZE);
        List<String> phases = TxnBench.stringList(m.remove("phases"), ALL_PHASES);
        String dir = m.remove("dir");
        String out = m.remove("out");
        TxnBench.rejectUnknown(m);
        if (seconds <= 0 || record < 1 || record > LogOptions.DEFAULT_MAX_RECORD_SIZE || appenders < 1
                || chunk < 4096 || chunk % 4096 != 0 || chunk > Integer.MAX_VALUE || segment < chunk || segment % chunk != 0) {
            throw new IllegalArgumentException("need --seconds > 0, 1 <= --record-bytes <= 1m, --appenders >= 1, "
                    + "--chunk a multiple of 4k, --segment-size a multiple of --chunk");
        }
        for (String p : phases) {
            if (!ALL_PHASES.contains(p)) {
                throw new IllegalArgumentException("unknown phase '" + p + "'");
            }
        }
        return new Config(seconds, (int) record, (int) appenders, segment, (int) chunk, dir == null ? null : Path.of(dir),
                out == null ? null : Path.of(out), phases);
    }

    static Map<String, Object> run(Config c, PrintStream progress) throws Exception {
        Map<String, Object> report = new LinkedHashMap<>();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("seconds", c.seconds());
        config.put("recordBytes", c.recordBytes());
        config.put("appenders", c.appenders());
        config.put("segmentBytes", c.segmentSize());
        config.put("chunkBytes", c.chunkBytes());
        config.put("logBufferBytes", LogOptions.DEFAULT_BUFFER_SIZE);
        config.put("dir", c.dir() == null ? "(temporary)" : c.dir().toString());
        report.put("config", config);
        report.put("machineAtStart", TxnBench.machine());
        List<Map<String, Object>> results = new ArrayList<>();
        for (String phase : c.phases()) {
            Path dir = TxnBench.scratch(c.dir(), phase);
            try {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("phase", phase);
                r.putAll(phase.equals("log") ? logPhase(c, dir) : baseline(c, dir, phase));
                results.add(r);
                progress.printf("%s: %.0f MiB/s (%,d bytes in %.2f s)%n", phase, (double) r.get("mibPerSecond"),
                        (long) r.get("bytes"), (double) r.get("seconds"));
            } finally {
                TxnBench.deleteTree(dir);
            }
        }
        report.put("results", results);
        report.put("machineAtEnd", TxnBench.machine());
        return report;
    }

    static Map<String, Object> logPhase(Config c, Path dir) throws Exception {
        LogOptions options = LogOptions.of(c.segmentSize(), Durability.ASYNC);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Map<String, Object> r = new LinkedHashMap<>();
        try (LogManager log = LogManager.open(RealFileSystem.create(), dir.resolve("log"), options, new IoStatistics())) {
            AtomicLong lastLsn = new AtomicLong(-1);
            long deadline = System.nanoTime() + (long) (c.seconds() * 1e9);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < c.appenders(); i++) {
                byte[] payload = new byte[c.recordBytes()];
                payload[0] = (byte) i;
                threads.add(new Thread(() -> {
                    try {
                        long lsn = -1;
                        while (System.nanoTime() < deadline) {
                            lsn = log.append(payload);
                        }
                        long mine = lsn;
                        lastLsn.accumulateAndGet(mine, Math::max);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "appender-" + i));
            }
            long t0 = System.nanoTime();
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            long appendedEnd = System.nanoTime();
            if (failure.get() != null) {
                throw new IllegalStateException("an appender failed", failure.get());
            }
            if (lastLsn.get() >= 0) {
                log.awaitDurable(lastLsn.get());
            }
            long t1 = System.nanoTime();
            LogStatistics s = log.statistics();
            double seconds = (t1 - t0) / 1e9;
            r.put("bytes", s.writtenBytes());
            r.put("seconds", TxnBench.round(seconds, 3));
            r.put("mibPerSecond", TxnBench.round(s.writtenBytes() / TxnBench.MIB / seconds, 1));
            r.put("appendSeconds", TxnBench.round((appendedEnd - t0) / 1e9, 3));
            r.put("drainSeconds", TxnBench.round((t1 - appendedEnd) / 1e9, 3));
            r.put("records", s.writtenRecords());
            r.put("batches", s.batches());
            r.put("meanBatchMiB", TxnBench.round(s.batches() == 0 ? 0 : s.writtenBytes() / TxnBench.MIB / s.batches(), 2));
            r.put("fsyncs", s.fsyncs());
            r.put("meanFsyncMicros", TxnBench.round(s.meanFsyncMicros(), 1));
            r.put("fsyncBusyFraction", TxnBench.round(s.fsyncNanos() / 1e9 / seconds, 3));
            r.put("segmentsCreated", s.segmentsCreated());
            r.put("bufferFullWaits", s.bufferFullWaits());
            r.put("appendsPerSecond", TxnBench.round(s.appendedRecords() / ((appendedEnd - t0) / 1e9), 1));
        }
        return r;
    }

    static Map<String, Object> baseline(Config c, Path dir, String phase) throws IOException {
        boolean direct = phase.startsWith("direct");
        boolean perChunk = phase.endsWith("per-chunk");
        FileSystem fs = direct ? RealFileSystem.create() : RealFileSystem.withoutDirectIo();
        // 4 KiB-aligned, as O_DIRECT needs (alignedSlice keeps at least chunkBytes of the extra-large buffer).
        ByteBuffer chunk = ByteBuffer.allocateDirect(c.chunkBytes() + 4096).alignedSlice(4096).limit(c.chunkBytes()).slice();
        for (int i = 0; i < c.chunkBytes(); i++) {
            chunk.put(i, (byte) (i * 31));
        }
        long deadline = System.nanoTime() + (long) (c.seconds() * 1e9);
        long bytes = 0;
        long fsyncs = 0;
        long fsyncNanos = 0;
        int files = 0;
        boolean reallyDirect = false;
        long t0 = System.nanoTime();
        outer:
        while (true) {
            Path path = dir.resolve(String.format("seg-%06d", files++));
            OpenOption[] opts = direct ? new OpenOption[] {OpenOption.CREATE_NEW, OpenOption.WRITE, OpenOption.DIRECT}
                    : new OpenOption[] {OpenOption.CREATE_NEW, OpenOption.WRITE};
            try (StorageFile f = fs.open(path, opts)) {
                reallyDirect = f.isDirect();
                fs.syncDirectory(dir);
                long pos = 0;
                while (pos < c.segmentSize()) {
                    chunk.clear();
                    f.write(pos, chunk);
                    pos += c.chunkBytes();
                    bytes += c.chunkBytes();
                    boolean last = pos >= c.segmentSize() || System.nanoTime() >= deadline;
                    if (perChunk || last) {
                        long s = System.nanoTime();
                        f.sync();
                        fsyncNanos += System.nanoTime() - s;
                        fsyncs++;
                    }
                    if (System.nanoTime() >= deadline) {
                        break outer;
                    }
                }
            }
            fs.delete(path); // keep disk use bounded; the file is complete and synced
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("bytes", bytes);
        r.put("seconds", TxnBench.round(seconds, 3));
        r.put("mibPerSecond", TxnBench.round(bytes / TxnBench.MIB / seconds, 1));
        r.put("files", files);
        r.put("fsyncs", fsyncs);
        r.put("meanFsyncMicros", TxnBench.round(fsyncs == 0 ? 0 : fsyncNanos / 1000.0 / fsyncs, 1));
        r.put("fsyncBusyFraction", TxnBench.round(fsyncNanos / 1e9 / seconds, 3));
        r.put("directIo", reallyDirect);
        return r;
    }

    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-26s %10s %10s %8s %12s %10s%n", "phase", "MiB/s", "MiB", "fsyncs", "fsync us", "busy"));
        for (Map<String, Object> r : (List<Map<String, Object>>) report.get("results")) {
            sb.append(String.format("%-26s %10.1f %10.0f %8d %12.1f %10.3f%n", r.get("phase"), r.get("mibPerSecond"),
                    ((Number) r.get("bytes")).longValue() / TxnBench.MIB, r.get("fsyncs"), r.get("meanFsyncMicros"),
                    r.get("fsyncBusyFraction")));
        }
        return sb.toString();
    }
}
