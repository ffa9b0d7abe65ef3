package dev.breakwater.tuner;

/**
 * One entry of the tuner's history: a cycle, what it measured and what it did. Derivatives are in
 * pages per operation per MiB of write memory (the unit a person can read); costs in weighted pages
 * per operation. Fields of a cycle without a derivative (an empty cycle) are 0.
 *
 * @param timeMillis          wall-clock end of the cycle
 * @param trigger             what started it
 * @param writeMemoryBefore   x during the cycle
 * @param writeMemoryAfter    x after the cycle (as applied)
 * @param cacheBefore         buffer cache during the cycle
 * @param cacheAfter          buffer cache after the cycle (as applied)
 * @param costPrimePerMiB     cost'(x)
 * @param writePrimePerMiB    write'(x), eq. 5
 * @param simulatedPrimePerMiB (saved_q + saved_m) / sim, the first term of eq. 6
 * @param mergeReadPrimePerMiB write'(x)·read_m/merge, the second term of eq. 6
 * @param queryLevelsPrimePerMiB query reads saved by fewer disk levels (0 with {@code tuner-query-levels} off)
 * @param cost                ω·write(x) + γ·read(x)
 * @param writeCost           pages written per operation
 * @param readCost            pages read per operation
 * @param ops                 operations in the cycle
 * @param reason              why this step or none
 * @param expectedGain        cost reduction the step expected
 */
public record TuningCycle(long timeMillis, CycleTrigger trigger, long writeMemoryBefore, long writeMemoryAfter,
                          long cacheBefore, long cacheAfter, double costPrimePerMiB, double writePrimePerMiB,
                          double simulatedPrimePerMiB, double mergeReadPrimePerMiB, double queryLevelsPrimePerMiB,
                          double cost, double writeCost,
                          double readCost, long ops, StepReason reason, double expectedGain) {

    private static final double MIB = 1024.0 * 1024.0;

    /** The history entry for {@code decision}, with the split that was actually applied. */
    public static TuningCycle of(long timeMillis, CycleTrigger trigger, TuningSample sample, TuningDecision decision,
                                 long writeMemoryAfter, long cacheAfter) {
        CostDerivative d = decision.derivative();
        return new TuningCycle(timeMillis, trigger, sample.writeMemoryBytes(), writeMemoryAfter, sample.cacheBytes(),
                cacheAfter, d == null ? 0 : d.costPrime() * MIB, d == null ? 0 : d.writePrime() * MIB,
                d == null ? 0 : d.simulatedPrime() * MIB, d == null ? 0 : d.mergeReadPrime() * MIB,
                d == null ? 0 : d.queryLevelsPrime() * MIB,
                d == null ? 0 : d.cost(), d == null ? 0 : d.writeCost(), d == null ? 0 : d.readCost(), sample.ops(),
                decision.reason(), decision.expectedGain());
    }

    /** One line for the log. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "tuner cycle (%s): write memory %.1f -> %.1f MiB, cache %.1f -> %.1f MiB, %s; cost %.4f pages/op "
                        + "(write %.4f, read %.4f), cost' %.3g/MiB (write' %.3g, sim %.3g, merge-read %.3g, query-levels %.3g), %d ops",
                trigger, writeMemoryBefore / MIB, writeMemoryAfter / MIB, cacheBefore / MIB, cacheAfter / MIB, reason,
                cost, writeCost, readCost, costPrimePerMiB, writePrimePerMiB, simulatedPrimePerMiB, mergeReadPrimePerMiB,
                queryLevelsPrimePerMiB, ops);
    }
}
