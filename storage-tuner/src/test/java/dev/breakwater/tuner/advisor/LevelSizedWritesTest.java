package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The write term of session 9: merge writes that follow the write memory within a level count
 * (N = 10^6 entries of 100 bytes, D = 10^8 bytes, pages of 4,000 bytes: B = 40, f_seq = f_a = 1).
 */
class LevelSizedWritesTest {

    private static final Environment ENV = new Environment(1_000_000, 100, 4000, 200_000_000, 4e-5, 1, 1, true, true);
    private static final LsmCostModel STEP = new LsmCostModel(ENV, EngineShape.BREAKWATER.withLevelSizedWrites(false));
    private static final LsmCostModel SIZED = new LsmCostModel(ENV, EngineShape.BREAKWATER);

    @Test
    void workedExample() {
        // m = D/49 = 2,040,816.3: 9m < D <= 99m, so L = 2 at T = 10; L_c = ln(49 + 1)/ln 10 = 1.69897.
        // Slides' U = (1 + 1)/40 · 2 levels · (10 − 1 + 1)/2 = 0.5; level-sized U = 0.5 · L_c / L.
        Design d = Design.uniform(2_040_817, 10, 10, 1);
        assertEquals(2, SIZED.levels(d));
        double lc = Math.log(1e8 / 2_040_817 + 1) / Math.log(10);
        assertEquals(1.69897, lc, 1e-5);
        assertEquals(lc, SIZED.continuousLevels(d), 1e-12);
        assertEquals(0.5, STEP.costs(d).u(), 1e-12);
        assertEquals(0.5 * lc / 2, SIZED.costs(d).u(), 1e-12);
        // reads are the same model either way
        assertEquals(STEP.costs(d).z1(), SIZED.costs(d).z1(), 1e-15);
        assertEquals(STEP.costs(d).q(), SIZED.costs(d).q(), 1e-15);
    }

    @Test
    void mergeCostFallsWithWriteMemoryWithinALevelCountAndMatchesTheStepAtBreakpoints() {
        for (int t : new int[] {3, 10, 20}) {
            for (int k : new int[] {1, t - 1}) {
                for (int levels = 1; levels <= 4; levels++) {
                    long lo = SIZED.minWriteMemoryFor(levels, t);
                    long hi = levels == 1 ? 150_000_000 : SIZED.minWriteMemoryFor(levels - 1, t) - 1;
                    if (lo > hi || lo < 100_000 || lo + 1e6 > ENV.totalMemoryBytes()) { // breakpoints of 100 kB and more: rounding to a byte stays under 1e-5
                        continue;
                    }
                    Design first = Design.uniform(lo, 0, t, k);
                    assertEquals(STEP.costs(first).u(), SIZED.costs(first).u(), 1e-5 * STEP.costs(first).u(),
                            "at the breakpoint (rounded up to a byte) L_c = L: " + first);
                    double prev = Double.POSITIVE_INFINITY;
                    for (int i = 0; i <= 10; i++) {
                        Design d = Design.uniform(lo + (hi - lo) * i / 10, 0, t, k);
                        assertEquals(levels, SIZED.levels(d));
                        double u = SIZED.costs(d).u();
                        assertTrue(u <= prev + 1e-15, "U never rises with m within L = " + levels + ": " + d);
                        assertTrue(u <= STEP.costs(d).u() + 1e-12, "L_c <= L: " + d);
                        assertEquals(STEP.costs(d).u(), STEP.costs(first).u(), 1e-12, "the slides' U is a step");
                        prev = u;
                    }
                    if (levels >= 2) {
                        assertTrue(prev < STEP.costs(first).u(), "within two or more levels U really falls: T=" + t + " L=" + levels);
                    } else {
                        assertEquals(STEP.costs(first).u(), prev, 1e-12, "one level is the floor (the tuner's guard)");
                    }
                }
            }
        }
    }

