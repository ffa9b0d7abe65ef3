package dev.breakwater.tuner;

/**
 * What one cycle of {@link MemoryTuner} decided.
 *
 * @param writeMemoryBefore x during the cycle
 * @param writeMemoryAfter  the x to apply (equal to before when no step is taken)
 * @param reason            why this step, or why none
 * @param derivative        the cost model's terms, or null for an empty cycle
 * @param slope             slope A of the fitted line used (pages/op per byte²), NaN if none
 * @param expectedGain      cost reduction the step is expected to bring, pages/op (0 without a step)
 * @param limited           the step was cut to the largest allowed decrease of the shrinking region
 * @param clamped           the step was cut at a floor
 */
public record TuningDecision(long writeMemoryBefore, long writeMemoryAfter, StepReason reason, CostDerivative derivative,
                             double slope, double expectedGain, boolean limited, boolean clamped) {

    /** Bytes moved into write memory (negative: into the buffer cache). */
    public long delta() {
        return writeMemoryAfter - writeMemoryBefore;
    }

    static TuningDecision none(long x, StepReason reason, CostDerivative d) {
        return new TuningDecision(x, x, reason, d, Double.NaN, 0, false, false);
    }
}
