package dev.breakwater.bench.advisor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the pages of one kind of read went, summed over the slices of a measurement: buffer-cache
 * accesses and misses, Bloom probes (runs consulted that have a filter), negatives and false
 * positives, and the disk runs the tree had when each slice started. Used to tell which term of
 * the cost model is off (docs/benchmarks-advisor.md).
 *
 * <p>Immutable; thread-safe.
 *
 * @param ops            reads measured
 * @param pages          pages read from disk (buffer-cache misses)
 * @param pins           page accesses (hits plus misses)
 * @param bloomProbes    filter probes
 * @param bloomNegatives probes the filter answered "no"
 * @param bloomFalsePositives probes that said "maybe" for a key the table did not hold
 * @param l0RunsSum      L0 groups at the start of each slice, summed over slices
 * @param levelRunsSum   runs of levels 1 and below at the start of each slice, summed
 * @param slices         slices summed
 */
record ReadBreakdown(long ops, long pages, long pins, long bloomProbes, long bloomNegatives, long bloomFalsePositives,
                     long l0RunsSum, long levelRunsSum, int slices) {

    static final ReadBreakdown EMPTY = new ReadBreakdown(0, 0, 0, 0, 0, 0, 0, 0, 0);

    ReadBreakdown plus(EngineRun.Measure m) {
        return new ReadBreakdown(ops + m.ops(), pages + m.queryPagesRead(), pins + m.queryPins(), bloomProbes + m.bloomProbes(),
                bloomNegatives + m.bloomNegatives(), bloomFalsePositives + m.bloomFalsePositives(), l0RunsSum + m.l0Runs(),
                levelRunsSum + m.levelRuns(), slices + 1);
    }

    /** Pages read per operation. */
    double pagesPerOp() {
        return ops == 0 ? 0 : (double) pages / ops;
    }

    /** Per operation (per slice for the run counts), for the JSON report. */
    Map<String, Double> perOp() {
        Map<String, Double> m = new LinkedHashMap<>();
        double n = Math.max(1, ops);
        m.put("ops", (double) ops);
        m.put("pagesRead", pages / n);
        m.put("pageAccesses", pins / n);
        m.put("missRatio", pins == 0 ? 0 : (double) pages / pins);
        m.put("bloomProbes", bloomProbes / n);
        m.put("bloomNegatives", bloomNegatives / n);
        m.put("bloomFalsePositives", bloomFalsePositives / n);
        m.put("l0Runs", slices == 0 ? 0 : (double) l0RunsSum / slices);
        m.put("levelRuns", slices == 0 ? 0 : (double) levelRunsSum / slices);
        return m;
    }
}
