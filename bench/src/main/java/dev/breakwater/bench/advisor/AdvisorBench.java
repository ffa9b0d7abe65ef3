package dev.breakwater.bench.advisor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.tuner.advisor.Advice;
import dev.breakwater.tuner.advisor.Design;
import dev.breakwater.tuner.advisor.DesignAdvisor;
import dev.breakwater.tuner.advisor.DesignSpace;
import dev.breakwater.tuner.advisor.EngineShape;
import dev.breakwater.tuner.advisor.Environment;
import dev.breakwater.tuner.advisor.LsmCostModel;
import dev.breakwater.tuner.advisor.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Checks paper 003's cost model against the engine and runs the slides' robustness experiment,
 * scaled down (docs/benchmarks-advisor.md).
 *
 * <p>For each design the engine is opened fresh (direct I/O, tuner off, the design's size ratio,
 * merge policy, runs per level, Bloom bits and write memory), {@code --entries} records are loaded,
 * and the I/O pages per operation of each kind are measured on their own: writes first (upserts of
 * existing keys, eight times the write memory's worth, measured from a settled tree to a settled
 * tree: the flush of what they leave in memory and every merge they cause are counted, flush and
 * merge pages read and written), then empty point reads, non-empty point reads and range reads
 * (query pages read per read), each taken in eight slices between eight write memories' worth of
 * blind writes, so that the reads meet the tree at successive points of its merge cycle. A mix's measured cost is the mix-weighted sum of those, which is also how
 * the model composes it: mixes with 1% writes cannot amortize even one flush in a run of minutes.
 *
 * <ul>
 *   <li>{@code check}: a few fixed designs; for each of the slides' 15 expected workloads, the
 *       measured and predicted I/O per operation and their relative error.</li>
 *   <li>{@code robust}: for each expected workload and each ρ, the nominal and the robust design
 *       (searched over what the engine runs); every distinct design is measured; then the
 *       normalized delta throughput Δ = C(nominal)/C(robust) − 1 from the measured costs on the
 *       slides' test set ({@code --samples} workloads drawn uniformly from the simplex, shared by
 *       all expected workloads), and on {@code --samples} workloads drawn from the KL ball of
 *       radius ρ around the expected one (also with the model's costs).</li>
 * </ul>
 * Output: {@code advisor-check.json}, {@code advisor-robust-rhoR.json} and PNG plots in {@code --out}; the
 * measured designs in {@code advisor-designs.json}, which later runs reuse. When {@code --budget-seconds}
 * is spent, no new design is measured: the robust report lists the cases left out
 * ({@code skippedNotMeasured}) and the run exits with 3; with {@code --budget-seconds 0} a report is
 * made from the designs measured so far, without opening an engine.
 */
public final class AdvisorBench {

    static final int PAGE = 4096;

    record Config(String mode, long entries, int valueBytes, long totalMemory, int rangeEntries, int readOps, double[] rhos,
                  int samples, Path dir, Path out, long seed, int maxSizeRatio, int entryBytes) {
    }

    private AdvisorBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> m = CliOptions.parse(args);
        if (m == null) {
            System.out.println("usage: AdvisorBench --mode check|robust|both [--entries 60000] [--value-bytes 100] [--total-memory-mib 4]"
                    + " [--range-entries 16] [--read-ops 3000] [--rhos 0.5,1,2] [--samples 2000] [--dir /tmp/advisor/data]"
                    + " [--out docs/benchmarks-advisor] [--seed 1] [--max-size-ratio 12] [--entry-bytes 146 (E for robust without check)]"
                    + " [--budget-seconds 420: stop measuring new designs after this; exit 3; rerun continues from advisor-designs.json]"
                    + " [--warm-reads 0: reads after each slice's writes before the measured ones]"
                    + " [--designs T/K/bits/bytes,...: what check measures]"
                    + " [--uniform-cache-model true: the model of 2026-11-26 (uniform cache, no L0, no index pages)]"
                    + " [--model-only true: the robust experiment on the model's costs alone, no engine]"
                    + " [--slides-model true: with --model-only, the slides' model (no cache, textbook filters)]");
            return;
        }
        Config c = new Config(m.getOrDefault("mode", "both"), Long.parseLong(m.getOrDefault("entries", "60000")),
                Integer.parseInt(m.getOrDefault("value-bytes", "100")), Long.parseLong(m.getOrDefault("total-memory-mib", "4")) << 20,
                Integer.parseInt(m.getOrDefault("range-entries", "16")), Integer.parseInt(m.getOrDefault("read-ops", "3000")),
                Arrays.stream(m.getOrDefault("rhos", "0.5,1,2").split(",")).mapToDouble(Double::parseDouble).toArray(),
                Integer.parseInt(m.getOrDefault("samples", "2000")), Path.of(m.getOrDefault("dir", "/tmp/advisor/data")),
                Path.of(m.getOrDefault("out", "docs/benchmarks-advisor")), Long.parseLong(m.getOrDefault("seed", "1")),
                Integer.parseInt(m.getOrDefault("max-size-ratio", "12")), Integer.parseInt(m.getOrDefault("entry-bytes", "146")));
        Files.createDirectories(c.out());
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Map<Design, KindCosts> measured = new LinkedHashMap<>();
        modelOnly = m.containsKey("model-only");
        slidesModel = m.containsKey("slides-model");
        uniformCacheModel = m.containsKey("uniform-cache-model");
        checkDesigns = m.containsKey("designs") ? parseDesigns(m.get("designs")) : null;
        if (modelOnly) {
            Map<String, Object> report = robust(c, measured);
            String name = "advisor-robust-model" + (slidesModel ? "-slides" : uniformCacheModel ? "-uniform-cache" : "");
            json.writeValue(c.out().resolve(name + ".json").toFile(), report);
            AdvisorPlots.robust(c.out().resolve(name + ".png"), report);
            return;
        }
        Path cacheFile = c.out().resolve("advisor-designs.json");
        MeasuredCache.load(cacheFile, measured);
        repredict(c, measured);
        warmReads = Integer.parseInt(m.getOrDefault("warm-reads", "0"));
        deadlineNanos = System.nanoTime() + Long.parseLong(m.getOrDefault("budget-seconds", "420")) * 1_000_000_000L;
        try {
            run(c, measured, json);
        } catch (BudgetSpent e) {
            System.err.println(e.getMessage());
            MeasuredCache.save(cacheFile, measured);
            System.exit(3);
        }
        MeasuredCache.save(cacheFile, measured);
        if (System.nanoTime() > deadlineNanos && c.mode().equals("robust")) {
            System.err.println("time budget spent: the cases whose designs were not measured are listed under skippedNotMeasured;"
                    + " run again to measure them");
            System.exit(3);
        }
    }

    private static void run(Config c, Map<Design, KindCosts> measured, ObjectMapper json) throws java.io.IOException {
        if (c.mode().equals("check") || c.mode().equals("both")) {
            Map<String, Object> report = check(c, measured);
            json.writeValue(c.out().resolve("advisor-check.json").toFile(), report);
            AdvisorPlots.check(c.out().resolve("advisor-check.png"), report);
        }
        if (c.mode().equals("robust") || c.mode().equals("both")) {
            Map<String, Object> report = robust(c, measured);
            String suffix = c.rhos().length == 1 ? "-rho" + c.rhos()[0] : "";
            json.writeValue(c.out().resolve("advisor-robust" + suffix + ".json").toFile(), report);
            AdvisorPlots.robust(c.out().resolve("advisor-robust" + suffix + ".png"), report);
        }
    }

    /** Replaces the stored predictions of measured designs with the current model's (the model may have changed since). */
    static void repredict(Config c, Map<Design, KindCosts> measured) {
        measured.replaceAll((d, k) -> {
            LsmCostModel model = model(c, k.bytesPerEntry());
            return new KindCosts(d, k.measured(), model.costs(d).toArray(), model.costs(d).levels(), k.diskLevels(), k.bytesPerEntry(),
                    k.opsPerSecond(), k.breakdown());
        });
    }

    /** The model environment for this run's data; E from a measured load (or the estimate before one). */
    static Environment environment(Config c, double bytesPerEntry) {
        return new Environment(c.entries(), (int) Math.round(bytesPerEntry), PAGE, c.totalMemory(),
                (double) c.rangeEntries() / c.entries(), 1.0, 1.0, !slidesModel, !slidesModel);
    }

    /**
     * The model for this run's data: Breakwater's (with {@link EngineShape#BREAKWATER}) unless
     * {@code --slides-model}, or {@code --uniform-cache-model} (the model of 2026-11-26: the slides'
     * read costs times a uniform cache miss rate, no L0, no index pages).
     */
    static LsmCostModel model(Config c, double bytesPerEntry) {
        Environment env = environment(c, bytesPerEntry);
        return uniformCacheModel ? new LsmCostModel(env, null) : new LsmCostModel(env);
    }

    /** {@code --designs T/K/bits/bytes,...}: the designs {@code check} measures instead of its four; null for those. */
    static List<Design> checkDesigns;

    /** Parses {@code --designs}: comma-separated {@code T/K/bitsPerKey/writeMemoryBytes}. */
    static List<Design> parseDesigns(String spec) {
        List<Design> out = new ArrayList<>();
        for (String d : spec.split(",")) {
            String[] p = d.trim().split("/");
            if (p.length != 4) {
                throw new IllegalArgumentException("--designs wants T/K/bits/bytes items, got '" + d + "'");
            }
            out.add(Design.uniform(Long.parseLong(p[3]), Double.parseDouble(p[2]), Integer.parseInt(p[0]), Integer.parseInt(p[1])));
        }
        return out;
    }

    /** {@code --uniform-cache-model}: the model before the engine's read path was added. */
    static boolean uniformCacheModel;

    /** {@code --slides-model}: the slides' model (no cache, textbook filters) instead of Breakwater's. */
    static boolean slidesModel;

    /** The design as the engine runs it: write memory rounded up to a multiple of 64 KiB, at least 1 MiB. */
    static Design asRun(Design d) {
        long w = Math.max(1L << 20, (d.writeMemoryBytes() + (1L << 16) - 1) >> 16 << 16);
        return new Design(w, d.bloomBitsPerKey(), d.sizeRatio(), d.runsPerLevel());
    }

    static Map<String, Object> check(Config c, Map<Design, KindCosts> measured) {
        List<Design> designs = checkDesigns != null ? checkDesigns : List.of(
                Design.uniform(1L << 20, 10, 4, 1),   // leveling
                Design.uniform(1L << 20, 10, 4, 3),   // tiering
                Design.uniform(1L << 20, 6, 8, 3),    // runs per level in between
                Design.uniform(2L << 20, 2, 10, 1));  // big buffer, weak filters
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        for (Design d : designs) {
            KindCosts k = measure(c, d, measured);
            for (int i = 0; i < Workload.expectedWorkloads().size(); i++) {
                Workload w = Workload.expectedWorkloads().get(i);
                double meas = k.measuredCost(w);
                double pred = k.predictedCost(w);
                double err = (pred - meas) / meas;
                errors.add(err);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("design", d.toString());
                r.put("workload", i);
                r.put("type", Workload.expectedType(i));
                r.put("measuredPagesPerOp", meas);
                r.put("predictedPagesPerOp", pred);
                r.put("relativeError", err);
                rows.add(r);
            }
        }
        // does the model order the designs as the engine does? (what choosing a design needs)
        int agree = 0;
        int pairs = 0;
        for (Workload w : Workload.expectedWorkloads()) {
            for (int a = 0; a < designs.size(); a++) {
                for (int b = a + 1; b < designs.size(); b++) {
                    KindCosts ka = measured.get(asRun(designs.get(a)));
                    KindCosts kb = measured.get(asRun(designs.get(b)));
                    pairs++;
                    if (Math.signum(ka.measuredCost(w) - kb.measuredCost(w)) == Math.signum(ka.predictedCost(w) - kb.predictedCost(w))) {
                        agree++;
                    }
                }
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("config", c.toString());
        report.put("pairwiseOrderAgreement", Map.of("agree", agree, "pairs", pairs));
        report.put("designs", designs.stream().map(d -> describe(measured.get(asRun(d)))).toList());
        report.put("rows", rows);
        report.put("errorQuantiles", quantiles(errors));
        report.put("absErrorQuantiles", quantiles(errors.stream().map(Math::abs).toList()));
        return report;
    }

    static Map<String, Object> robust(Config c, Map<Design, KindCosts> measured) {
        double e = measured.isEmpty() ? c.entryBytes() : measured.values().iterator().next().bytesPerEntry();
        LsmCostModel model = model(c, e);
        DesignSpace space = DesignSpace.defaults().withSizeRatios(2, c.maxSizeRatio()).withFloors(1L << 20, 1L << 20);
        DesignAdvisor advisor = new DesignAdvisor(model, space);
        Random rnd = new Random(c.seed() * 31 + 7);
        List<Map<String, Object>> cases = new ArrayList<>();
        Map<Double, List<Double>> deltasByRho = new LinkedHashMap<>();
        Map<Double, List<Double>> modelDeltasByRho = new LinkedHashMap<>();
        Map<Double, List<Double>> mediansByRho = new LinkedHashMap<>();
        Map<Double, List<Double>> testDeltasByRho = new LinkedHashMap<>();
        List<Map<String, Object>> skipped = new ArrayList<>();
        Map<Double, List<Double>> testMediansByRho = new LinkedHashMap<>();
        // the slides' test set: workloads drawn uniformly from the simplex, shared by every expected workload
        Random testRnd = new Random(c.seed() * 17 + 3);
        List<Workload> testSet = new ArrayList<>();
        for (int s = 0; s < c.samples(); s++) {
            testSet.add(sampleInBall(testRnd, new Workload(1, 1, 1, 1), 1e9));
        }
        for (double rho : c.rhos()) {
            for (int i = 0; i < Workload.expectedWorkloads().size(); i++) {
                Workload w = Workload.expectedWorkloads().get(i);
                Advice nominal = advisor.nominal(w, rho);
                Advice robust = advisor.robust(w, rho);
                KindCosts kn;
                KindCosts kr;
                try {
                    kn = measure(c, nominal.design(), measured);
                    kr = measure(c, robust.design(), measured);
                } catch (BudgetSpent spent) {
                    skipped.add(Map.of("rho", rho, "workload", i, "nominal", nominal.design().toString(), "robust", robust.design().toString()));
                    continue;
                }
                double[] deltas = new double[c.samples()];
                double[] modelDeltas = new double[c.samples()];
                for (int s = 0; s < c.samples(); s++) {
                    Workload x = sampleInBall(rnd, w, rho);
                    deltas[s] = kn.measuredCost(x) / kr.measuredCost(x) - 1;
                    modelDeltas[s] = nominal.costs().cost(x) / robust.costs().cost(x) - 1;
                    deltasByRho.computeIfAbsent(rho, r -> new ArrayList<>()).add(deltas[s]);
                    modelDeltasByRho.computeIfAbsent(rho, r -> new ArrayList<>()).add(modelDeltas[s]);
                }
                Arrays.sort(deltas);
                Arrays.sort(modelDeltas);
                double[] testDeltas = new double[testSet.size()];
                for (int s = 0; s < testDeltas.length; s++) {
                    testDeltas[s] = kn.measuredCost(testSet.get(s)) / kr.measuredCost(testSet.get(s)) - 1;
                    testDeltasByRho.computeIfAbsent(rho, r -> new ArrayList<>()).add(testDeltas[s]);
                }
                Arrays.sort(testDeltas);
                testMediansByRho.computeIfAbsent(rho, r -> new ArrayList<>()).add(testDeltas[testDeltas.length / 2]);
                mediansByRho.computeIfAbsent(rho, r -> new ArrayList<>()).add(deltas[deltas.length / 2]);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("rho", rho);
                r.put("workload", i);
                r.put("type", Workload.expectedType(i));
                r.put("nominal", nominal.design().toString());
                r.put("robust", robust.design().toString());
                r.put("sameDesign", asRun(nominal.design()).equals(asRun(robust.design())));
                r.put("testSetMedianDelta", testDeltas[testDeltas.length / 2]);
                r.put("medianDelta", deltas[deltas.length / 2]);
                r.put("p10Delta", deltas[deltas.length / 10]);
                r.put("p90Delta", deltas[deltas.length * 9 / 10]);
                r.put("modelMedianDelta", modelDeltas[modelDeltas.length / 2]);
                r.put("measuredAtExpected", Map.of("nominal", kn.measuredCost(w), "robust", kr.measuredCost(w)));
                cases.add(r);
                System.err.printf("rho %.2f w%-2d %-9s median delta: test set %+.3f, in the ball %+.3f (model %+.3f)  nominal %s | robust %s%n", rho, i,
                        Workload.expectedType(i), testDeltas[testDeltas.length / 2], deltas[deltas.length / 2], modelDeltas[modelDeltas.length / 2],
                        nominal.design(), robust.design());
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        for (double rho : c.rhos()) {
            if (!testMediansByRho.containsKey(rho)) {
                continue;
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("testSetDeltaQuantiles", quantiles(testDeltasByRho.get(rho)));
            List<Double> tmed = testMediansByRho.get(rho);
            s.put("testSetWorkloadsWhereRobustWinsTheMedian", tmed.stream().filter(x -> x > 1e-9).count());
            s.put("testSetWorkloadsWhereRobustLosesTheMedian", tmed.stream().filter(x -> x < -1e-9).count());
            s.put("deltaQuantiles", quantiles(deltasByRho.get(rho)));
            s.put("modelDeltaQuantiles", quantiles(modelDeltasByRho.get(rho)));
            List<Double> med = mediansByRho.get(rho);
            s.put("workloadsWhereRobustWinsTheMedian", med.stream().filter(x -> x > 1e-9).count());
            s.put("workloadsWhereRobustLosesTheMedian", med.stream().filter(x -> x < -1e-9).count());
            s.put("workloadsTied", med.stream().filter(x -> Math.abs(x) <= 1e-9).count());
            summary.put(String.valueOf(rho), s);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("config", c.toString());
        report.put("environment", model.environment().toString());
        report.put("summaryByRho", summary);
        report.put("skippedNotMeasured", skipped);
        report.put("cases", cases);
        report.put("designs", measured.values().stream().map(AdvisorBench::describe).toList());
        report.put("deltasByRho", deltasByRho);
        report.put("testSetDeltasByRho", testDeltasByRho);
        return report;
    }

    /** Thrown when the run's time budget is spent; the measurements so far are saved. */
    static final class BudgetSpent extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BudgetSpent() {
            super("time budget spent: measurements saved to the cache file, run again to continue");
        }
    }

    static long deadlineNanos = Long.MAX_VALUE;
    /** {@code --model-only}: no engine; every "measured" cost is the model's (for the model's own Δ). */
    static boolean modelOnly;

    /** Measures {@code d} (as the engine runs it) once; later calls reuse the result. */
    static KindCosts measure(Config c, Design d0, Map<Design, KindCosts> cache) {
        Design d = asRun(d0);
        KindCosts known = cache.get(d);
        if (known != null) {
            return known;
        }
        if (modelOnly) {
            double[] p = model(c, c.entryBytes()).costs(d).toArray();
            return new KindCosts(d, p, p, 0, 0, c.entryBytes(), new double[2], Map.of());
        }
        if (System.nanoTime() > deadlineNanos) {
            throw new BudgetSpent();
        }
        long t0 = System.nanoTime();
        try (EngineRun run = new EngineRun(c.dir(), d, c.totalMemory(), PAGE, c.entries(), c.valueBytes(), c.rangeEntries(), c.seed())) {
            run.load();
            double e = run.diskBytesPerEntry();
            int diskLevels = run.diskLevels();
            String loaded = run.shape();
            LsmCostModel model = model(c, e);
            int writes = (int) Math.min(2_000_000, 8 * d.writeMemoryBytes() / Math.max(1, (c.valueBytes() + 20)));
            run.run(new Workload(0, 0, 0, 1), writes / 4, true); // warm-up; then from settled to settled
            EngineRun.Measure u = run.run(new Workload(0, 0, 0, 1), writes, true);
            int chunks = 8;
            int perChunk = writes / chunks;
            int reads = c.readOps() / chunks * chunks;
            int qOps = Math.max(200, c.readOps() / 3) / chunks * chunks;
            long t1 = System.nanoTime();
            Map<String, Map<String, Double>> breakdown = new LinkedHashMap<>();
            ReadBreakdown[] bz0 = readsAcrossCycle(run, 0, reads, chunks, perChunk);
            ReadBreakdown[] bz1 = readsAcrossCycle(run, 1, reads, chunks, perChunk);
            ReadBreakdown[] bq = readsAcrossCycle(run, 2, qOps, chunks, perChunk);
            String[] names = {"z0", "z1", "q"};
            ReadBreakdown[][] all = {bz0, bz1, bq};
            for (int i = 0; i < 3; i++) {
                breakdown.put(names[i], all[i][0].perOp());
                if (all[i][1].ops() > 0) {
                    breakdown.put(names[i] + "WarmUp", all[i][1].perOp());
                }
            }
            Map<String, Double> ub = new LinkedHashMap<>();
            ub.put("flushPagesWritten", (double) u.flushPagesWritten() / u.ops());
            ub.put("mergePagesRead", (double) u.mergePagesRead() / u.ops());
            ub.put("mergePagesWritten", (double) u.mergePagesWritten() / u.ops());
            breakdown.put("u", ub);
            KindCosts k = new KindCosts(d, new double[] {bz0[0].pagesPerOp(), bz1[0].pagesPerOp(), bq[0].pagesPerOp(), u.writePagesPerOp()},
                    model.costs(d).toArray(), model.costs(d).levels(), diskLevels, e,
                    new double[] {u.opsPerSecond(), (System.nanoTime() - t1) / 1e9}, breakdown);
            cache.put(d, k);
            System.err.printf("  after load: %s; after the runs: %s%n", loaded, run.shape());
            System.err.printf("measured %s in %.0f s: E %.1f, disk levels %d (model %d); Z0 %.3f/%.3f Z1 %.3f/%.3f Q %.3f/%.3f U %.4f/%.4f (measured/model)%n",
                    d, (System.nanoTime() - t0) / 1e9, e, diskLevels, k.levels(), k.measured()[0], k.predicted()[0], k.measured()[1],
                    k.predicted()[1], k.measured()[2], k.predicted()[2], k.measured()[3], k.predicted()[3]);
            return k;
        }
    }

    /**
     * {@code reads} reads of one kind, taken in {@code chunks} slices, each after one write memory's
     * worth of blind writes and a settle (flush, merges done). The reads thus meet the tree at
     * successive points of its merge cycle (1 to K runs in a level), not only fully merged, and
     * never behind a merge backlog, which the model does not know and which on this loaded machine
     * grows without bound while writes run flat out. Returns the query pages read by the reads.
     */
    private static ReadBreakdown[] readsAcrossCycle(EngineRun run, int kind, int reads, int chunks, int writesPerChunk) {
        double[] v = new double[4];
        v[kind] = 1;
        Workload w = Workload.of(v);
        ReadBreakdown measured = ReadBreakdown.EMPTY;
        ReadBreakdown warm = ReadBreakdown.EMPTY;
        run.run(w, reads / chunks, false); // warm the cache
        for (int i = 0; i < chunks; i++) {
            run.run(new Workload(0, 0, 0, 1), writesPerChunk, true);
            if (warmReads > 0) {
                warm = warm.plus(run.run(w, warmReads, false));
            }
            measured = measured.plus(run.run(w, reads / chunks, false));
        }
        return new ReadBreakdown[] {measured, warm};
    }

    /**
     * {@code --warm-reads}: reads of the same kind after each slice's writes and before its measured
     * reads (0: none, the protocol of 2026-11-26). They let the buffer cache refill after merges
     * replaced the files it held, so the measured reads meet the steady state the model prices; their
     * own pages are reported apart ({@code z1WarmUp} etc.).
     */
    static int warmReads;

    static Map<String, Object> describe(KindCosts k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("design", k.design().toString());
        m.put("policy", k.design().policyName());
        m.put("bytesPerEntry", k.bytesPerEntry());
        m.put("modelLevels", k.levels());
        m.put("engineDiskLevels", k.diskLevels());
        m.put("measured", Map.of("z0", k.measured()[0], "z1", k.measured()[1], "q", k.measured()[2], "u", k.measured()[3]));
        m.put("predicted", Map.of("z0", k.predicted()[0], "z1", k.predicted()[1], "q", k.predicted()[2], "u", k.predicted()[3]));
        m.put("breakdown", k.breakdown());
        m.put("writeOpsPerSecond", k.opsPerSecond()[0]);
        m.put("readPhaseSeconds", k.opsPerSecond()[1]);
        return m;
    }

    static Map<String, Double> quantiles(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        Map<String, Double> q = new LinkedHashMap<>();
        for (double p : new double[] {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1}) {
            q.put("p" + (int) (p * 100), a[(int) Math.min(a.length - 1, Math.floor(p * (a.length - 1) + 0.5))]);
        }
        return q;
    }

    /**
     * A workload from the KL ball of radius ρ around {@code w}: a uniform point of the simplex (on
     * w's support) pulled towards w just inside the ball, then moved a uniform fraction of the way
     * back towards w, so drifts of every size up to ρ appear.
     */
    static Workload sampleInBall(Random rnd, Workload w, double rho) {
        double[] p = w.toArray();
        double[] x = new double[4];
        double sum = 0;
        for (int i = 0; i < 4; i++) {
            x[i] = p[i] > 0 ? -Math.log(1 - rnd.nextDouble()) : 0;
            sum += x[i];
        }
        for (int i = 0; i < 4; i++) {
            x[i] /= sum;
        }
        double lo = 0;
        double hi = 1;
        if (mix(p, x, 1).klDivergenceFrom(w) > rho) {
            for (int it = 0; it < 50; it++) {
                double mid = (lo + hi) / 2;
                if (mix(p, x, mid).klDivergenceFrom(w) <= rho) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        } else {
            lo = 1;
        }
        return mix(p, x, lo * Math.sqrt(rnd.nextDouble()));
    }

    private static Workload mix(double[] p, double[] x, double a) {
        double[] m = new double[4];
        for (int i = 0; i < 4; i++) {
            m[i] = (1 - a) * p[i] + a * x[i];
        }
        return Workload.of(m);
    }
}
