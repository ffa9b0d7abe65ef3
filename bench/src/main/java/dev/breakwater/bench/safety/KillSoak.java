package dev.breakwater.bench.safety;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.txn.CrashCheck;
import dev.breakwater.txn.CrashModel;
import dev.breakwater.txn.CrashWorkload;
import dev.breakwater.txn.StorageEngine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The SIGKILL soak: runs many kill/recover cycles of a child JVM running {@link CrashWorkload}
 * (multi-dataset transactions with a secondary index, SYNC commits) and checks after every recovery
 * that no acknowledged commit was lost, nothing phantom or partial appeared and the secondary index
 * equals its primary ({@link CrashCheck}, the same workload and checker as {@code KillRecoverTest}).
 *
 * <p>Each cycle picks where to kill: during open (after the child prints {@code OPENING}: recovery
 * of the previous kill), during work (after {@code READY}), or during close (the child is told to
 * close after a random time, and killed a random moment after {@code CLOSING}); the delays are random,
 * so some kills land a phase later or after the child exited (counted separately). The parent then
 * opens the directory itself (recovery), checks it against the model of acknowledged commits, and
 * closes it. Every {@code --fresh-every} cycles it starts a new directory, so the check time stays
 * bounded; a directory with any damage is kept (and the next cycle starts a new one, so one piece of
 * damage is counted once); a directory that cannot be opened stops the soak.
 *
 * <p>Prints progress with rate and ETA, and a JSON result (also to {@code --out}). Exit code 0 when
 * every count is zero, 1 when anything was found, 2 for bad options.
 */
public final class KillSoak {

    static final String USAGE = String.join("\n",
            "usage: java $(cat bin/jvm-options) -cp bench/target/benchmarks.jar dev.breakwater.bench.safety.KillSoak [options]",
            "  --cycles N        kill/recover cycles (default 1000)",
            "  --seed N          random seed of kill points (default 1)",
            "  --work-ms N       longest time a child works before it is killed or closes (default 1000)",
            "  --fresh-every N   start a new engine directory every N cycles, 0 = never (default 100)",
            "  --dir PATH        where the engine directories go (default: a new temporary directory)",
            "  --out FILE        also write the JSON result to FILE");

    private static final long PHASE_TIMEOUT_MILLIS = 120_000;

    private final int cycles;
    private final long seed;
    private final int workMillis;
    private final int freshEvery;
    private final Path base;
    private final PrintStream log;
    private final SoakTotals totals = new SoakTotals();
    /** The running child, killed by a shutdown hook if the soak itself is stopped. */
    private volatile SoakChild current;

