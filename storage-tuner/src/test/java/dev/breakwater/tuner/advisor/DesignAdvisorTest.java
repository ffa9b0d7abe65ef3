package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Nominal and robust search over the discrete space, against brute force and each other. */
class DesignAdvisorTest {

    private static final Environment ENV = Environment.slides(1_000_000, 100, 4000, 10_000_000, 4e-5);
    private static final DesignAdvisor ADVISOR = new DesignAdvisor(new LsmCostModel(ENV), DesignSpace.defaults());

    @Test
    void robustEqualsNominalAtZeroRadius() {
        for (Workload w : Workload.expectedWorkloads()) {
            Advice n = ADVISOR.nominal(w, 0);
            Advice r = ADVISOR.robust(w, 0);
            assertEquals(n.expectedCost(), r.expectedCost(), 1e-12, w.toString());
            assertEquals(n.expectedCost(), r.worstCase().cost(), 1e-12);
        }
    }

    @Test
    void robustWorstCaseIsNoWorseThanNominalWorstCase() {
        for (Workload w : Workload.expectedWorkloads()) {
            for (double rho : new double[] {0.5, 2}) {
                Advice n = ADVISOR.nominal(w, rho);
                Advice r = ADVISOR.robust(w, rho);
                assertTrue(r.worstCase().cost() <= n.worstCase().cost() + 1e-12, w + " rho " + rho);
                assertTrue(n.expectedCost() <= r.expectedCost() + 1e-12, "the nominal design is best at w itself");
            }
        }
    }

    @Test
    void searchesMatchBruteForceOverEveryDesign() {
        LsmCostModel model = ADVISOR.model();
        List<Design> all = DesignSpace.defaults().candidates(model);
        Workload w = new Workload(0.33, 0.33, 0.01, 0.33);
        double bestNominal = Double.POSITIVE_INFINITY;
        double bestRobust = Double.POSITIVE_INFINITY;
        for (Design d : all) {
            OperationCosts c = model.costs(d);
            bestNominal = Math.min(bestNominal, c.cost(w));
            bestRobust = Math.min(bestRobust, RobustCost.worstCase(c.toArray(), w, 1.0).cost());
        }
        assertEquals(bestNominal, ADVISOR.nominal(w, 1.0).expectedCost(), 1e-12);
        assertEquals(bestRobust, ADVISOR.robust(w, 1.0).worstCase().cost(), 1e-12);
    }

    @Test
    void writeMemoryCandidatesAreExactForTheStepCost() {
        // between two candidate sizes the level count, hence every cost, is constant; so a fine grid finds nothing better
        LsmCostModel model = ADVISOR.model();
        Workload w = new Workload(0.01, 0.01, 0.49, 0.49);
        Advice n = ADVISOR.nominal(w, 0);
        double best = n.expectedCost();
        for (int t = 2; t <= 20; t += 3) {
            for (int k = 1; k < t; k += 2) {
                for (int h = 0; h <= 16; h += 2) {
                    for (long m = 1 << 20; m <= ENV.totalMemoryBytes(); m += 100_000) {
                        Design d = Design.uniform(m, h, t, k);
                        if (model.feasible(d)) {
                            assertTrue(model.cost(w, d) >= best - 1e-12, d + " beats the advice " + n.design());
                        }
                    }
                }
            }
        }
    }

    @Test
    void tiedWorstCasesGoToTheCheaperExpectedCost() {
        // a ball that reaches the range-read corner: every design's worst case is its Q, which filters do not change;
        // among those, the design with the least expected cost must win, not the first one enumerated (0 bits/key)
        Workload w = new Workload(0.49, 0.01, 0.49, 0.01);
        Advice r = ADVISOR.robust(w, 5.0);
        LsmCostModel model = ADVISOR.model();
        for (Design d : DesignSpace.defaults().candidates(model)) {
            OperationCosts c = model.costs(d);
            double worst = RobustCost.worstCase(c.toArray(), w, 5.0).cost();
            assertTrue(worst >= r.worstCase().cost() - 1e-9 * r.worstCase().cost(), d + " has a lower worst case");
            if (Math.abs(worst - r.worstCase().cost()) <= 1e-9 * r.worstCase().cost()) {
                assertTrue(c.cost(w) >= r.expectedCost() - 1e-12, d + " ties on the worst case and is cheaper at w");
            }
        }
        assertTrue(r.design().bloomBitsPerKey() > 0, "empty reads still want filters: " + r.design());
    }

    @Test
    void levelingAndTieringOnlySpaceIsAsubset() {
        DesignAdvisor lt = new DesignAdvisor(ADVISOR.model(), DesignSpace.defaults().levelingAndTieringOnly());
        for (Workload w : Workload.expectedWorkloads()) {
            Advice a = lt.nominal(w, 0);
            String p = a.design().policyName();
            assertTrue(p.equals("leveling") || p.equals("tiering"), p);
            assertTrue(ADVISOR.nominal(w, 0).expectedCost() <= a.expectedCost() + 1e-12);
        }
    }
}
