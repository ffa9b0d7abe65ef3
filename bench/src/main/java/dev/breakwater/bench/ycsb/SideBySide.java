package dev.breakwater.bench.ycsb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the official YCSB client ({@link YcsbPhase}) against Breakwater ({@link BreakwaterDB}) and
 * RocksDB ({@link RocksDbDB}) on the same workload list, at the same memory budget, durability,
 * record size and direct-I/O setting, and prints a table of the two and their ratios.
 *
 * <p>What it measures, per engine, workload and repetition: the client's throughput of the run
 * phase (run time includes the binding's settling flush and merge/compaction wait at cleanup), the
 * client's p99 latency per operation, and bytes written per operation two ways: the delta of
 * {@code write_bytes} in {@code /proc/self/io} read just before and after the phase (process-wide:
 * every thread of this JVM counts) and the engine's own counters (Breakwater: bytes written by
 * flush, merge and log; RocksDB: flush, compaction and WAL bytes from its statistics), and the
 * JVM's GC time and count during the phase (read after the {@code System.gc()} that precedes each
 * phase, so that collection is not charged to the phase).
 *
 * <p>How: for each repetition and engine (engines alternate which goes first), a fresh directory is
 * loaded with the client's load phase, then the workloads run one after another on that data
 * ({@code --load-each} reloads before every workload). The table shows the median of the
 * repetitions and every value; it goes to stderr and to {@code --out} (Markdown), raw results to
 * {@code --json}.
 */
@Command(name = "side-by-side", mixinStandardHelpOptions = true,
        description = "Official YCSB client on Breakwater and RocksDB, side by side.")
public final class SideBySide implements Callable<Integer> {

    @Option(names = "--workloads", split = ",", defaultValue = "writeonly,a,b,c,f,d,e",
            description = "Workloads in order: writeonly, a..f. Default: ${DEFAULT-VALUE}.")
    List<String> workloads;
    @Option(names = "--engines", split = ",", defaultValue = "breakwater,rocksdb", description = "Default: ${DEFAULT-VALUE}.")
    List<String> engines;
    @Option(names = "--records", defaultValue = "100000", description = "Records loaded. Default: ${DEFAULT-VALUE}.")
    long records;
    @Option(names = "--operations", defaultValue = "100000", description = "Operations per run phase. Default: ${DEFAULT-VALUE}.")
    long operations;
    @Option(names = "--max-seconds", defaultValue = "0", description = "Stop a run phase after this long (0: no limit).")
    double maxSeconds;
    @Option(names = "--threads", defaultValue = "2", description = "Client threads. Default: ${DEFAULT-VALUE}.")
    int threads;
    @Option(names = "--memory", defaultValue = "256m", description = "Total storage memory of each engine. Default: ${DEFAULT-VALUE}.")
    String memory;
    @Option(names = "--write-memory", description = "Write memory / write buffers (default: a quarter of --memory).")
    String writeMemory;
    @Option(names = "--sync", description = "Sync every commit (Breakwater SYNC, RocksDB WAL sync); default: both asynchronous.")
    boolean sync;
    @Option(names = "--direct-io", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Direct I/O in both engines. Default: ${DEFAULT-VALUE}.")
    boolean directIo;
    @Option(names = "--dir", description = "Base data directory. Default: a temp dir.")
    Path dir;
    @Option(names = "--repetitions", defaultValue = "3", description = "Default: ${DEFAULT-VALUE}.")
    int repetitions;
    @Option(names = "--load-each", description = "Load fresh data before every workload.")
    boolean loadEach;
    @Option(names = "--keep-data", description = "Keep each engine's data directory after its last workload (for a later --no-load run).")
    boolean keepData;

    @Option(names = "--no-load", description = "Run the workloads on the data a --keep-data run left in --dir (same engines, "
            + "repetitions and records); splits a long comparison across several invocations, e.g. to bound each lock hold.")
    boolean noLoad;

    @Option(names = "--out", description = "Markdown table file.")
    Path out;
    @Option(names = "--json", description = "Raw results as JSON.")
    Path json;
    @Option(names = "--bw-option", description = "Breakwater engine option name=value (repeatable), e.g. l0-merge-policy=BATCHED.")
    Map<String, String> bwOptions = new LinkedHashMap<>();
    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    private final PrintStream err = System.err;
    /** Every measured run phase, in order. */
    final List<Row> rows = new ArrayList<>();

    /** One measured phase. */
    public record Row(String engine, String workload, int repetition, String phase, long operations, long millis,
                      double opsPerSecond, long procWriteBytes, long procReadBytes, long engineBytesWritten,
                      Map<String, Double> p99Micros, List<String> nonOk, Map<String, Long> engineBreakdown,
                      long gcMillis, long gcCount) {
    }

    /** Total collection time (ms) and count of every collector of this JVM so far. */
    static long[] gcTotals() {
        long ms = 0;
        long n = 0;
        for (var b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, b.getCollectionTime());
            n += Math.max(0, b.getCollectionCount());
        }
        return new long[] {ms, n};
    }

