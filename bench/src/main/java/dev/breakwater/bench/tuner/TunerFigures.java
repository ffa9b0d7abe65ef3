package dev.breakwater.bench.tuner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Summarizes the TPC-C runs of {@code bench/scripts/tuner-figures.sh} into paper 000's tuner figures:
 * <ul>
 *   <li>Figure 13 ({@code fig13.json/.png}): weighted I/O cost per transaction and tpmC at each fixed
 *       split ({@code fixed-<x>m.json}, repeats {@code fixed-<x>m-repeat.json} and {@code fixed-<x>m-repeat<i>.json} averaged in), the best
 *       split, the initial split ({@code --initial}), 50/50, and the tuner runs ({@code tuner-*.json}),
 *       with the targets: tuner cost ≤ 1.03 × best, tpmC ≥ 0.97 × best; fixed splits run with the
 *       tuner's active-component size ({@code m0-fixed-<x>m.json}) are judged the same way, under
 *       {@code pinnedM0};</li>
 *   <li>Figure 6 ({@code fig6.png}): the measured cost(x) curve with its write and read parts;</li>
 *   <li>Figure 14 ({@code fig14.json/.png}; {@code fig14-<s>} for {@code switch-tuner-<s>.json}), per
 *       {@code switch-tuner*.json}: write memory and cost
 *       per operation over time through the mix switch, against the read-mostly optimum, the lowest
 *       mean cycle cost of the fixed splits under read-mostly ({@code rm-fixed-<x>m.json}) after their
 *       warm-up; target: within 5% of it in at most 10 cycles after the switch (a single cycle's cost,
 *       and, since 5-second cycles are noisy, the mean of three consecutive cycles).</li>
 *   <li>Figure 12 ({@code fig12.json/.png}), if {@code ycsb-*.json} exist ({@code ExtendedYcsb --tuner on}
 *       results): write memory and cost per operation of each tuner cycle of the measured phase
 *       ({@code fig6-ycsb-tuner.json/.png} when a run has more than one tree);</li>
 *   <li>Figure 6 on YCSB ({@code fig6-ycsb.json/.png}), if {@code ycsb-fixed-<x>m.json} exist
 *       ({@code ExtendedYcsb --tuner off} at write memory x): the measured cost(x) per operation, with
 *       the tuner runs of the same setting at the write memory where they ended, and fixed splits
 *       measured as long as a tuner run ({@code ycsb-long-fixed-<x>m.json}) as a second series.</li>
 * </ul>
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "tuner-figures", mixinStandardHelpOptions = true,
        description = "Summarize tuner-figures.sh runs into fig13/fig6/fig14 JSON and PNG.")
public final class TunerFigures implements Callable<Integer> {

    static final double COST_TARGET = 1.03, TPMC_TARGET = 0.97, SWITCH_TARGET = 1.05;
    static final int SWITCH_CYCLES = 10;
    private static final Pattern FIXED = Pattern.compile("^(rm-|m0-)?fixed-(\\d+)m(-repeat\\d*)?\\.json$");
    private static final Pattern YCSB_FIXED = Pattern.compile("^ycsb-(long-)?fixed-(\\d+)m(-repeat\\d*)?\\.json$");

