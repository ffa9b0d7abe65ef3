package dev.breakwater.bench.ycsb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.ycsb.ExtendedWorkload.OpType;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.ZipfianGenerator;

/**
 * The extended YCSB driver of paper 000 §6.2 over Breakwater's public API.
 *
 * <p>What it measures: the throughput and per-operation latency (HdrHistogram, microseconds, from
 * the call to its return) of a mix of YCSB operations on {@code --datasets} datasets of YCSB
 * records (a string key and 10 byte fields of 100 bytes), each with a primary tree and
 * {@code --secondary-indexes} secondary indexes (index {@code i} on {@code field<i>}, whose values
 * follow a Zipfian over {@code --index-cardinality} values). Operations pick their dataset with the
 * {@code --hotspot x/y} distribution and their key with YCSB's scrambled Zipfian (or "latest" for
 * D); an update reads the record and rewrites one field, chosen with the same hotspot distribution
 * over the fields, in one transaction, so the engine deletes the old secondary entry of an indexed
 * field. It also reports the engine's statistics over the measured interval: bytes and pages read
 * and written by purpose, write amplification (bytes written by flushes and merges over bytes of
 * records written by the benchmark), write stalls, and the JVM's GC time.
 *
 * <p>How: a load phase inserts every record; the run phase runs {@code --threads} closed-loop
 * threads, first for {@code --warmup} seconds whose operations are not counted, then for
 * {@code --duration} seconds or {@code --operations} operations. A progress line goes to stderr
 * once a second. The result is printed and written as JSON ({@code --out}); with
 * {@code --sweep-write-memory} the whole thing runs once per value on fresh data and a PNG plot of
 * throughput and I/O per operation against write memory is written too.
 */
@Command(name = "extended-ycsb", mixinStandardHelpOptions = true,
        description = "Extended YCSB on Breakwater: many datasets, secondary indexes, hotspot writes.")
public final class ExtendedYcsb implements Callable<Integer> {