    @Test
    void theSearchTriesSizesBetweenBreakpointsOnlyWhenTheyMatter() {
        Environment small = new Environment(1_000_000, 100, 4000, 64L << 20, 4e-5, 1, 1, true, true);
        DesignSpace space = DesignSpace.defaults().withSizeRatios(10, 10).levelingOnlySpace();
        List<Design> step = space.candidates(new LsmCostModel(small, EngineShape.BREAKWATER.withLevelSizedWrites(false)));
        List<Design> sized = space.candidates(new LsmCostModel(small, EngineShape.BREAKWATER));
        assertTrue(sized.size() > step.size() + 50, step.size() + " vs " + sized.size());
        assertTrue(sized.containsAll(step), "the breakpoints stay candidates");
        assertTrue(sized.stream().allMatch(d -> d.runs(1) == 1 && d.sizeRatio() == 10));
        assertTrue(sized.stream().anyMatch(d -> d.writeMemoryBytes() == 30L << 20), "a 1 MiB grid");
        assertEquals(1L << 20, DesignSpace.gridStep(64L << 20));
        assertEquals(16L << 20, DesignSpace.gridStep(1L << 30));
    }

    @Test
    void aWriteHeavyWorkloadGetsMoreWriteMemoryThanTheStepModelGives() {
        // the step model can only pick breakpoints; with merges falling between them a write-heavy mix moves past one
        // (10^9 bytes of data: one level at T = 10 would need 111 MB of write memory, more than there is)
        Environment env = new Environment(10_000_000, 100, 4000, 64L << 20, 4e-6, 1, 1, true, true);
        DesignSpace space = DesignSpace.defaults().withSizeRatios(10, 10).levelingOnlySpace().withFloors(1L << 20, 1L << 20);
        Workload w = new Workload(0, 0.2, 0, 0.8);
        Advice step = new DesignAdvisor(new LsmCostModel(env, EngineShape.BREAKWATER.withLevelSizedWrites(false)), space).nominal(w, 0);
        Advice sized = new DesignAdvisor(new LsmCostModel(env, EngineShape.BREAKWATER), space).nominal(w, 0);
        assertTrue(sized.design().writeMemoryBytes() > step.design().writeMemoryBytes(), step.design() + " vs " + sized.design());
        LsmCostModel model = new LsmCostModel(env, EngineShape.BREAKWATER);
        for (Design d : space.candidates(model)) {
            assertTrue(model.cost(w, d) >= sized.expectedCost() - 1e-12, d + " beats the advice");
        }
    }

    @Test
    void robustSearchStillMatchesBruteForceWithBothNewTerms() {
        Environment env = new Environment(300_000, 1500, 16384, 64L << 20, 100.0 / 300_000, 1, 2, true, true, 0.99);
        LsmCostModel model = new LsmCostModel(env, EngineShape.BREAKWATER);
        DesignSpace space = DesignSpace.defaults().withSizeRatios(6, 10).withFloors(4L << 20, 4L << 20);
        DesignAdvisor advisor = new DesignAdvisor(model, space);
        Workload w = new Workload(0, 0.7, 0, 0.3);
        double bestRobust = Double.POSITIVE_INFINITY;
        double bestNominal = Double.POSITIVE_INFINITY;
        for (Design d : space.candidates(model)) {
            OperationCosts c = model.costs(d);
            bestNominal = Math.min(bestNominal, c.cost(w));
            bestRobust = Math.min(bestRobust, RobustCost.worstCase(c.toArray(), w, 0.5).cost());
        }
        Advice r = advisor.robust(w, 0.5);
        Advice n = advisor.nominal(w, 0.5);
        assertEquals(bestNominal, n.expectedCost(), 1e-12);
        assertEquals(bestRobust, r.worstCase().cost(), 1e-12);
        assertTrue(r.worstCase().cost() <= n.worstCase().cost() + 1e-12);
        assertFalse(model.costs(r.design()).u() <= 0);
    }
}