    KillSoak(int cycles, long seed, int workMillis, int freshEvery, Path base, PrintStream log) {
        this.cycles = cycles;
        this.seed = seed;
        this.workMillis = workMillis;
        this.freshEvery = freshEvery;
        this.base = base;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m;
        KillSoak soak;
        Path out;
        try {
            m = CliOptions.parse(args);
            if (m == null) {
                System.out.println(USAGE);
                return;
            }
            int cycles = Integer.parseInt(m.getOrDefault("cycles", "1000"));
            long seed = Long.parseLong(m.getOrDefault("seed", "1"));
            int work = Integer.parseInt(m.getOrDefault("work-ms", "1000"));
            int fresh = Integer.parseInt(m.getOrDefault("fresh-every", "100"));
            Path dir = m.containsKey("dir") ? Path.of(m.get("dir")) : Files.createTempDirectory("kill-soak");
            out = m.containsKey("out") ? Path.of(m.get("out")) : null;
            m.keySet().removeAll(java.util.List.of("cycles", "seed", "work-ms", "fresh-every", "dir", "out"));
            if (!m.isEmpty() || cycles < 1 || work < 10 || fresh < 0) {
                throw new IllegalArgumentException("unknown options " + m.keySet() + " or --cycles < 1, --work-ms < 10, --fresh-every < 0");
            }
            soak = new KillSoak(cycles, seed, work, fresh, dir, System.err);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Map<String, Object> result = soak.run();
        String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(result);
        System.out.println(json);
        if (out != null) {
            Files.writeString(out, json + "\n");
        }
        System.exit(Boolean.TRUE.equals(result.get("clean")) ? 0 : 1);
    }

    /** Runs every cycle (or stops at the first directory that cannot be opened) and returns the result. */
    Map<String, Object> run() throws IOException, InterruptedException {
        Files.createDirectories(base);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            SoakChild c = current;
            if (c != null) {
                c.killQuietly();
            }
        }, "kill-soak-child"));
        SplittableRandom rnd = new SplittableRandom(seed);
        long start = System.nanoTime();
        long lastReport = start;
        CrashModel model = null;
        Path dir = null;
        boolean dirDamaged = false;
        for (int cycle = 1; cycle <= cycles; cycle++) {
            if (model == null || dirDamaged || (freshEvery > 0 && (cycle - 1) % freshEvery == 0)) {
                if (dir != null && !dirDamaged) {
                    deleteOwnRun(dir);
                }
                dir = base.resolve(String.format("run-%05d", cycle));
                if (Files.exists(dir)) {
                    // the soak deletes only run directories it created itself
                    throw new IllegalStateException(dir + " already exists: give --dir an empty or new directory");
                }
                model = new CrashModel();
                dirDamaged = false;
                try (StorageEngine engine = StorageEngine.open(dir, CrashWorkload.config())) {
                    CrashWorkload.setUp(engine);
                }
            }
            CycleOutcome outcome = cycle(cycle, dir, model, rnd);
            totals.cycles++;
            if (outcome == CycleOutcome.UNOPENABLE) {
                dirDamaged = true;
                break;
            }
            dirDamaged = outcome == CycleOutcome.DAMAGED;
            long now = System.nanoTime();
            if (now - lastReport > 10_000_000_000L || cycle == cycles) {
                lastReport = now;
                double secs = (now - start) / 1e9;
                double rate = cycle / secs;
                log.printf("cycle %d/%d  %.2f cycles/s  elapsed %s  ETA %s  %s%n", cycle, cycles, rate, hms(secs),
                        hms((cycles - cycle) / rate), totals.progressLine());
            }
        }
        if (dir != null && !dirDamaged && totals.clean()) {
            deleteOwnRun(dir);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("command", "KillSoak");
        result.put("options", Map.of("cycles", cycles, "seed", seed, "workMs", workMillis, "freshEvery", freshEvery,
                "dir", base.toString()));
        result.put("seconds", Math.round((System.nanoTime() - start) / 1e8) / 10.0);
        result.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(),
                "java", System.getProperty("java.version"), "os", System.getProperty("os.name") + " " + System.getProperty("os.version")));
        result.putAll(totals.toJson());
        return result;
    }

    /** What a cycle left behind. */
    private enum CycleOutcome {
        /** Recovered and checked: nothing wrong. */
        CLEAN,
        /** Recovered, but the check (or the child) found damage: the directory is kept, the next cycle starts afresh. */
        DAMAGED,
        /** The directory could not be opened (or checked): the soak stops. */
        UNOPENABLE
    }

    /** One kill/recover cycle. */
    private CycleOutcome cycle(int cycle, Path dir, CrashModel model, SplittableRandom rnd) throws IOException, InterruptedException {
        long firstTxn = cycle * 1_000_000L;
        double p = rnd.nextDouble();
        KillPhase target = p < 0.2 ? KillPhase.OPEN : p < 0.45 ? KillPhase.CLOSE : KillPhase.WORK;
        long closeAfter = target == KillPhase.CLOSE ? rnd.nextInt(workMillis) : -1;
        long ackedBefore = model.ackedCount();
        SoakChild child = new SoakChild(dir, firstTxn, closeAfter, model, base.resolve("child-stderr.log"));
        current = child;
        KillPhase waitFor = target == KillPhase.OPEN ? KillPhase.OPEN : target;
        if (!child.awaitPhase(waitFor, PHASE_TIMEOUT_MILLIS)) {
            totals.example("cycle " + cycle + ": child did not reach " + waitFor + " within " + PHASE_TIMEOUT_MILLIS + " ms");
        }
        switch (target) {
            case OPEN -> Thread.sleep(rnd.nextInt(400));
            case CLOSE -> Thread.sleep(rnd.nextInt(60));
            default -> Thread.sleep(rnd.nextInt(workMillis));
        }
        KillPhase landed = child.kill();
        totals.kill(landed);
        if (child.failedOnItsOwn()) {
            totals.childFailures++;
            totals.example("cycle " + cycle + ": child failed on its own in phase " + landed + ": " + child.stderrTail());
        }
        try (StorageEngine engine = StorageEngine.open(dir, CrashWorkload.config())) {
            CrashCheck.Result r = CrashCheck.check(engine, model);
            totals.add(cycle, r, model.ackedCount() - ackedBefore);
            return r.clean() && !child.failedOnItsOwn() ? CycleOutcome.CLEAN : CycleOutcome.DAMAGED;
        } catch (RuntimeException e) {
            totals.openFailures++;
            totals.example("cycle " + cycle + ": recovery or check failed after a kill in phase " + landed + ": " + e);
            e.printStackTrace(log);
            return CycleOutcome.UNOPENABLE;
        }
    }

    /** Deletes a run directory this soak created (named run-NNNNN under its base). */
    private void deleteOwnRun(Path dir) throws IOException {
        if (!dir.getParent().equals(base) || !dir.getFileName().toString().startsWith("run-")) {
            throw new IllegalStateException("not a soak run directory: " + dir);
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static String hms(double seconds) {
        long s = Math.round(seconds);
        return String.format("%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60);
    }
}