    @Option(names = "--dir", required = true, description = "Directory of the run JSONs; figures are written there.")
    Path dir;
    @Option(names = "--initial", description = "The tuner's initial write memory, MiB. Default: ${DEFAULT-VALUE}.")
    double initial = 16;
    @Option(names = "--memory", description = "Total memory (e.g. 64m). Default: ${DEFAULT-VALUE}.")
    String memory = "64m";
    @Option(names = "--warmup", description = "Seconds of warm-up of the read-mostly runs, excluded from their cost. Default: ${DEFAULT-VALUE}.")
    double warmup = 15;
    @Option(names = "--period", description = "Tuner period, s (places cycles when a run has no log). Default: ${DEFAULT-VALUE}.")
    double period = 5;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TunerFigures()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        TreeMap<Double, List<TpccRun>> fixed = new TreeMap<>(), readMostly = new TreeMap<>(), pinned = new TreeMap<>();
        List<TpccRun> tuner = new ArrayList<>();
        List<TpccRun> switching = new ArrayList<>();
        List<Path> ycsb = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) {
                String n = p.getFileName().toString();
                Matcher m = FIXED.matcher(n);
                if (m.matches()) {
                    (m.group(1) == null ? fixed : m.group(1).equals("rm-") ? readMostly : pinned).computeIfAbsent(Double.parseDouble(m.group(2)),
                            k -> new ArrayList<>()).add(TpccRun.read(p, period));
                } else if (n.matches("tuner-.*\\.json")) {
                    tuner.add(TpccRun.read(p, period));
                } else if (n.matches("switch-tuner.*\\.json")) {
                    switching.add(TpccRun.read(p, period));
                } else if (n.matches("ycsb-.*\\.json")) {
                    ycsb.add(p);
                }
            }
        }
        double memoryMiB = dev.breakwater.common.config.Sizes.parse(memory) / (1024.0 * 1024.0);
        if (!fixed.isEmpty()) {
            Map<String, Object> fig13 = fig13(fixed, tuner, memoryMiB);
            if (!pinned.isEmpty()) {
                fig13.put("pinnedM0", fig13(pinned, tuner, memoryMiB));
            }
            write(dir.resolve("fig13.json"), fig13);
            TunerPlots.fig13(dir.resolve("fig13.png"), fixed, pinned, tuner, memory);
            TunerPlots.fig6(dir.resolve("fig6.png"), fixed, memory);
            System.out.println(new ObjectMapper().writeValueAsString(fig13.get("summary")));
        }
        for (TpccRun run : switching) {
            Map<String, Object> fig14 = fig14(run, readMostly);
            String name = "fig14" + run.name().substring("switch-tuner".length()); // switch-tuner-from48 -> fig14-from48
            write(dir.resolve(name + ".json"), fig14);
            TunerPlots.fig14(dir.resolve(name + ".png"), run, (Double) ((Map<?, ?>) fig14.get("summary")).get("optimumCost"),
                    memory);
            System.out.println(new ObjectMapper().writeValueAsString(fig14.get("summary")));
        }
        TreeMap<Double, List<YcsbRun>> ycsbFixed = new TreeMap<>(), ycsbLong = new TreeMap<>();
        List<YcsbRun> ycsbTuner = new ArrayList<>();
        for (Path p : ycsb) {
            YcsbRun r = YcsbRun.read(p);
            Matcher m = YCSB_FIXED.matcher(p.getFileName().toString());
            if (r.tuner()) {
                ycsbTuner.add(r);
            } else if (m.matches()) {
                (m.group(1) == null ? ycsbFixed : ycsbLong).computeIfAbsent(Double.parseDouble(m.group(2)), k -> new ArrayList<>()).add(r);
            }
        }
        if (!ycsbFixed.isEmpty()) {
            Map<String, Object> fig6 = YcsbTunerRuns.fig6(ycsbFixed, ycsbLong, ycsbTuner, dir.resolve("fig6-ycsb.png"));
            write(dir.resolve("fig6-ycsb.json"), fig6);
            System.out.println(new ObjectMapper().writeValueAsString(fig6.get("summary")));
        }
        if (!ycsbTuner.isEmpty()) {
            String name = ycsbTuner.stream().allMatch(r -> r.datasets() == 1) ? "fig12" : "fig6-ycsb-tuner";
            Map<String, Object> cycles = YcsbTunerRuns.fig12(ycsbTuner, dir.resolve(name + ".png"),
                    name.equals("fig12") ? "Fig. 12: " : "Fig. 6 tuner run: ");
            write(dir.resolve(name + ".json"), cycles);
            System.out.println(new ObjectMapper().writeValueAsString(cycles.get("summary")));
        }
        return 0;
    }

    private Map<String, Object> fig13(TreeMap<Double, List<TpccRun>> fixed, List<TpccRun> tuner, double memoryMiB) {
        List<Map<String, Object>> splits = new ArrayList<>();
        double bestX = Double.NaN, bestCost = Double.MAX_VALUE, bestTpmC = 0;
        for (Map.Entry<Double, List<TpccRun>> e : fixed.entrySet()) {
            double cost = mean(e.getValue(), TpccRun::ioCostPerTx), tpmC = mean(e.getValue(), TpccRun::tpmC);
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("writeMemoryMiB", e.getKey());
            s.put("ioCostPerTx", cost);
            s.put("tpmC", tpmC);
            s.put("pagesWrittenPerTx", mean(e.getValue(), TpccRun::pagesWrittenPerTx));
            s.put("pagesReadPerTx", mean(e.getValue(), TpccRun::pagesReadPerTx));
            s.put("runs", e.getValue().stream().map(r -> Map.of("run", r.name(), "ioCostPerTx", r.ioCostPerTx(),
                    "tpmC", r.tpmC())).toList());
            splits.add(s);
            if (cost < bestCost) {
                bestX = e.getKey();
                bestCost = cost;
                bestTpmC = tpmC;
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("totalMemoryMiB", memoryMiB);
        summary.put("bestSplitMiB", bestX);
        summary.put("bestCost", bestCost);
        summary.put("bestTpmC", bestTpmC);
        summary.put("initialSplitMiB", initial);
        summary.put("initialCost", at(fixed, initial, TpccRun::ioCostPerTx));
        summary.put("initialTpmC", at(fixed, initial, TpccRun::tpmC));
        summary.put("halfSplitMiB", memoryMiB / 2);
        summary.put("halfCost", at(fixed, memoryMiB / 2, TpccRun::ioCostPerTx));
        summary.put("halfTpmC", at(fixed, memoryMiB / 2, TpccRun::tpmC));
        List<Map<String, Object>> tuned = new ArrayList<>();
        for (TpccRun t : tuner) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("run", t.name());
            s.put("ioCostPerTx", t.ioCostPerTx());
            s.put("tpmC", t.tpmC());
            s.put("costOverBest", t.ioCostPerTx() / bestCost);
            s.put("tpmCOverBest", t.tpmC() / bestTpmC);
            s.put("costTargetMet", t.ioCostPerTx() <= COST_TARGET * bestCost);
            s.put("tpmCTargetMet", t.tpmC() >= TPMC_TARGET * bestTpmC);
            s.put("startMiB", t.initialWriteMemoryMiB());
            s.put("finalMiB", t.finalWriteMemoryMiB());
            s.put("cycles", t.cycles().size());
            s.put("steps", t.cycles().stream().filter(c -> c.xAfterMiB() != c.xBeforeMiB()).count());
            tuned.add(s);
        }
        summary.put("tuner", tuned);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("summary", summary);
        out.put("splits", splits);
        out.put("tunerCycles", tuner.stream().map(t -> Map.of("run", t.name(), "cycles", t.cycles())).toList());
        return out;
    }

    private Map<String, Object> fig14(TpccRun switching, TreeMap<Double, List<TpccRun>> readMostly) {
        double optimumX = Double.NaN, optimum = Double.NaN;
        List<Map<String, Object>> splits = new ArrayList<>();
        for (Map.Entry<Double, List<TpccRun>> e : readMostly.entrySet()) {
            double cost = e.getValue().stream().mapToDouble(r -> r.meanCycleCost(warmup, Double.MAX_VALUE)).average().orElse(Double.NaN);
            splits.add(Map.of("writeMemoryMiB", e.getKey(), "meanCycleCost", cost,
                    "ioCostPerTx", mean(e.getValue(), TpccRun::ioCostPerTx), "tpmC", mean(e.getValue(), TpccRun::tpmC)));
            if (!Double.isNaN(cost) && (Double.isNaN(optimum) || cost < optimum)) {
                optimum = cost;
                optimumX = e.getKey();
            }
        }
        double at = switching.switchAtSeconds();
        List<TpccRun.Cycle> after = switching.cycles().stream().filter(c -> c.seconds() > at).toList();
        int within = -1;
        for (int i = 0; i < after.size(); i++) {
            if (after.get(i).cost() <= SWITCH_TARGET * optimum) {
                within = i + 1;
                break;
            }
        }
        int withinAveraged = -1;
        for (int i = 2; i < after.size(); i++) {
            double avg = (after.get(i).cost() + after.get(i - 1).cost() + after.get(i - 2).cost()) / 3;
            if (avg <= SWITCH_TARGET * optimum) {
                withinAveraged = i + 1;
                break;
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("switchAtSeconds", at);
        summary.put("optimumSplitMiB", optimumX);
        summary.put("optimumCost", optimum);
        summary.put("beforeSwitchMeanCost", switching.meanCycleCost(warmup, at));
        summary.put("cyclesAfterSwitch", after.size());
        summary.put("firstCycleWithin5Percent", within);
        summary.put("targetMet", within > 0 && within <= SWITCH_CYCLES);
        summary.put("firstCycleWithin5PercentOver3Cycles", withinAveraged);
        summary.put("targetMetOver3Cycles", withinAveraged > 0 && withinAveraged <= SWITCH_CYCLES);
        summary.put("lastTenCyclesMeanCost", after.isEmpty() ? Double.NaN
                : after.subList(Math.max(0, after.size() - 10), after.size()).stream().mapToDouble(TpccRun.Cycle::cost).average().orElse(Double.NaN));
        summary.put("finalMiB", switching.finalWriteMemoryMiB());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("summary", summary);
        out.put("readMostlySplits", splits);
        double opt = optimum;
        out.put("afterSwitch", after.stream().map(c -> Map.of("seconds", c.seconds(), "writeMemoryMiB", c.xBeforeMiB(),
                "cost", c.cost(), "costOverOptimum", c.cost() / opt, "reason", c.reason())).toList());
        out.put("cycles", switching.cycles());
        return out;
    }

    private static double mean(List<TpccRun> runs, java.util.function.ToDoubleFunction<TpccRun> f) {
        return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }

    private static Double at(TreeMap<Double, List<TpccRun>> fixed, double x, java.util.function.ToDoubleFunction<TpccRun> f) {
        List<TpccRun> runs = fixed.get(x);
        return runs == null ? null : mean(runs, f);
    }

    private static void write(Path file, Object value) throws IOException {
        Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value));
    }
}