    public static void main(String[] args) {
        int code = new CommandLine(new SideBySide()).execute(args);
        System.exit(code);
    }

    @Override
    public Integer call() throws Exception {
        Path base = dir != null ? dir : Files.createTempDirectory("ycsb-side-by-side");
        Files.createDirectories(base);
        long total = Sizes.parse(memory);
        long write = writeMemory != null ? Sizes.parse(writeMemory) : total / 4;
        err.printf("breakwater options: %s%n", bwOptions);
        err.printf("side by side: %s, %,d records, %,d operations, %d threads, memory %s (write %s), %s, direct I/O %s%n",
                workloads, records, operations, threads, memory, Sizes.format(write), sync ? "synced commits" : "async commits",
                directIo);
        for (int rep = 1; rep <= repetitions; rep++) {
            List<String> order = new ArrayList<>(engines);
            if (rep % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (String engine : order) {
                Path data = base.resolve(engine + "-rep" + rep);
                if (noLoad) {
                    if (!Files.isDirectory(data) || loadEach) {
                        throw new IllegalArgumentException("--no-load needs the data of a --keep-data run in " + data
                                + " and cannot be combined with --load-each");
                    }
                } else {
                    ExtendedYcsb.deleteTree(data);
                }
                if (!loadEach && !noLoad) {
                    load(engine, data, total, write, rep);
                }
                for (String w : workloads) {
                    if (loadEach) {
                        ExtendedYcsb.deleteTree(data);
                        load(engine, data, total, write, rep);
                    }
                    rows.add(phase(engine, w, data, total, write, rep, true));
                    Row r = rows.get(rows.size() - 1);
                    err.printf("%s %s rep %d: %,.0f ops/s, %,.0f B written/op (/proc), %,.0f B/op (engine)%s%n", engine, w, rep,
                            r.opsPerSecond(), (double) r.procWriteBytes() / r.operations(),
                            (double) r.engineBytesWritten() / r.operations(), r.nonOk().isEmpty() ? "" : " non-OK: " + r.nonOk());
                    err.printf("  %s%n", r.engineBreakdown());
                    writeJson(); // after every phase: a run stopped early keeps what it measured
                }
                if (!keepData) {
                    ExtendedYcsb.deleteTree(data);
                }
            }
        }
        String table = table();
        err.println();
        err.println(table);
        if (out != null) {
            Files.writeString(out, table);
        }
        writeJson();
        return 0;
    }

    private void writeJson() throws java.io.IOException {
        if (json != null) {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), rows);
        }
    }

    private void load(String engine, Path data, long total, long write, int rep) throws Exception {
        Files.createDirectories(data);
        Row r = phase(engine, "load", data, total, write, rep, false);
        rows.add(r);
        writeJson();
        err.printf("%s load rep %d: %,.0f ops/s, %,.0f B written/op (/proc), %,.0f B/op (engine), GC %d ms in %d collections "
                + "(%.2f%% of the phase)%s%n  %s%n", engine, rep,
                r.opsPerSecond(), (double) r.procWriteBytes() / r.operations(), (double) r.engineBytesWritten() / r.operations(),
                r.gcMillis(), r.gcCount(), 100.0 * r.gcMillis() / r.millis(),
                r.nonOk().isEmpty() ? "" : " non-OK: " + r.nonOk(), r.engineBreakdown());
    }

    /** Properties of {@code engine} for a phase on {@code data}. */
    Properties properties(String engine, String workload, Path data, long total, long write) throws Exception {
        Properties p = YcsbPhase.workload(workload.equals("load") ? "workloada" : workloadFile(workload));
        p.setProperty("recordcount", Long.toString(records));
        p.setProperty("operationcount", Long.toString(operations));
        p.setProperty("threadcount", Integer.toString(threads));
        switch (engine) {
            case "breakwater" -> {
                p.setProperty("db", BreakwaterDB.class.getName());
                p.setProperty("breakwater.dir", data.toString());
                p.setProperty("breakwater.memory", Long.toString(total));
                p.setProperty("breakwater.writememory", Long.toString(write));
                p.setProperty("breakwater.durability", sync ? "SYNC" : "ASYNC");
                p.setProperty("breakwater.directio", Boolean.toString(directIo));
                bwOptions.forEach((k, v) -> p.setProperty("breakwater.option." + k, v));
            }
            case "rocksdb" -> {
                p.setProperty("db", RocksDbDB.class.getName());
                p.setProperty("rocksdb.dir", data.toString());
                p.setProperty("rocksdb.memory", Long.toString(total));
                p.setProperty("rocksdb.writememory", Long.toString(write));
                p.setProperty("rocksdb.sync", Boolean.toString(sync));
                p.setProperty("rocksdb.directio", Boolean.toString(directIo));
            }
            default -> throw new IllegalArgumentException("unknown engine " + engine + " (breakwater, rocksdb)");
        }
        return p;
    }

    static String workloadFile(String w) {
        String s = w.toLowerCase(Locale.ROOT);
        if (s.equals("writeonly") || s.equals("write-only")) {
            return "workload_writeonly";
        }
        return s.startsWith("workload") ? s : "workload" + s;
    }

    private Row phase(String engine, String workload, Path data, long total, long write, int rep, boolean transactions)
            throws Exception {
        Properties p = properties(engine, workload, data, total, write);
        System.gc();
        // Read after the System.gc() above, so the phase's GC figures hold only collections during the phase.
        long[] gcBefore = gcTotals();
        ProcIo before = ProcIo.now();
        YcsbPhase.Result r = YcsbPhase.run(p, transactions, transactions ? maxSeconds : 0, quiet ? null : err);
        ProcIo io = ProcIo.now().minus(before);
        long[] gcAfter = gcTotals();
        long engineBytes = engine.equals("breakwater")
                ? BreakwaterDB.lastPhase().totalBytesWritten()
                : RocksDbDB.lastPhase().totalBytesWritten();
        Map<String, Long> breakdown = engine.equals("breakwater")
                ? BreakwaterDB.lastPhase().breakdown()
                : RocksDbDB.lastPhase().breakdown();
        Map<String, Double> p99 = new LinkedHashMap<>();
        for (String op : r.metrics().keySet()) {
            double v = r.metric(op, "99thPercentileLatency(us)");
            if (!Double.isNaN(v) && !op.startsWith("CLEANUP") && !op.equals("OVERALL")) {
                p99.put(op, v);
            }
        }
        return new Row(engine, workload, rep, transactions ? "run" : "load", r.operations(), r.millis(), r.opsPerSecond(),
                io.writeBytes(), io.readBytes(), engineBytes, p99, r.nonOkReturns(), breakdown,
                gcAfter[0] - gcBefore[0], gcAfter[1] - gcBefore[1]);
    }

    // ------------------------------------------------------------------------------------ table

    /** Issue 13's throughput targets, Breakwater ÷ RocksDB (issue 6 had E ≥ 0.8 and no load target). */
    private static final Map<String, Double> THROUGHPUT_TARGETS = Map.of("load", 1.0, "writeonly", 1.2, "a", 1.0, "c", 0.9, "e", 1.0);

    private List<Row> select(String engine, String workload) {
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (r.engine().equals(engine) && r.workload().equals(workload)) {
                out.add(r);
            }
        }
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The Markdown table: medians over repetitions, every repetition's ops/s, ratios and targets. */
    String table() {
        if (engines.size() < 2) {
            return singleTable();
        }
        // Ratios are always Breakwater ÷ RocksDB (the targets are stated that way), whichever engine ran first.
        boolean both = engines.contains("breakwater") && engines.contains("rocksdb");
        String a = both ? "breakwater" : engines.get(0);
        String b = both ? "rocksdb" : engines.get(1);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("| workload | %s ops/s (median; runs) | %s ops/s (median; runs) | ratio | target | "
                + "%s B written/op /proc, engine | %s B written/op /proc, engine | ratio /proc, engine |%n", a, b, a, b));
        sb.append("|---|---|---|---|---|---|---|---|\n");
        List<String> names = new ArrayList<>();
        names.add("load");
        names.addAll(workloads);
        for (String w : names) {
            List<Row> ra = select(a, w);
            List<Row> rb = select(b, w);
            if (ra.isEmpty() || rb.isEmpty()) {
                continue;
            }
            double ta = median(ra.stream().mapToDouble(Row::opsPerSecond).toArray());
            double tb = median(rb.stream().mapToDouble(Row::opsPerSecond).toArray());
            double pa = median(ra.stream().mapToDouble(r -> (double) r.procWriteBytes() / r.operations()).toArray());
            double pb = median(rb.stream().mapToDouble(r -> (double) r.procWriteBytes() / r.operations()).toArray());
            double ea = median(ra.stream().mapToDouble(r -> (double) r.engineBytesWritten() / r.operations()).toArray());
            double eb = median(rb.stream().mapToDouble(r -> (double) r.engineBytesWritten() / r.operations()).toArray());
            Double target = THROUGHPUT_TARGETS.get(w.toLowerCase(Locale.ROOT));
            String writeTarget = w.equalsIgnoreCase("writeonly") ? " (target ≤ 0.70)" : "";
            sb.append(String.format("| %s | %,.0f; %s | %,.0f; %s | %.2f | %s | %,.0f, %,.0f | %,.0f, %,.0f | %.2f, %.2f%s |%n",
                    w, ta, runs(ra), tb, runs(rb), ta / tb, target == null ? "" : String.format("≥ %.1f %s", target,
                            ta / tb >= target ? "met" : "missed"),
                    pa, ea, pb, eb, pa / pb, ea / eb, writeTarget));
        }
        return sb.toString();
    }

    private static String runs(List<Row> rs) {
        StringBuilder sb = new StringBuilder();
        for (Row r : rs) {
            sb.append(sb.length() == 0 ? "" : " / ").append(String.format("%,.0f", r.opsPerSecond()));
        }
        return sb.toString();
    }

    private String singleTable() {
        StringBuilder sb = new StringBuilder("| engine | workload | rep | ops/s | B written/op /proc | B written/op engine |\n|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append(String.format("| %s | %s | %d | %,.0f | %,.0f | %,.0f |%n", r.engine(), r.workload(), r.repetition(),
                    r.opsPerSecond(), (double) r.procWriteBytes() / r.operations(), (double) r.engineBytesWritten() / r.operations()));
        }
        return sb.toString();
    }
}