    @Option(names = "--dir", description = "Data directory (a fresh subdirectory per run). Default: a temp dir.")
    Path dir;
    @Option(names = "--workload", defaultValue = "WRITE_ONLY",
            description = "One of ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    ExtendedWorkload workload;
    @Option(names = "--write-ratio", defaultValue = "-1", description = "Fraction of operations that are updates, the rest "
            + "point reads (e.g. 0.3); replaces --workload's mix (paper 000 Figure 12). Default: the workload's mix.")
    double writeRatio;
    @Option(names = "--datasets", defaultValue = "1", description = "Number of datasets. Default: ${DEFAULT-VALUE}.")
    int datasets;
    @Option(names = "--records", defaultValue = "100000", description = "Records loaded per dataset. Default: ${DEFAULT-VALUE}.")
    long records;
    @Option(names = "--secondary-indexes", defaultValue = "0",
            description = "Secondary indexes per dataset, one per field (0..10). Default: ${DEFAULT-VALUE}.")
    int secondaryIndexes;
    @Option(names = "--index-cardinality", defaultValue = "100000",
            description = "Distinct values of an indexed field (Zipfian). Default: ${DEFAULT-VALUE}.")
    long indexCardinality;
    @Option(names = "--hotspot", defaultValue = "80/20",
            description = "x/y: x%% of operations go to y%% of the datasets (and of the fields for updates). Default: ${DEFAULT-VALUE}.")
    String hotspot;
    @Option(names = "--threads", defaultValue = "2", description = "Client threads. Default: ${DEFAULT-VALUE}.")
    int threads;
    @Option(names = "--duration", defaultValue = "30", description = "Measured seconds (unless --operations). Default: ${DEFAULT-VALUE}.")
    double duration;
    @Option(names = "--operations", defaultValue = "0", description = "Measured operations (overrides --duration when > 0).")
    long operations;
    @Option(names = "--max-seconds", defaultValue = "0",
            description = "With --operations: stop the measured phase after this many seconds even if fewer operations ran (0: no limit).")
    double maxSeconds;
    @Option(names = "--warmup", defaultValue = "5", description = "Seconds run before measuring, not counted. Default: ${DEFAULT-VALUE}.")
    double warmup;
    @Option(names = "--scan-length", defaultValue = "100", description = "Records per scan (E: uniform 1..this). Default: ${DEFAULT-VALUE}.")
    int scanLength;
    @Option(names = "--total-memory", defaultValue = "256m", description = "Engine total memory. Default: ${DEFAULT-VALUE}.")
    String totalMemory;
    @Option(names = "--write-memory", defaultValue = "64m", description = "Engine write memory. Default: ${DEFAULT-VALUE}.")
    String writeMemory;
    @Option(names = "--memory-component-size", description = "Active memory component size (default: min(32m, write memory / 2)).")
    String memoryComponentSize;
    @Option(names = "--max-log-size", description = "Engine max log size (default: engine default).")
    String maxLogSize;
    @Option(names = "--tuner", defaultValue = "off", description = "Memory tuner on or off. Off (the driver's default, "
            + "unlike the engine's) measures at the fixed split --write-memory; on lets the tuner move it (tune its cycles "
            + "with --engine-option tuner-period=MS etc.; the phase's cycles are in the JSON under engine.tuner). "
            + "Default: ${DEFAULT-VALUE}.")
    String tuner;
    @Option(names = "--reopen-after-load", description = "Load with the tuner off, close the engine, and reopen it with "
            + "the configuration asked for (tuner, tuner-seed) for the warm-up and the measured phase, so that the tuner "
            + "starts the run where it was told to, not where the write-only load pushed it. Default: one engine for both.")
    boolean reopenAfterLoad;
    @Option(names = "--engine-option", description = "Any engine option as name=value (repeatable), e.g. target-sstable-size=2MB.")
    List<String> engineOptions = new ArrayList<>();
    @Option(names = "--write-memory-scheme", description = "PARTITIONED, DYNAMIC or STATIC (default: engine default).")
    WriteMemoryScheme writeMemoryScheme;
    @Option(names = "--flush-policy", description = "MAX_MEMORY, MIN_LSN or OPTIMAL (default: engine default).")
    FlushPolicyKind flushPolicy;
    @Option(names = "--static-active-datasets", description = "D for the STATIC scheme (default: engine default).")
    Integer staticActiveDatasets;
    @Option(names = "--durability", defaultValue = "ASYNC", description = "SYNC or ASYNC. Default: ${DEFAULT-VALUE}.")
    Durability durability;
    @Option(names = "--direct-io", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Read disk components with direct I/O. Default: ${DEFAULT-VALUE}.")
    boolean directIo;
    @Option(names = "--sweep-write-memory", split = ",",
            description = "Run once per write-memory value (e.g. 32m,64m,128m) and plot the results.")
    List<String> sweepWriteMemory;
    @Option(names = "--out", description = "JSON result file.")
    Path out;
    @Option(names = "--plot", description = "PNG plot for a sweep (default: next to --out, or ycsb-sweep.png).")
    Path plot;
    @Option(names = "--seed", defaultValue = "42", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;
    @Option(names = "--keep-data", description = "Keep the data directory after the run.")
    boolean keepData;
    @Option(names = "--data", description = "Use exactly this data directory instead of a fresh one under --dir; it is "
            + "kept after the run. With --load-only or --no-load: load once, copy, run each copy (every run starts from "
            + "the same data).")
    Path data;
    @Option(names = "--load-only", description = "Load into --data with the tuner off, flush, wait for merges and close: "
            + "no run phase.")
    boolean loadOnly;
    @Option(names = "--no-load", description = "Open --data as a --load-only run left it and run without loading.")
    boolean noLoad;
    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;
    @Option(names = "--tree-series-millis", defaultValue = "0",
            description = "Record a per-tree time series of write memory, flushes and L0 every this many milliseconds of the "
                    + "warm-up and the measured phase, in the result's run.treeSeries (0: none). Default: ${DEFAULT-VALUE}.")
    long treeSeriesMillis;

    private final PrintStream err = System.err;
    /** The engine configuration of the current run (for the cost's weights). */
    private StorageConfig config;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        int code = new CommandLine(new ExtendedYcsb()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        System.exit(code);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        List<Map<String, Object>> results = new ArrayList<>();
        List<String> sweep = sweepWriteMemory == null || sweepWriteMemory.isEmpty() ? List.of(writeMemory) : sweepWriteMemory;
        for (String wm : sweep) {
            Map<String, Object> r = runOnce(Sizes.parse(wm));
            results.add(r);
            System.out.println(summaryLine(r));
        }
        Object json = results.size() == 1 ? results.get(0) : Map.of("sweep", "write-memory", "runs", results);
        String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json);
        if (out != null) {
            Files.writeString(out, text);
            err.println("wrote " + out);
        } else {
            System.out.println(text);
        }
        if (results.size() > 1) {
            Path png = plot != null ? plot
                    : out != null ? out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + ".png")
                    : Path.of("ycsb-sweep.png");
            plotSweep(results, png);
            err.println("wrote " + png);
        }
        return 0;
    }

    /** The last run's result, for tests. */
    Map<String, Object> lastResult;

    /**
     * Runs one configuration as given on the command line (at {@code --write-memory}; no sweep, no
     * file output) and returns its result map: what other drivers call to reuse this one.
     *
     * @param args the same options as the command line
     */
    public static Map<String, Object> runConfiguration(String... args) throws Exception {
        ExtendedYcsb y = new ExtendedYcsb();
        new CommandLine(y).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        y.validate();
        return y.runOnce(Sizes.parse(y.writeMemory));
    }

    private void validate() {
        if (datasets < 1 || records < 1 || threads < 1 || scanLength < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "datasets, records, threads and scan length must be positive");
        }
        if (secondaryIndexes < 0 || secondaryIndexes > YcsbRecords.FIELD_COUNT) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--secondary-indexes must be 0..10");
        }
        Hotspot.parse(hotspot, datasets);
        if ((loadOnly || noLoad) && data == null || loadOnly && noLoad || sweepWriteMemory != null && data != null) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--load-only and --no-load need --data, exclude each other, and --data excludes --sweep-write-memory");
        }
        if (writeRatio != -1 && (writeRatio < 0 || writeRatio > 1)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--write-ratio takes a fraction in [0, 1] (e.g. 0.3), not "
                    + writeRatio);
        }
    }

    // ------------------------------------------------------------------------------------ one run

    Map<String, Object> runOnce(long writeMemoryBytes) throws Exception {
        Path base = this.data != null ? null : dir != null ? dir : Files.createTempDirectory("extended-ycsb");
        Path data;
        if (this.data != null) {
            data = this.data;
            if (noLoad && !Files.isDirectory(data)) {
                throw new IllegalArgumentException("--no-load: no loaded data in " + data);
            }
            Files.createDirectories(data);
        } else {
            Files.createDirectories(base);
            data = Files.createTempDirectory(base, "run-");
        }
        StorageConfig config = engineConfig(writeMemoryBytes);
        this.config = config;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", workload.name());
        if (writeRatio >= 0) {
            result.put("writeRatio", writeRatio);
        }
        result.put("datasets", datasets);
        result.put("recordsPerDataset", records);
        result.put("secondaryIndexes", secondaryIndexes);
        result.put("hotspot", hotspot);
        result.put("threads", threads);
        result.put("config", config.toMap());
        try {
            if (loadOnly) {
                try (StorageEngine engine = StorageEngine.open(data, config.toBuilder().set(ConfigOptions.TUNER, false).build())) {
                    Map<String, Object> load = load(engine, new State(createDatasets(engine)));
                    engine.flushAndAwaitMerges();
                    result.put("load", load);
                }
            } else if (noLoad) {
                try (StorageEngine engine = StorageEngine.open(data, config)) {
                    result.put("run", run(engine, new State(openDatasets(engine))));
                }
            } else if (reopenAfterLoad) {
                try (StorageEngine engine = StorageEngine.open(data, config.toBuilder().set(ConfigOptions.TUNER, false).build())) {
                    result.put("load", load(engine, new State(createDatasets(engine))));
                }
                try (StorageEngine engine = StorageEngine.open(data, config)) {
                    result.put("run", run(engine, new State(openDatasets(engine))));
                }
            } else {
                try (StorageEngine engine = StorageEngine.open(data, config)) {
                    State state = new State(createDatasets(engine));
                    result.put("load", load(engine, state));
                    result.put("run", run(engine, state));
                }
            }
        } finally {
            if (!keepData && this.data == null) {
                deleteTree(data);
                if (dir == null) {
                    deleteTree(base);
                }
            }
        }
        lastResult = result;
        return result;
    }

    private StorageConfig engineConfig(long writeMemoryBytes) {
        long total = Sizes.parse(totalMemory);
        long component = memoryComponentSize != null ? Sizes.parse(memoryComponentSize)
                : Math.min(32L << 20, Math.max(64L << 10, writeMemoryBytes / 2));
        StorageConfig.Builder b = StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, total)
                .set(ConfigOptions.WRITE_MEMORY, writeMemoryBytes)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, component)
                .set(ConfigOptions.DURABILITY, durability)
                .set(ConfigOptions.DIRECT_IO, directIo)
                .set(ConfigOptions.TUNER, switch (tuner.trim().toLowerCase(java.util.Locale.ROOT)) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--tuner takes on or off, not '" + tuner + "'");
                });
        if (maxLogSize != null) {
            b.set(ConfigOptions.MAX_LOG_SIZE, Sizes.parse(maxLogSize));
        }
        if (writeMemoryScheme != null) {
            b.set(ConfigOptions.WRITE_MEMORY_SCHEME, writeMemoryScheme);
        }
        if (flushPolicy != null) {
            b.set(ConfigOptions.FLUSH_POLICY, flushPolicy);
        }
        if (staticActiveDatasets != null) {
            b.set(ConfigOptions.STATIC_ACTIVE_DATASETS, staticActiveDatasets);
        }
        for (String o : engineOptions) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--engine-option wants name=value, got '" + o + "'");
            }
            b.setText(o.substring(0, eq), o.substring(eq + 1));
        }
        return b.build();
    }

    private List<Dataset> createDatasets(StorageEngine engine) {
        List<Dataset> sets = new ArrayList<>();
        for (int d = 0; d < datasets; d++) {
            DatasetSpec.Builder b = DatasetSpec.builder(datasetName(d)).field(YcsbRecords.KEY_FIELD, FieldType.STRING);
            for (int f = 0; f < YcsbRecords.FIELD_COUNT; f++) {
                b.field(YcsbRecords.fieldName(f), FieldType.BYTES);
            }
            b.primaryKey(YcsbRecords.KEY_FIELD);
            for (int i = 0; i < secondaryIndexes; i++) {
                b.secondaryIndex("by_" + YcsbRecords.fieldName(i), YcsbRecords.fieldName(i));
            }
            sets.add(engine.createDataset(b.build()));
        }
        return sets;
    }

    private List<Dataset> openDatasets(StorageEngine engine) {
        List<Dataset> sets = new ArrayList<>();
        for (int d = 0; d < datasets; d++) {
            sets.add(engine.dataset(datasetName(d)));
        }
        return sets;
    }

    static String datasetName(int d) {
        return "usertable" + d;
    }

    /** Shared run state: datasets, their insert counters, and the measured-interval counters. */
    private final class State {
        final List<Dataset> sets;
        /** Next key number to insert, per dataset. */
        final AtomicLong[] nextInsert;
        /** Highest key number known inserted, per dataset (for reads of the latest records). */
        final AtomicLong[] maxInserted;
        final Map<OpType, Recorder> latency = new EnumMap<>(OpType.class);
        final Map<OpType, LongAdder> ok = new EnumMap<>(OpType.class);
        final Map<OpType, LongAdder> failed = new EnumMap<>(OpType.class);
        final Map<OpType, LongAdder> notFound = new EnumMap<>(OpType.class);
        final LongAdder bytesIngested = new LongAdder();
        final LongAdder scannedRecords = new LongAdder();
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

        State(List<Dataset> sets) {
            this.sets = sets;
            nextInsert = new AtomicLong[sets.size()];
            maxInserted = new AtomicLong[sets.size()];
            for (int i = 0; i < sets.size(); i++) {
                nextInsert[i] = new AtomicLong(records);
                maxInserted[i] = new AtomicLong(records - 1);
            }
            for (OpType t : OpType.values()) {
                latency.put(t, new Recorder(3));
                ok.put(t, new LongAdder());
                failed.put(t, new LongAdder());
                notFound.put(t, new LongAdder());
            }
        }

        void resetCounters() {
            for (OpType t : OpType.values()) {
                latency.get(t).reset();
                ok.get(t).reset();
                failed.get(t).reset();
                notFound.get(t).reset();
            }
            bytesIngested.reset();
            scannedRecords.reset();
        }

        long totalOps() {
            long s = 0;
            for (OpType t : OpType.values()) {
                s += ok.get(t).sum() + failed.get(t).sum() + notFound.get(t).sum();
            }
            return s;
        }
    }

    private Tuple newRecord(long keynum, SplittableRandom rnd, ZipfianGenerator fieldValues) {
        Object[] v = new Object[1 + YcsbRecords.FIELD_COUNT];
        v[0] = YcsbRecords.key(keynum);
        for (int f = 0; f < YcsbRecords.FIELD_COUNT; f++) {
            v[1 + f] = f < secondaryIndexes ? YcsbRecords.valueOf(fieldValues.nextValue()) : YcsbRecords.randomValue(rnd);
        }
        return Tuple.of(v);
    }

    private static long recordBytes(Tuple t) {
        return t.getString(0).length() + (long) YcsbRecords.FIELD_COUNT * YcsbRecords.FIELD_LENGTH;
    }

    // ------------------------------------------------------------------------------------ load

    private Map<String, Object> load(StorageEngine engine, State state) throws Exception {
        long total = records * datasets;
        AtomicLong next = new AtomicLong();
        Snapshot before = Snapshot.take(engine);
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long threadSeed = seed * 31 + t;
            workers.add(new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(threadSeed);
                ZipfianGenerator fieldValues = secondaryIndexes > 0 ? new ZipfianGenerator(indexCardinality) : null;
                try {
                    long i;
                    while ((i = next.getAndIncrement()) < total) {
                        int d = (int) (i / records);
                        Tuple rec = newRecord(i % records, rnd, fieldValues);
                        state.sets.get(d).upsert(rec);
                        state.bytesIngested.add(recordBytes(rec));
                    }
                } catch (Throwable e) {
                    state.errors.add(e);
                }
            }, "ycsb-load-" + t));
        }
        Progress progress = new Progress("load", () -> Math.min(next.get(), total), total, 0);
        workers.forEach(Thread::start);
        progress.start();
        for (Thread w : workers) {
            w.join();
        }
        progress.stop();
        double seconds = (System.nanoTime() - start) / 1e9;
        throwFirst(state);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("records", total);
        m.put("seconds", seconds);
        m.put("opsPerSecond", total / seconds);
        m.put("engine", Snapshot.take(engine).minus(before, state.bytesIngested.sum(), total, config));
        return m;
    }

    // ------------------------------------------------------------------------------------ run

    private static final int WARMUP = 0;
    private static final int MEASURED = 1;
    private static final int STOPPED = 2;

    private volatile int phase;

    private Map<String, Object> run(StorageEngine engine, State state) throws Exception {
        AtomicLong claimed = new AtomicLong();
        Hotspot datasetChooser = Hotspot.parse(hotspot, datasets);
        Hotspot fieldChooser = Hotspot.parse(hotspot, YcsbRecords.FIELD_COUNT);
        phase = warmup > 0 ? WARMUP : MEASURED;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long threadSeed = seed * 1_000_003 + t;
            workers.add(new Thread(() -> worker(engine, state, claimed, datasetChooser, fieldChooser, threadSeed), "ycsb-run-" + t));
        }
        TreeSeries series = treeSeriesMillis > 0 ? new TreeSeries(engine, treeSeriesMillis) : null;
        if (series != null) {
            series.start();
        }
        workers.forEach(Thread::start);
        if (warmup > 0) {
            Progress wp = new Progress("warm-up", state::totalOps, 0, warmup);
            wp.start();
            sleepSeconds(warmup);
            wp.stop();
        }
        // Start of the measured interval: forget warm-up counts and take the "before" snapshot.
        Snapshot before = Snapshot.take(engine);
        state.resetCounters();
        long start = System.nanoTime();
        phase = MEASURED;
        Progress progress = new Progress("run", state::totalOps, operations, operations > 0 ? 0 : duration);
        progress.start();
        if (operations > 0) {
            long end = maxSeconds > 0 ? start + (long) (maxSeconds * 1e9) : Long.MAX_VALUE;
            for (Thread w : workers) {
                while (w.isAlive() && System.nanoTime() < end) {
                    w.join(100);
                }
            }
        } else {
            long end = start + (long) (duration * 1e9);
            while (System.nanoTime() < end && state.errors.isEmpty()) {
                Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
            }
        }
        phase = STOPPED;
        for (Thread w : workers) {
            w.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        progress.stop();
        throwFirst(state);
        Snapshot after = Snapshot.take(engine);
        List<Map<String, Object>> seriesSamples = series == null ? null : series.stop();

        long total = 0;
        Map<String, Object> ops = new LinkedHashMap<>();
        for (OpType t : OpType.values()) {
            Histogram h = state.latency.get(t).getIntervalHistogram();
            long okCount = state.ok.get(t).sum();
            long failedCount = state.failed.get(t).sum();
            long nf = state.notFound.get(t).sum();
            if (okCount + failedCount + nf == 0) {
                continue;
            }
            total += okCount + failedCount + nf;
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("ok", okCount);
            o.put("notFound", nf);
            o.put("failed", failedCount);
            o.put("latencyMicros", percentiles(h));
            ops.put(t.name(), o);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("operations", total);
        m.put("seconds", seconds);
        m.put("opsPerSecond", total / seconds);
        m.put("scannedRecords", state.scannedRecords.sum());
        m.put("ops", ops);
        m.put("engine", after.minus(before, state.bytesIngested.sum(), total, config));
        if (seriesSamples != null) {
            m.put("treeSeriesWarmupSeconds", warmup);
            m.put("treeSeries", seriesSamples);
        }
        return m;
    }

    private void worker(StorageEngine engine, State state, AtomicLong claimed, Hotspot datasetChooser,
                        Hotspot fieldChooser, long threadSeed) {
        SplittableRandom rnd = new SplittableRandom(threadSeed);
        ScrambledZipfianGenerator keys = new ScrambledZipfianGenerator(0, records - 1);
        ZipfianGenerator recent = new ZipfianGenerator(records);
        ZipfianGenerator fieldValues = secondaryIndexes > 0 ? new ZipfianGenerator(indexCardinality) : null;
        try {
            while (true) {
                int p = phase;
                if (p == STOPPED || !state.errors.isEmpty()) {
                    return;
                }
                boolean measured = p == MEASURED;
                if (measured && operations > 0 && claimed.incrementAndGet() > operations) {
                    return;
                }
                int d = datasetChooser.next(rnd);
                Dataset ds = state.sets.get(d);
                OpType op = writeRatio >= 0 ? (rnd.nextDouble() < writeRatio ? OpType.UPDATE : OpType.READ)
                        : workload.pick(rnd.nextDouble());
                long keynum;
                if (workload.latest) {
                    long max = state.maxInserted[d].get();
                    keynum = Math.max(0, max - recent.nextValue());
                } else {
                    keynum = keys.nextValue();
                }
                long t0 = System.nanoTime();
                Outcome outcome = execute(engine, state, ds, d, op, keynum, rnd, fieldChooser, fieldValues);
                long micros = (System.nanoTime() - t0) / 1000;
                if (measured) {
                    state.latency.get(op).recordValue(Math.max(0, micros));
                    switch (outcome) {
                        case OK -> state.ok.get(op).increment();
                        case NOT_FOUND -> state.notFound.get(op).increment();
                        default -> state.failed.get(op).increment();
                    }
                }
            }
        } catch (Throwable e) {
            state.errors.add(e);
        }
    }

    private enum Outcome { OK, NOT_FOUND, FAILED }

    private Outcome execute(StorageEngine engine, State state, Dataset ds, int d, OpType op, long keynum,
                            SplittableRandom rnd, Hotspot fieldChooser, ZipfianGenerator fieldValues) {
        switch (op) {
            case READ:
                return ds.get(Key.of(YcsbRecords.key(keynum))) != null ? Outcome.OK : Outcome.NOT_FOUND;
            case UPDATE:
            case READ_MODIFY_WRITE: {
                int f = fieldChooser.next(rnd);
                byte[] value = f < secondaryIndexes ? YcsbRecords.valueOf(fieldValues.nextValue()) : YcsbRecords.randomValue(rnd);
                Key key = Key.of(YcsbRecords.key(keynum));
                boolean found = engine.callInTransaction(tx -> {
                    Tuple t = tx.get(ds, key);
                    if (t == null) {
                        return false;
                    }
                    tx.upsert(ds, t.with(1 + f, value));
                    return true;
                });
                if (found) {
                    state.bytesIngested.add(YcsbRecords.key(keynum).length() + (long) YcsbRecords.FIELD_COUNT * YcsbRecords.FIELD_LENGTH);
                }
                return found ? Outcome.OK : Outcome.NOT_FOUND;
            }
            case INSERT: {
                long k = state.nextInsert[d].getAndIncrement();
                Tuple rec = newRecord(k, rnd, fieldValues == null ? null : fieldValues);
                ds.insert(rec);
                state.maxInserted[d].accumulateAndGet(k, Math::max);
                state.bytesIngested.add(recordBytes(rec));
                return Outcome.OK;
            }
            case SCAN: {
                int len = workload.uniformScanLength() ? 1 + rnd.nextInt(scanLength) : scanLength;
                int n = 0;
                try (Cursor<Tuple> c = ds.scan(KeyRange.atLeast(Key.of(YcsbRecords.key(keynum))))) {
                    while (n < len && c.hasNext()) {
                        c.next();
                        n++;
                    }
                }
                state.scannedRecords.add(n);
                return n > 0 ? Outcome.OK : Outcome.NOT_FOUND;
            }
            default:
                return Outcome.FAILED;
        }
    }

    private static Map<String, Object> percentiles(Histogram h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("mean", h.getMean());
        m.put("p50", h.getValueAtPercentile(50));
        m.put("p95", h.getValueAtPercentile(95));
        m.put("p99", h.getValueAtPercentile(99));
        m.put("p99.9", h.getValueAtPercentile(99.9));
        m.put("max", h.getMaxValue());
        return m;
    }

    private static void throwFirst(State state) throws Exception {
        Throwable e = state.errors.peek();
        if (e instanceof Exception ex) {
            throw ex;
        }
        if (e instanceof Error er) {
            throw er;
        }
    }

    private static void sleepSeconds(double s) throws InterruptedException {
        Thread.sleep((long) (s * 1000));
    }

    // ------------------------------------------------------------------------------------ statistics

    /** Engine statistics, /proc/self/io and JVM GC counters at one instant. */
    record Snapshot(EngineStatistics engine, ProcIo procIo, long gcCount, long gcMillis, long nanos) {

        static Snapshot take(StorageEngine e) {
            long count = 0;
            long millis = 0;
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                count += Math.max(0, b.getCollectionCount());
                millis += Math.max(0, b.getCollectionTime());
            }
            return new Snapshot(e.statistics(), ProcIo.now(), count, millis, System.nanoTime());
        }

        /**
         * The deltas since {@code before} as a JSON-ready map; {@code ingested} bytes of records written,
         * {@code operations} client operations; {@code config} gives ω, γ and the page size of the cost.
         */
        Map<String, Object> minus(Snapshot before, long ingested, long operations, StorageConfig config) {
            IoStatisticsSnapshot io = engine.io().minus(before.engine.io());
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, Object> byPurpose = new LinkedHashMap<>();
            for (IoPurpose p : IoPurpose.values()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("bytesRead", io.bytesRead(p));
                x.put("pagesRead", io.pagesRead(p));
                x.put("bytesWritten", io.bytesWritten(p));
                x.put("pagesWritten", io.pagesWritten(p));
                byPurpose.put(p.name(), x);
            }
            m.put("io", byPurpose);
            long flushed = 0;
            long flushedForMemory = 0;
            long flushedForLog = 0;
            long flushes = 0;
            long merges = 0;
            long merged = 0;
            long mergeRead = 0;
            long writeStalls = 0;
            long writeStallNanos = 0;
            long flushStops = 0;
            long flushSlowdowns = 0;
            for (var e : engine.trees().entrySet()) {
                TreeStatisticsSnapshot now = e.getValue();
                TreeStatisticsSnapshot was = before.engine.trees().get(e.getKey());
                flushed += now.bytesFlushed() - (was == null ? 0 : was.bytesFlushed());
                flushedForMemory += now.bytesFlushedForMemory() - (was == null ? 0 : was.bytesFlushedForMemory());
                flushedForLog += now.bytesFlushedForLog() - (was == null ? 0 : was.bytesFlushedForLog());
                flushes += now.flushes() - (was == null ? 0 : was.flushes());
                merges += now.merges() - (was == null ? 0 : was.merges());
                merged += now.mergeBytesWritten() - (was == null ? 0 : was.mergeBytesWritten());
                mergeRead += now.mergeBytesRead() - (was == null ? 0 : was.mergeBytesRead());
                writeStalls += now.writeStalls() - (was == null ? 0 : was.writeStalls());
                writeStallNanos += now.writeStallNanos() - (was == null ? 0 : was.writeStallNanos());
                flushStops += now.flushStops() - (was == null ? 0 : was.flushStops());
                flushSlowdowns += now.flushSlowdowns() - (was == null ? 0 : was.flushSlowdowns());
            }
            Map<String, Object> perTree = new LinkedHashMap<>();
            for (var e : engine.trees().entrySet()) {
                TreeStatisticsSnapshot now = e.getValue();
                TreeStatisticsSnapshot was = before.engine.trees().get(e.getKey());
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("entriesWritten", now.entriesWritten() - (was == null ? 0 : was.entriesWritten()));
                t.put("flushes", now.flushes() - (was == null ? 0 : was.flushes()));
                t.put("bytesFlushed", now.bytesFlushed() - (was == null ? 0 : was.bytesFlushed()));
                t.put("bytesFlushedForMemory", now.bytesFlushedForMemory() - (was == null ? 0 : was.bytesFlushedForMemory()));
                t.put("bytesFlushedForLog", now.bytesFlushedForLog() - (was == null ? 0 : was.bytesFlushedForLog()));
                t.put("merges", now.merges() - (was == null ? 0 : was.merges()));
                t.put("mergeBytesWritten", now.mergeBytesWritten() - (was == null ? 0 : was.mergeBytesWritten()));
                t.put("mergeBytesWrittenByLevel", byLevel(now.mergeBytesWrittenByLevel(), was == null ? List.of() : was.mergeBytesWrittenByLevel()));
                t.put("memorySeals", now.memorySeals() - (was == null ? 0 : was.memorySeals()));
                t.put("memorySealBytes", now.memorySealBytes() - (was == null ? 0 : was.memorySealBytes()));
                t.put("memoryMerges", now.memoryMerges() - (was == null ? 0 : was.memoryMerges()));
                t.put("memoryMergeBytes", now.memoryMergeBytes() - (was == null ? 0 : was.memoryMergeBytes()));
                t.put("l0Groups", now.l0Groups());
                t.put("levelTables", now.levelTables());
                t.put("levelBytes", now.levelBytes());
                t.put("memoryBytes", now.memoryBytes());
                perTree.put(e.getKey(), t);
            }
            m.put("trees", perTree);
            m.put("bytesIngested", ingested);
            m.put("bytesFlushed", flushed);
            m.put("bytesFlushedForMemory", flushedForMemory);
            m.put("bytesFlushedForLog", flushedForLog);
            m.put("flushes", flushes);
            m.put("merges", merges);
            m.put("mergeBytesWritten", merged);
            m.put("mergeBytesRead", mergeRead);
            m.put("writeAmplification", ingested == 0 ? 0.0 : (double) (flushed + merged) / ingested);
            // The cost the tuner minimizes, per client operation, as the TPC-C driver counts it per transaction:
            // pages written by flushes, merges and log trimming; pages read by queries and merges.
            long pageSize = config.get(ConfigOptions.PAGE_SIZE);
            double omega = config.get(ConfigOptions.TUNER_WRITE_WEIGHT);
            double gamma = config.get(ConfigOptions.TUNER_READ_WEIGHT);
            double packed = Math.max(0, engine.logPacker().bytesWritten() - before.engine.logPacker().bytesWritten());
            double pagesWritten = io.pagesWritten(IoPurpose.FLUSH) + io.pagesWritten(IoPurpose.MERGE) + packed / pageSize;
            double pagesRead = io.pagesRead(IoPurpose.QUERY) + io.pagesRead(IoPurpose.MERGE);
            long ops = Math.max(1, operations);
            m.put("pagesWrittenPerOp", pagesWritten / ops);
            m.put("pagesReadPerOp", pagesRead / ops);
            m.put("writeWeight", omega);
            m.put("readWeight", gamma);
            m.put("ioCostPerOp", (omega * pagesWritten + gamma * pagesRead) / ops);
            m.put("engineOperations", engine.operations().total() - before.engine.operations().total());
            m.put("logBytesWritten", io.bytesWritten(IoPurpose.LOG));
            m.put("bytesReadPerOp", operations == 0 ? 0.0 : (double) io.totalBytesRead() / operations);
            m.put("bytesWrittenPerOp", operations == 0 ? 0.0 : (double) io.totalBytesWritten() / operations);
            m.put("writeStalls", writeStalls);
            m.put("writeStallMillis", writeStallNanos / 1_000_000);
            m.put("flushSlowdowns", flushSlowdowns);
            m.put("flushStops", flushStops);
            m.put("bufferCache", engine.bufferCache().toString());
            m.put("writeMemoryUsed", engine.writeMemoryUsed());
            m.put("writeMemoryCapacity", engine.writeMemoryCapacity());
            var earlier = new java.util.HashSet<>(before.engine.tuner());
            m.put("tuner", engine.tuner().stream().filter(c -> !earlier.contains(c)).toList());
            ProcIo p = procIo.minus(before.procIo);
            m.put("procSelfIo", Map.of("readBytes", p.readBytes(), "writeBytes", p.writeBytes()));
            m.put("gcCount", gcCount - before.gcCount);
            m.put("gcMillis", gcMillis - before.gcMillis);
            return m;
        }
    }

    /** {@code now − was} per level, L0 first, as long as the longer list (a level missing from one counts 0). */
    static List<Long> byLevel(List<Long> now, List<Long> was) {
        List<Long> d = new ArrayList<>();
        for (int i = 0; i < Math.max(now.size(), was.size()); i++) {
            d.add((i < now.size() ? now.get(i) : 0L) - (i < was.size() ? was.get(i) : 0L));
        }
        return d;
    }

    @SuppressWarnings("unchecked")
    private static String summaryLine(Map<String, Object> r) {
        Map<String, Object> run = (Map<String, Object>) r.get("run");
        Map<String, Object> cfg = (Map<String, Object>) r.get("config");
        if (run == null) {
            Map<String, Object> load = (Map<String, Object>) r.get("load");
            return String.format("loaded %s records in %.1f s", load.get("records"), (Double) load.get("seconds"));
        }
        Map<String, Object> eng = (Map<String, Object>) run.get("engine");
        return String.format("%s write-memory=%s: %.0f ops/s, %.0f B read/op, %.0f B written/op, write amplification %.2f, stalls %s, gc %s ms",
                r.get("workload"), cfg.get("write-memory"), (Double) run.get("opsPerSecond"), (Double) eng.get("bytesReadPerOp"),
                (Double) eng.get("bytesWrittenPerOp"), (Double) eng.get("writeAmplification"), eng.get("writeStalls"), eng.get("gcMillis"));
    }

    @SuppressWarnings("unchecked")
    private static void plotSweep(List<Map<String, Object>> results, Path png) throws IOException {
        List<Double> x = new ArrayList<>();
        List<Double> tput = new ArrayList<>();
        List<Double> readPerOp = new ArrayList<>();
        List<Double> writePerOp = new ArrayList<>();
        for (Map<String, Object> r : results) {
            Map<String, Object> cfg = (Map<String, Object>) r.get("config");
            Map<String, Object> run = (Map<String, Object>) r.get("run");
            Map<String, Object> eng = (Map<String, Object>) run.get("engine");
            x.add(((Number) cfg.get("write-memory")).doubleValue() / (1 << 20));
            tput.add((Double) run.get("opsPerSecond"));
            readPerOp.add((Double) eng.get("bytesReadPerOp") / 1024);
            writePerOp.add((Double) eng.get("bytesWrittenPerOp") / 1024);
        }
        String title = results.get(0).get("workload") + ", " + results.get(0).get("datasets") + " dataset(s)";
        XYChart a = new XYChartBuilder().width(640).height(420).title("Throughput, " + title)
                .xAxisTitle("write memory (MiB)").yAxisTitle("ops/s").build();
        a.addSeries("ops/s", x, tput);
        XYChart b = new XYChartBuilder().width(640).height(420).title("I/O per operation, " + title)
                .xAxisTitle("write memory (MiB)").yAxisTitle("KiB per op").build();
        b.addSeries("read", x, readPerOp);
        b.addSeries("written", x, writePerOp);
        List<Chart<?, ?>> charts = List.of(a, b);
        String name = png.toString().endsWith(".png") ? png.toString().substring(0, png.toString().length() - 4) : png.toString();
        BitmapEncoder.saveBitmap(charts, 1, 2, name, BitmapEncoder.BitmapFormat.PNG);
    }

    public static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(x -> {
                try {
                    Files.deleteIfExists(x);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------------------------ progress

    /** Prints one line per second to stderr: phase, elapsed time, rate over the last second, total and ETA. */
    private final class Progress {
        private final String name;
        private final java.util.function.LongSupplier done;
        private final long targetOps;
        private final double targetSeconds;
        private Thread thread;
        private volatile boolean stop;

        Progress(String name, java.util.function.LongSupplier done, long targetOps, double targetSeconds) {
            this.name = name;
            this.done = done;
            this.targetOps = targetOps;
            this.targetSeconds = targetSeconds;
        }

        void start() {
            if (quiet) {
                return;
            }
            thread = new Thread(() -> {
                long start = System.nanoTime();
                long last = done.getAsLong();
                long lastT = start;
                while (!stop) {
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (stop) {
                        return;
                    }
                    long now = System.nanoTime();
                    long d = done.getAsLong();
                    double rate = (d - last) / ((now - lastT) / 1e9);
                    double elapsed = (now - start) / 1e9;
                    String eta;
                    if (targetOps > 0) {
                        eta = rate > 0 ? String.format("%.0fs", (targetOps - d) / rate) : "?";
                    } else if (targetSeconds > 0) {
                        eta = String.format("%.0fs", Math.max(0, targetSeconds - elapsed));
                    } else {
                        eta = "?";
                    }
                    err.printf("[%s] %5.0fs  %,10.0f ops/s  %,12d ops  ETA %s%n", name, elapsed, rate, d, eta);
                    last = d;
                    lastT = now;
                }
            }, "ycsb-progress");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            stop = true;
            if (thread != null) {
                thread.interrupt();
                thread.join();
            }
        }
    }
}
