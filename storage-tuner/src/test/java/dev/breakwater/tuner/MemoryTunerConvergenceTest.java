package dev.breakwater.tuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The controller on a known convex cost (see {@link Synthetic}): it reaches the minimum from either
 * side within a stated number of cycles, and noise does not make it oscillate.
 */
class MemoryTunerConvergenceTest {

    private static final long MIB = 1L << 20;
    private static final long TOTAL = 1024 * MIB;

    private static TunerSettings settings() {
        return TunerSettings.paperDefaults(TOTAL, 16 * MIB, 16 * MIB, MIB);
    }

    /** Runs {@code cycles} cycles from {@code x}; returns the final x. */
    private static long run(Synthetic w, MemoryTuner tuner, long x, int cycles) {
        for (int i = 0; i < cycles; i++) {
            x = tuner.decide(w.sample(x)).writeMemoryAfter();
        }
        return x;
    }

    /**
     * From 32 MiB below and 900 MiB above, the tuner is within 2% of the optimum's cost in 25 cycles.
     * Going down is the slow direction: each step may take at most 10% of write memory, so 900 to
     * 120 MiB alone needs ln(900/120)/ln(1/0.9) = 19 steps.
     */
    @ParameterizedTest
    @CsvSource({"32, 300", "900, 300", "32, 700", "900, 120", "200, 200"})
    void convexCostConvergesFromBothSides(long startMiB, long optimumMiB) {
        Synthetic w = new Synthetic(TOTAL, optimumMiB * MIB, 0, 1);
        MemoryTuner tuner = new MemoryTuner(settings());
        long x = run(w, tuner, startMiB * MIB, 25);
        double best = w.cost(optimumMiB * MIB);
        assertTrue(w.cost(x) <= best * 1.02, "x=" + x / MIB + " MiB, cost " + w.cost(x) + " vs best " + best);
        assertTrue(Math.abs(x - optimumMiB * MIB) <= 0.05 * TOTAL, "x=" + x / MIB + " MiB, optimum " + optimumMiB);
        // and it stays there: the next cycles take no step or only small ones
        long later = run(w, tuner, x, 10);
        assertTrue(Math.abs(later - x) <= 0.02 * TOTAL, x / MIB + " -> " + later / MIB);
    }

    /** With 20% noise on every count, x settles near the optimum and rarely reverses direction. */
    @ParameterizedTest
    @CsvSource({"32, 1", "900, 2", "300, 3"})
    void noisyCostDoesNotOscillate(long startMiB, long seed) {
        long optimum = 300 * MIB;
        Synthetic w = new Synthetic(TOTAL, optimum, 0.2, seed);
        MemoryTuner tuner = new MemoryTuner(settings());
        long x = run(w, tuner, startMiB * MIB, 20);
        int steps = 0;
        int reversals = 0;
        long lastDelta = 0;
        long min = x;
        long max = x;
        for (int i = 0; i < 60; i++) {
            TuningDecision d = tuner.decide(w.sample(x));
            if (d.delta() != 0) {
                steps++;
                if (lastDelta != 0 && Long.signum(d.delta()) != Long.signum(lastDelta)) {
                    reversals++;
                }
                lastDelta = d.delta();
            }
            x = d.writeMemoryAfter();
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        assertTrue(max - min <= 0.15 * TOTAL, "x wandered over " + (max - min) / MIB + " MiB");
        assertTrue(reversals <= 6, reversals + " reversals in " + steps + " steps over 60 cycles");
        assertTrue(w.cost(x) <= w.cost(optimum) * 1.05, "ended at " + x / MIB + " MiB");
    }

    @ParameterizedTest
    @CsvSource({"100", "500"})
    void syntheticSampleReproducesItsDerivative(long xMiB) {
        Synthetic w = new Synthetic(TOTAL, 300 * MIB, 0, 1);
        CostDerivative d = CostModel.derive(w.sample(xMiB * MIB), 1, 1, 10);
        assertEquals(w.costPrime(xMiB * MIB), d.costPrime(), Math.abs(w.costPrime(xMiB * MIB)) * 1e-3);
        assertEquals(w.cost(xMiB * MIB), d.cost(), w.cost(xMiB * MIB) * 1e-3);
    }
}
