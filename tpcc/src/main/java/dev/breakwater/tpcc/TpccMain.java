package dev.breakwater.tpcc;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.Sizes;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.StorageEngine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line: loads (or reuses) a TPC-C database, runs the terminals, checks consistency and
 * reports. Exit code 0 on success, 1 if a consistency condition fails, 2 on a usage or set-up error.
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "tpcc", mixinStandardHelpOptions = true, sortOptions = false,
        description = "TPC-C on Breakwater: load, run the five transactions, check consistency, report.")
public final class TpccMain implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(TpccMain.class);

    @Option(names = "--warehouses", paramLabel = "W", description = "Warehouses (W). Default: ${DEFAULT-VALUE}.")
    int warehouses = 2;
    @Option(names = "--terminals", paramLabel = "T", description = "Terminals (threads). Default: 2 per warehouse.")
    Integer terminals;
    @Option(names = "--duration", paramLabel = "TIME", description = "Measured time, after the warm-up. Default: ${DEFAULT-VALUE}.")
    String durationText = "60s";
    @Option(names = "--transactions", paramLabel = "N", description = "Also end the measured phase once N transactions "
            + "have committed in it (checked once a second; --duration stays the limit), so that runs of different speed "
            + "do the same work on the same data growth. Default: no limit.")
    long transactions;

    @Option(names = "--warmup", paramLabel = "TIME", description = "Warm-up excluded from the figures. Default: ${DEFAULT-VALUE}.")
    String warmupText = "10s";
    @Option(names = "--warmup-transactions", paramLabel = "N", description = "Also end the warm-up once N transactions "
            + "have committed since the start (checked once a second; --warmup stays its limit), so that runs of different "
            + "speed exclude the same work, as paper 000 excludes the first half of each run. Default: no limit.")
    long warmupTransactions;
    @Option(names = "--memory", paramLabel = "SIZE", description = "Engine total memory (e.g. 1g). Default: the embedded default configuration.")
    String memory;
    @Option(names = "--write-memory", paramLabel = "SIZE", description = "Engine write memory (e.g. 256m). Default: the embedded default.")
    String writeMemory;
    @Option(names = "--memory-component-size", paramLabel = "SIZE", description = "Engine memory-component-size, the cap of "
            + "each tree's active component M0 (M0 = min(this, write memory / 8)). Fixed-split sweeps set it to compare splits "
            + "at the same M0 as a tuner run, whose M0 stays that of its initial split. Default: the harness's.")
    String memoryComponentSize;
    @Option(names = "--tuner", paramLabel = "on|off", description = "Memory tuner on (moves memory between write memory and "
            + "buffer cache) or off (fixed split: --write-memory). Default: ${DEFAULT-VALUE}.")
    String tuner = "on";
    @Option(names = "--tuner-period", paramLabel = "TIME", description = "Tuner timer between cycles when the log grows "
            + "slowly. Default: ${DEFAULT-VALUE} (runs here last minutes, not the hours the engine's 10 min timer is for).")
    String tunerPeriod = "10s";
    @Option(names = "--max-log", paramLabel = "SIZE", description = "Engine max-log-size: log-triggered flushes and tuning "
            + "cycles (e.g. 256m). Default: the engine's.")
    String maxLog;
    @Option(names = "--log-trim", paramLabel = "on|off", description = "Engine log-trim and log-compression (paper 002): "
            + "sealed log segments trimmed of what is on disk and LZ4-compressed, log-triggered flushes on the size on "
            + "disk. Default: the engine's (off).")
    String logTrim;
    @Option(names = "--io-weights", paramLabel = "W,R", description = "Tuner weights ω,γ of pages written and read "
            + "(2,1 for SSDs whose writes cost twice their reads). Default: the engine's (1,1).")
    String ioWeights;
    @Option(names = "--durability", paramLabel = "sync|async", description = "sync or async. Default: the embedded default (sync).")
    String durability;
    @Option(names = "--mix", paramLabel = "MIX", description = "standard (45/43/4/4/4) or read-mostly. Default: ${DEFAULT-VALUE}.")
    String mix = "standard";
    @Option(names = "--mix-switch-at", paramLabel = "TIME", description = "Switch the mix at this time from the start of the run (warm-up included).")
    String mixSwitchAt;
    @Option(names = "--mix-after", paramLabel = "MIX", description = "The mix after --mix-switch-at. Default: read-mostly.")
    String mixAfter = "read-mostly";
    @Option(names = "--think-times", description = "Wait the specification's keying and think times (off by default).")
    boolean thinkTimes;
    @Option(names = "--data", paramLabel = "DIR", description = "Data directory. Default: ${DEFAULT-VALUE}.")
    Path data = Path.of("tpcc-data");
    @Option(names = "--fresh", description = "Delete the data directory and load anew.")
    boolean fresh;
    @Option(names = "--load-only", description = "Load (or reuse), check consistency, and stop.")
    boolean loadOnly;
    @Option(names = "--no-load", description = "Require an already loaded data directory.")
    boolean noLoad;
    @Option(names = "--check-only", description = "Only check consistency of the existing data.")
    boolean checkOnly;
    @Option(names = "--load-threads", paramLabel = "N", description = "Loader threads. Default: available processors.")
    int loadThreads = Runtime.getRuntime().availableProcessors();
    @Option(names = "--out", paramLabel = "FILE", description = "Result JSON. Default: ${DEFAULT-VALUE}; the plot goes next to it (.png).")
    Path out = Path.of("tpcc-result.json");
    @Option(names = "--seed", paramLabel = "N", description = "Random seed. Default: time-based.")
    Long seed;
    @Option(names = "--engine-option", paramLabel = "NAME=VALUE", description = "Any engine option (docs/configuration.md), "
            + "repeatable, applied last, e.g. l0-merge-policy=BATCHED.")
    List<String> engineOptions = new java.util.ArrayList<>();

    private final PrintStream stdout;
    private final PrintStream stderr;
    private List<String> args = List.of();

    public TpccMain() {
        this(System.out, System.err);
    }

    TpccMain(PrintStream stdout, PrintStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line in this JVM; returns the exit code. */
    public static int execute(String... args) {
        TpccMain main = new TpccMain();
        main.args = List.of(args);
        return new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
    }

    @Override
    public Integer call() throws Exception {
        Duration duration = Durations.parse(durationText);
        Duration warmup = Durations.parse(warmupText);
        StorageConfig config = EngineConfigs.of(memory == null ? null : Sizes.parse(memory),
                writeMemory == null ? null : Sizes.parse(writeMemory),
                durability == null ? null : Durability.valueOf(durability.trim().toUpperCase(java.util.Locale.ROOT)));
        config = tunerOptions(config);
        long runSeed = seed != null ? seed : System.nanoTime();
        if (fresh) {
            deleteRecursively(data);
        }
        Integer setupError = prepare(config);
        if (setupError != null) {
            return setupError;
        }
        try (StorageEngine engine = StorageEngine.open(data, config)) {
            Tables tables = Tables.open(engine);
            MetaStore meta = new MetaStore(tables);
            if (loadOnly || checkOnly) {
                List<CheckResult> checks = new ConsistencyChecker(tables, warehouses).check(meta.get(MetaStore.RAN, 0) == 0);
                Reports.printChecks(stdout, checks);
                return checks.stream().allMatch(CheckResult::ok) ? 0 : 1;
            }
            meta.put(MetaStore.RAN, 1);
            RunOptions options = new RunOptions(warehouses, terminals != null ? terminals : 2 * warehouses, duration, warmup,
                    Mix.parse(mix), mixSwitchAt == null ? null : Durations.parse(mixSwitchAt),
                    mixSwitchAt == null ? null : Mix.parse(mixAfter), thinkTimes, runSeed, transactions, warmupTransactions);
            LOG.info("running {} terminal(s) for {} s after {} s warm-up, mix {}", options.terminals(),
                    duration.toSeconds(), warmup.toSeconds(), options.mix().label());
            DriverResult driven = new Driver(tables, options, (int) meta.get(MetaStore.C_LAST_LOAD, 0), stderr).run();
            LOG.info("checking consistency");
            List<CheckResult> checks = new ConsistencyChecker(tables, warehouses).check(false);
            RunResult result = Reports.result(args, config.toMap(), options, driven, checks);
            Reports.writeJson(out, result);
            Path png = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + ".png");
            try {
                Plots.write(png, result.samples(), "TPC-C W=" + warehouses + " T=" + options.terminals() + ", tuner "
                        + (config.get(ConfigOptions.TUNER) ? "on" : "off"));
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not write the plot {}: {}", png, e.toString());
            }
            Reports.printSummary(stdout, result);
            Reports.printChecks(stdout, checks);
            stdout.println("Result: " + out + " and " + png);
            return result.consistent() ? 0 : 1;
        }
    }

    /**
     * Applies {@code --tuner}, {@code --tuner-period}, {@code --max-log}, {@code --log-trim},
     * {@code --io-weights} and {@code --memory-component-size}.
     */
    private StorageConfig tunerOptions(StorageConfig config) {
        StorageConfig.Builder b = config.toBuilder();
        String t = tuner.trim().toLowerCase(java.util.Locale.ROOT);
        if (!t.equals("on") && !t.equals("off")) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--tuner takes on or off, not '" + tuner + "'");
        }
        b.set(ConfigOptions.TUNER, t.equals("on"));
        if (tunerPeriod != null) {
            b.set(ConfigOptions.TUNER_PERIOD, Durations.parse(tunerPeriod).toMillis());
        }
        if (maxLog != null) {
            long bytes = Sizes.parse(maxLog);
            b.set(ConfigOptions.MAX_LOG_SIZE, bytes);
            if (config.get(ConfigOptions.LOG_SEGMENT_SIZE) > bytes) {
                b.set(ConfigOptions.LOG_SEGMENT_SIZE, Math.max(1L << 20, bytes / 4));
            }
        }
        if (logTrim != null) {
            String v = logTrim.trim().toLowerCase(java.util.Locale.ROOT);
            if (!v.equals("on") && !v.equals("off")) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--log-trim takes on or off, not '" + logTrim + "'");
            }
            b.set(ConfigOptions.LOG_TRIM, v.equals("on")).set(ConfigOptions.LOG_COMPRESSION, v.equals("on"));
        }
        if (memoryComponentSize != null) {
            b.set(ConfigOptions.MEMORY_COMPONENT_SIZE, Sizes.parse(memoryComponentSize));
        }
        if (ioWeights != null) {
            String[] w = ioWeights.split(",");
            if (w.length != 2) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--io-weights takes W,R (e.g. 2,1), not '" + ioWeights + "'");
            }
            b.set(ConfigOptions.TUNER_WRITE_WEIGHT, Double.parseDouble(w[0].trim()));
            b.set(ConfigOptions.TUNER_READ_WEIGHT, Double.parseDouble(w[1].trim()));
        }
        for (String o : engineOptions) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--engine-option takes NAME=VALUE, not '" + o + "'");
            }
            b.setText(o.substring(0, eq).trim(), o.substring(eq + 1));
        }
        return b.build();
    }

    /**
     * Checks the data directory and loads it if needed. The load runs on an engine with ASYNC
     * durability (no fsync per batch) that is closed cleanly before the run reopens the directory
     * with the run's configuration: a clean close makes every loaded row durable, and the metadata
     * marks the load complete only at its end. Returns an exit code on a set-up error, else null.
     */
    private Integer prepare(StorageConfig config) throws InterruptedException {
        StorageConfig loadConfig = config.toBuilder()
                .set(dev.breakwater.common.config.ConfigOptions.DURABILITY, Durability.ASYNC).build();
        try (StorageEngine engine = StorageEngine.open(data, loadConfig)) {
            if (Tables.exist(engine)) {
                MetaStore meta = new MetaStore(Tables.open(engine));
                if (!meta.isLoaded()) {
                    stderr.println("error: " + data + " holds an incomplete load; run again with --fresh");
                    return 2;
                }
                int loaded = (int) meta.get(MetaStore.WAREHOUSES, 0);
                if (loaded != warehouses) {
                    stderr.println("error: " + data + " holds " + loaded + " warehouse(s), not " + warehouses
                            + "; pass --warehouses " + loaded + " or --fresh");
                    return 2;
                }
                LOG.info("reusing the TPC-C database in {} ({} warehouse(s))", data, loaded);
                return null;
            }
            if (noLoad || checkOnly) {
                stderr.println("error: " + data + " holds no TPC-C database; run without --no-load/--check-only to load one");
                return 2;
            }
            LOG.info("loading {} warehouse(s) into {} with {} thread(s)", warehouses, data, loadThreads);
            long t0 = System.nanoTime();
            new Loader(engine, warehouses, loadThreads, seed != null ? seed : System.nanoTime(), stderr).load();
            LOG.info("loaded in {} s", String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
            return null;
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
