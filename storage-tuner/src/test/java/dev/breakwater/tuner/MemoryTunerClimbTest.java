package dev.breakwater.tuner;

import static dev.breakwater.tuner.Synthetic.withCostPrime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The climb of {@link MemoryTuner} ({@link StepReason#CLIMB}) against the paper's rules alone, on
 * TPC-C at 64 MiB made synthetic (docs/benchmarks-tuner.md, fifth session): write memory from 16
 * (or 48) MiB, cost'(x) = A·(x − optimum) with A = 0.00005/MiB per MiB (−0.0008/MiB at 16 MiB for
 * an optimum at 32, about what the recorded TPC-C cycles averaged between 16 and 26 MiB) plus
 * Gaussian noise per cycle of 0.0004/MiB (their spread) or 0.0009/MiB (the first session's), over
 * 100 seeds. The engine's settings at 64 MiB: 1 MiB chunks, fixed step 3.2 MiB, and the limit of
 * 10% of the shrinking region, which caps every step near 4–5 MiB here: no controller bound by it
 * gets from 16 to within 3 MiB of 32 in fewer than 4 cycles.
 */
class MemoryTunerClimbTest {

    private static final long MIB = 1L << 20;
    private static final long TOTAL = 64 * MIB;
    private static final double A = 0.00005;
    private static final double COST = 0.15;
    private static final int SEEDS = 100;
    private static final int CYCLES = 60;

    private static TunerSettings engine() {
        return TunerSettings.paperDefaults(TOTAL, 5 * MIB, 4 * MIB, MIB);
    }

    private static TunerSettings paperRules() {
        return engine().withClimb(0, TunerSettings.DEFAULT_MAX_STEP);
    }

    /** One run's summary. */
    private record Path(int reach, int reversals, long min, long max, double excess) {
    }

    /**
     * {@code CYCLES} noisy cycles from {@code start}; reach is the first cycle after which x is within
     * one fixed step (3 MiB) of the optimum ({@code CYCLES} if never), reversals count direction changes
     * of the steps taken, excess sums (x − optimum)² in MiB² (the cost above the minimum is A/2 times it).
     */
    private static Path run(TunerSettings settings, long start, long optimum, double noise, long seed) {
        MemoryTuner t = new MemoryTuner(settings);
        Random r = new Random(seed);
        long x = start;
        int reach = CYCLES;
        int reversals = 0;
        long last = 0;
        long min = x;
        long max = x;
        double excess = 0;
        for (int i = 0; i < CYCLES; i++) {
            double c = (A * (x - optimum) / MIB + noise * r.nextGaussian()) / MIB;
            TuningDecision d = t.decide(withCostPrime(x, TOTAL, c, COST));
            assertTrue(d.delta() == 0 || Math.signum(d.delta()) == -Math.signum(c), "stepped against cost': " + d);
            x = d.writeMemoryAfter();
            assertTrue(x >= 5 * MIB && x <= TOTAL - 4 * MIB, "left the bounds: " + x);
            if (reach == CYCLES && Math.abs(x - optimum) <= 3 * MIB) {
                reach = i + 1;
            }
            if (d.delta() != 0) {
                if (last != 0 && Long.signum(d.delta()) != Long.signum(last)) {
                    reversals++;
                }
                last = d.delta();
            }
            min = Math.min(min, x);
            max = Math.max(max, x);
            excess += Math.pow((x - optimum) / (double) MIB, 2);
        }
        return new Path(reach, reversals, min, max, excess);
    }

    /** Mean reach, mean and largest reversals, mean excess, over the seeds. */
    private static double[] summary(TunerSettings settings, long start, long optimum, double noise) {
        double reach = 0;
        double reversals = 0;
        double maxReversals = 0;
        double excess = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Path p = run(settings, start, optimum, noise, seed);
            reach += p.reach();
            reversals += p.reversals();
            maxReversals = Math.max(maxReversals, p.reversals());
            excess += p.excess();
        }
        return new double[] {reach / SEEDS, reversals / SEEDS, maxReversals, excess / SEEDS};
    }

    /**
     * On noisy cost' the climb reaches the optimum sooner, on average over 100 seeds, than the paper's
     * rules, which fail the same bound (checked here too), and over 60 cycles its split costs less:
     * the summed (x − optimum)² is lower. Measured (paper's rules → climb), mean cycles to within 3 MiB:
     * 16→32 MiB at σ 0.0004: 10.5 → 8.3; 16→40: 13.2 → 12.4; at σ 0.0009: 26.8 → 22.3 and
     * 28.6 → 26.0; shrinking 48→32: 9.3 → 7.6 and 23.1 → 14.9. Not the half the fifth session
     * hoped for: the 10% limit of the shrinking region caps every step here at 4–5 MiB (16→29 MiB, within 3 MiB of 32,
     * takes at least 4 steps), and near the optimum the climb needs two cycles beyond one σ.
     */
    @ParameterizedTest
    @CsvSource({"16, 32, 0.0004, 9.5", "16, 40, 0.0004, 12.8", "16, 32, 0.0009, 24.5", "16, 40, 0.0009, 27.5",
            "48, 32, 0.0004, 8.5", "48, 32, 0.0009, 19"})
    void noisyClimbReachesTheOptimumSoonerAndCostsLess(long start, long optimum, double noise, double bound) {
        double[] old = summary(paperRules(), start * MIB, optimum * MIB, noise);
        double[] now = summary(engine(), start * MIB, optimum * MIB, noise);
        String both = String.format("reach %.1f -> %.1f, reversals %.1f (max %.0f) -> %.1f (max %.0f), excess %.0f -> %.0f",
                old[0], now[0], old[1], old[2], now[1], now[2], old[3], now[3]);
        assertTrue(now[0] <= bound, "climb: " + both);
        assertTrue(old[0] > bound, "the paper's rules meet the bound too: " + both);
        assertTrue(now[3] < old[3], "the climb's split costs more: " + both);
    }

    /**
     * The climb does not make the split oscillate: over 60 noisy cycles and 100 seeds, at most 6
     * direction changes on average and 16 in the worst seed (the paper's rules: 2.2–4.2 on average,
     * up to 20), and after cycle 40 no seed is more than 12 MiB from the optimum.
     */
    @ParameterizedTest
    @CsvSource({"16, 32, 0.0004", "16, 40, 0.0004", "16, 32, 0.0009", "16, 40, 0.0009", "48, 32, 0.0004", "48, 32, 0.0009"})
    void noisyClimbDoesNotOscillate(long start, long optimum, double noise) {
        double[] now = summary(engine(), start * MIB, optimum * MIB, noise);
        assertTrue(now[1] <= 6 && now[2] <= 16, String.format("reversals %.1f, max %.0f", now[1], now[2]));
        for (long seed = 1; seed <= SEEDS; seed++) {
            MemoryTuner t = new MemoryTuner(engine());
            Random r = new Random(seed);
            long x = start * MIB;
            for (int i = 0; i < CYCLES; i++) {
                double c = (A * (x - optimum * MIB) / MIB + noise * r.nextGaussian()) / MIB;
                x = t.decide(withCostPrime(x, TOTAL, c, COST)).writeMemoryAfter();
                if (i >= 40) {
                    assertTrue(Math.abs(x - optimum * MIB) <= 12 * MIB, "seed " + seed + " cycle " + i + ": " + x / MIB);
                }
            }
        }
    }

    /** Without noise the climb is never slower than the paper's rules and overshoots by at most one fixed step. */
    @ParameterizedTest
    @CsvSource({"16, 32", "16, 40", "48, 32"})
    void noiseFreeClimbIsNeverSlower(long start, long optimum) {
        Path old = run(paperRules(), start * MIB, optimum * MIB, 0, 1);
        Path now = run(engine(), start * MIB, optimum * MIB, 0, 1);
        assertTrue(now.reach() <= old.reach(), now + " vs " + old);
        assertTrue(now.max() <= Math.max(start, optimum) * MIB + 3 * MIB && now.min() >= Math.min(start, optimum) * MIB - 3 * MIB,
                now.toString());
    }

    /**
     * A climb doubles the previous cycle's step while cost' keeps its sign, up to 25% of total memory,
     * and stops at the bound: 1 GiB, the decrease limit raised to 90% so that the cap shows.
     */
    @Test
    void aClimbDoublesItsStepUpToTheCapAndStopsAtTheBound() {
        long total = 1024 * MIB;
        MemoryTuner t = new MemoryTuner(new TunerSettings(1, 1, 3, 0.05, 0.9, 8 * MIB, 0.001, 16 * MIB, 16 * MIB, MIB, 10,
                false, 2, 0.25));
        long x = 100 * MIB;
        long[] expected = {151, 253, 457, 713, 969, 1008, 1008};
        StepReason[] reasons = {StepReason.FALLBACK_FEW_SAMPLES, StepReason.CLIMB, StepReason.CLIMB, StepReason.CLIMB,
                StepReason.CLIMB, StepReason.CLIMB, StepReason.STOP_AT_BOUND};
        for (int i = 0; i < expected.length; i++) {
            TuningDecision d = t.decide(withCostPrime(x, total, -1e-9, 1));
            assertEquals(reasons[i], d.reason(), "cycle " + i);
            assertEquals(expected[i] * MIB, d.writeMemoryAfter(), "cycle " + i);
            x = d.writeMemoryAfter();
        }
    }

    /**
     * With σ known (about 0.0005/MiB here), a mean cost' at one x within noise of zero holds the split,
     * with the paper's rules and with the climb; two cycles in a row beyond one σ on the same side
     * climb (the paper's rules still hold: the mean of the eight cycles at 22 MiB is within noise);
     * two cycles of one sign with the last within one σ still hold.
     */
    @Test
    void theNoiseHoldYieldsOnlyToCyclesBeyondTheBand() {
        double[] around = {-0.0005, 0.0005, -0.0005, 0.0005, -0.0005, 0.0005, -0.0006};
        MemoryTuner held = new MemoryTuner(engine());
        MemoryTuner climbs = new MemoryTuner(engine());
        MemoryTuner paper = new MemoryTuner(paperRules());
        MemoryTuner[] all = {held, climbs, paper};
        for (MemoryTuner t : all) {
            assertEquals(22 * MIB, t.decide(withCostPrime(24 * MIB, TOTAL, 0.0004 / MIB, COST)).writeMemoryAfter());
        }
        long x = 22 * MIB;
        for (double c : around) {
            for (MemoryTuner t : all) {
                assertEquals(StepReason.STOP_WITHIN_NOISE, t.decide(withCostPrime(x, TOTAL, c / MIB, COST)).reason());
            }
        }
        assertEquals(StepReason.STOP_WITHIN_NOISE, held.decide(withCostPrime(x, TOTAL, -0.0001 / MIB, COST)).reason());
        assertEquals(StepReason.STOP_WITHIN_NOISE, paper.decide(withCostPrime(x, TOTAL, -0.0006 / MIB, COST)).reason());
        TuningDecision strong = climbs.decide(withCostPrime(x, TOTAL, -0.0006 / MIB, COST));
        assertEquals(StepReason.CLIMB, strong.reason());
        assertEquals(25 * MIB, strong.writeMemoryAfter()); // the fixed 3.2 MiB: the previous cycle held
    }
}
