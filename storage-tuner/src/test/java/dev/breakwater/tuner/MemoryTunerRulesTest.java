package dev.breakwater.tuner;

import static dev.breakwater.tuner.Synthetic.withCostPrime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each fallback, limit and stop rule of {@link MemoryTuner}, on samples with a chosen cost'(x). */
class MemoryTunerRulesTest {

    private static final long MIB = 1L << 20;
    private static final long TOTAL = 1024 * MIB;
    /** A cost'(x) of this size (per byte) is one "unit" below. */
    private static final double UNIT = 1e-9;

    private static TunerSettings settings() {
        return TunerSettings.paperDefaults(TOTAL, 16 * MIB, 16 * MIB, MIB); // min step 8 MiB, min gain 0.1%
    }

    private static MemoryTuner tuner() {
        return new MemoryTuner(settings());
    }

    /** The paper's rules without the climb: what the fallbacks below do when no climb overrides them. */
    private static MemoryTuner paperRules() {
        return new MemoryTuner(settings().withClimb(0, TunerSettings.DEFAULT_MAX_STEP));
    }

    @Test
    void firstCycleTakesTheFixedFivePercentStepAgainstTheDerivative() {
        TuningDecision grow = tuner().decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1));
        assertEquals(StepReason.FALLBACK_FEW_SAMPLES, grow.reason());
        assertEquals(351 * MIB, grow.writeMemoryAfter()); // 5% of 1 GiB = 51.2 MiB, in whole MiB towards x
        TuningDecision shrink = tuner().decide(withCostPrime(600 * MIB, TOTAL, UNIT, 1));
        assertEquals(StepReason.FALLBACK_FEW_SAMPLES, shrink.reason());
        assertEquals(549 * MIB, shrink.writeMemoryAfter());
    }

    @Test
    void newtonStepLandsOnTheRootOfTheFittedLine() {
        MemoryTuner t = tuner();
        long root = 500 * MIB;
        double a = UNIT / (100 * MIB); // cost'(x) = a·(x − root)
        for (long x : new long[] {300 * MIB, 400 * MIB}) {
            t.decide(withCostPrime(x, TOTAL, a * (x - root), 1));
        }
        TuningDecision d = t.decide(withCostPrime(450 * MIB, TOTAL, a * (450 * MIB - root), 1));
        assertEquals(StepReason.NEWTON, d.reason());
        assertEquals(root, d.writeMemoryAfter(), MIB);
        assertEquals(a, d.slope(), a * 1e-3);
    }

    /** Samples piled up at one x (after stop decisions) do not determine a slope: the last fitted one is reused. */
    @Test
    void samplesAtOneXReuseTheLastFittedSlope() {
        MemoryTuner t = tuner();
        long root = 500 * MIB;
        double a = UNIT / (100 * MIB);
        for (long x : new long[] {300 * MIB, 400 * MIB, 440 * MIB}) {
            t.decide(withCostPrime(x, TOTAL, a * (x - root), 1));
        }
        double c = a * 20 * MIB; // at 500 MiB the measured cost' says the root is 20 MiB lower
        assertEquals(StepReason.NEWTON, t.decide(withCostPrime(root, TOTAL, c, 1)).reason());
        TuningDecision fitted = t.decide(withCostPrime(root, TOTAL, c, 1)); // window: 440, 500, 500 (spread > one fixed step)
        assertEquals(StepReason.NEWTON, fitted.reason());
        TuningDecision d = t.decide(withCostPrime(root, TOTAL, c, 1)); // window: 500, 500, 500
        assertEquals(StepReason.NEWTON_LAST_SLOPE, d.reason());
        assertEquals(fitted.slope(), d.slope());
        assertEquals(root - c / d.slope(), d.writeMemoryAfter(), MIB);
        assertTrue(d.writeMemoryAfter() < root);
    }

    /**
     * A flat fit falls back to the fixed step; with the climb on, the two cycles agreeing in sign climb
     * instead: twice the previous cycle's 51 MiB step, limited to 10% of the 624 MiB cache.
     */
    @Test
    void flatFitFallsBackToTheFixedStep() {
        MemoryTuner t = paperRules();
        t.decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1));
        TuningDecision d = t.decide(withCostPrime(400 * MIB, TOTAL, -UNIT, 1));
        assertEquals(StepReason.FALLBACK_FLAT_FIT, d.reason());
        assertEquals(451 * MIB, d.writeMemoryAfter());
        MemoryTuner climbing = tuner();
        climbing.decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1));
        TuningDecision c = climbing.decide(withCostPrime(400 * MIB, TOTAL, -UNIT, 1));
        assertEquals(StepReason.CLIMB, c.reason());
        assertEquals(462 * MIB, c.writeMemoryAfter());
        assertTrue(c.limited());
    }

    @Test
    void fallingDerivativeFallsBackToTheFixedStep() {
        MemoryTuner t = paperRules();
        t.decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1));
        TuningDecision d = t.decide(withCostPrime(400 * MIB, TOTAL, -2 * UNIT, 1));
        assertEquals(StepReason.FALLBACK_WRONG_SIGN, d.reason());
        assertEquals(451 * MIB, d.writeMemoryAfter());
        MemoryTuner climbing = tuner();
        climbing.decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1));
        assertEquals(StepReason.CLIMB, climbing.decide(withCostPrime(400 * MIB, TOTAL, -2 * UNIT, 1)).reason());
    }

    /**
     * The line through (300, −2), (400, −1), (400, +3) has value +1 at 400 and slope 0.03/MiB; the
     * Newton step for this cycle's +3 would go 100 MiB down, past where the line says cost stops
     * falling, so the tuner takes the fixed step (limited to 10% of write memory) instead.
     */
    @Test
    void newtonStepThatTheLineSaysRaisesCostFallsBack() {
        MemoryTuner t = tuner();
        double unitPerMiB = 1e-12; // per byte; large enough to survive rounding to whole pages
        t.decide(withCostPrime(300 * MIB, TOTAL, -2 * unitPerMiB, 0.001));
        t.decide(withCostPrime(400 * MIB, TOTAL, -unitPerMiB, 0.001));
        TuningDecision d = t.decide(withCostPrime(400 * MIB, TOTAL, 3 * unitPerMiB, 0.001));
        assertEquals(StepReason.FALLBACK_NO_GAIN, d.reason());
        assertEquals(360 * MIB, d.writeMemoryAfter());
        assertTrue(d.limited());
    }

    @Test
    void aStepTakesAtMostTenPercentOfTheRegionThatShrinks() {
        TuningDecision fromWrite = tuner().decide(withCostPrime(100 * MIB, TOTAL, UNIT, 1));
        assertEquals(90 * MIB, fromWrite.writeMemoryAfter());
        assertTrue(fromWrite.limited());
        TuningDecision fromCache = new MemoryTuner(settings().withMinStep(MIB)).decide(withCostPrime(980 * MIB, TOTAL, -UNIT, 1));
        assertEquals(984 * MIB, fromCache.writeMemoryAfter()); // cache 44 MiB: at most 4.4 MiB of it
        assertTrue(fromCache.limited());
    }

    /**
     * Ten percent of a small region is less than the minimum step (here 10% of 60 MiB < 8 MiB): the
     * limit must not turn every step into one too small to take, or the split freezes far above the
     * floor. At 64 MiB total with 1 MiB granules, write memory shrinking from 16 MiB would stop at 9 MiB.
     */
    @Test
    void theLimitNeverCutsAStepBelowTheMinimumStep() {
        MemoryTuner t = tuner();
        long x = 60 * MIB;
        for (int cycle = 0; cycle < 20; cycle++) {
            TuningDecision d = t.decide(withCostPrime(x, TOTAL, UNIT, 1));
            assertTrue(x - d.writeMemoryAfter() <= Math.max(8 * MIB, x / 10), "at most 10% of write memory or the minimum step");
            x = d.writeMemoryAfter();
        }
        // within one minimum step of the write floor (16 MiB; a last step of 4 MiB to it is under the
        // minimum step); before, the limit of 6 MiB stopped every step and x stayed at 60 MiB
        assertEquals(20 * MIB, x);
    }

    @Test
    void floorsBoundTheSplit() {
        MemoryTuner t = new MemoryTuner(new TunerSettings(1, 1, 3, 0.05, 0.10, MIB, 0.001, 19 * MIB, 16 * MIB, MIB, 10));
        TuningDecision clamped = t.decide(withCostPrime(20 * MIB, TOTAL, UNIT, 1));
        assertEquals(19 * MIB, clamped.writeMemoryAfter());
        assertTrue(clamped.clamped());
        TuningDecision atFloor = t.decide(withCostPrime(19 * MIB, TOTAL, UNIT, 1));
        assertEquals(StepReason.STOP_AT_BOUND, atFloor.reason());
        assertEquals(19 * MIB, atFloor.writeMemoryAfter());
        TuningDecision atCacheFloor = tuner().decide(withCostPrime(TOTAL - 16 * MIB, TOTAL, -UNIT, 1));
        assertEquals(StepReason.STOP_AT_BOUND, atCacheFloor.reason());
    }

    @Test
    void stepsUnderTheMinimumStepAreNotTaken() {
        MemoryTuner t = tuner();
        long root = 454 * MIB;
        double a = UNIT / (100 * MIB);
        for (long x : new long[] {300 * MIB, 400 * MIB}) {
            t.decide(withCostPrime(x, TOTAL, a * (x - root), 1e-6));
        }
        TuningDecision d = t.decide(withCostPrime(450 * MIB, TOTAL, a * (450 * MIB - root), 1e-6));
        assertEquals(StepReason.STOP_SMALL_STEP, d.reason()); // 4 MiB < 8 MiB
        assertEquals(450 * MIB, d.writeMemoryAfter());
    }

    @Test
    void stepsWithTooLittleExpectedGainAreNotTaken() {
        // a 51 MiB fixed step at cost' 1e-15/byte gains 5e-8 pages/op, under 0.1% of 1 page/op
        TuningDecision d = tuner().decide(withCostPrime(300 * MIB, TOTAL, -1e-15, 1));
        assertEquals(StepReason.STOP_SMALL_GAIN, d.reason());
        assertEquals(0, d.delta());
        assertEquals(StepReason.FALLBACK_FEW_SAMPLES, new MemoryTuner(settings().withMinGain(0))
                .decide(withCostPrime(300 * MIB, TOTAL, -1e-15, 1)).reason());
    }

    @Test
    void emptyCyclesAndMissingSimulatedCacheTakeNoStepAndLeaveTheWindowAlone() {
        MemoryTuner t = tuner();
        TuningSample empty = new TuningSample(0, List.of(), 0, 0, Synthetic.SIM, 0, 0, 0, 0, Synthetic.PAGE, 300 * MIB, TOTAL);
        assertEquals(StepReason.STOP_EMPTY_CYCLE, t.decide(empty).reason());
        TuningSample noSim = new TuningSample(1000, List.of(), 0, 0, 0, 10, 0, 0, 0, Synthetic.PAGE, 300 * MIB, TOTAL);
        assertEquals(StepReason.STOP_NO_SIMULATED_CACHE, t.decide(noSim).reason());
        TuningSample flat = new TuningSample(1000, List.of(), 0, 0, Synthetic.SIM, 10, 0, 0, 0, Synthetic.PAGE, 300 * MIB, TOTAL);
        assertEquals(StepReason.STOP_ZERO_DERIVATIVE, t.decide(flat).reason());
        // none of them counted as a sample: the next cycle is still the first
        assertEquals(StepReason.FALLBACK_FEW_SAMPLES, t.decide(withCostPrime(300 * MIB, TOTAL, -UNIT, 1)).reason());
    }

    @Test
    void everyDecisionStaysWithinTheBoundsAndTheGranule() {
        Random r = new Random(7);
        MemoryTuner t = tuner();
        long x = 64 * MIB;
        for (int i = 0; i < 2000; i++) {
            double c = (r.nextDouble() - 0.5) * Math.pow(10, -6 - r.nextInt(8));
            TuningDecision d = t.decide(withCostPrime(x, TOTAL, c, r.nextDouble()));
            long after = d.writeMemoryAfter();
            assertTrue(after == x || (after >= 16 * MIB && after <= TOTAL - 16 * MIB && after % MIB == 0), d.toString());
            assertTrue(d.delta() == 0 || Math.signum(d.delta()) == -Math.signum(c), "stepped up the slope: " + d);
            assertFalse(d.reason().isStep() != (d.delta() != 0), d.toString());
            x = after;
        }
    }

    @Test
    void historyKeepsTheLastCycles() {
        TuningHistory h = new TuningHistory(3);
        TuningSample s = withCostPrime(300 * MIB, TOTAL, -UNIT, 1);
        for (int i = 0; i < 5; i++) {
            h.add(TuningCycle.of(i, CycleTrigger.TIMER, s, tuner().decide(s), 300 * MIB, TOTAL - 300 * MIB));
        }
        assertEquals(List.of(2L, 3L, 4L), h.cycles().stream().map(TuningCycle::timeMillis).toList());
        assertEquals(5, h.totalCycles());
    }
}
