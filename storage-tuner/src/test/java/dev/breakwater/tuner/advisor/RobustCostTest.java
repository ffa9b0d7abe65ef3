package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The dual against the primal: the exponential tilt on the ball, sampled workloads, weak duality. */
class RobustCostTest {

    private static final double[] COSTS = {0.03, 1.02, 4.0, 0.75};

    @Test
    void zeroRadiusIsTheExpectedCost() {
        Workload w = new Workload(0.25, 0.25, 0.25, 0.25);
        assertEquals((0.03 + 1.02 + 4.0 + 0.75) / 4, RobustCost.worstCase(COSTS, w, 0).cost(), 1e-12);
    }

    @Test
    void dualEqualsTheTiltOnTheBoundary() {
        Workload w = new Workload(0.4, 0.3, 0.1, 0.2);
        for (double rho : new double[] {0.01, 0.1, 0.5, 1.0, 2.0}) {
            RobustCost.WorstCase wc = RobustCost.worstCase(COSTS, w, rho);
            Workload t = wc.workload();
            assertEquals(rho, t.klDivergenceFrom(w), 1e-4 * Math.max(1, rho), "the maximizer sits on the ball's boundary");
            assertEquals(wc.cost(), cost(t), 1e-6, "strong duality at rho " + rho);
            assertEquals(wc.cost(), RobustCost.dualObjective(COSTS, w, rho, wc.lambda(), wc.eta()), 1e-6);
        }
    }

    @Test
    void dualBoundsEverySampledWorkloadAndTheSamplesReachIt() {
        Random rnd = new Random(7);
        for (Workload w : Workload.expectedWorkloads()) {
            for (double rho : new double[] {0.1, 0.5, 1.0, 2.0}) {
                double dual = RobustCost.worstCase(COSTS, w, rho).cost();
                for (int s = 0; s < 2000; s++) {
                    Workload x = sampleInBall(rnd, w, rho);
                    assertTrue(x.klDivergenceFrom(w) <= rho + 1e-9);
                    double c = cost(x);
                    assertTrue(c <= dual + 1e-9, "sample " + x + " costs " + c + " above the dual " + dual);
                }
                // brute force: every workload of a 1/100 grid of the simplex that lies in the ball
                double[] pw = w.toArray();
                double best = Double.NEGATIVE_INFINITY;
                for (double[] x : GRID) {
                    double kl = 0;
                    for (int i = 0; i < 4; i++) { // no early exit: terms can be negative
                        if (x[i] > 0) {
                            kl = pw[i] == 0 ? Double.POSITIVE_INFINITY : kl + x[i] * Math.log(x[i] / pw[i]);
                        }
                    }
                    if (kl <= rho) {
                        double gc = x[0] * COSTS[0] + x[1] * COSTS[1] + x[2] * COSTS[2] + x[3] * COSTS[3];
                        assertTrue(gc <= dual + 1e-9, "grid point " + java.util.Arrays.toString(x) + " above the dual");
                        best = Math.max(best, gc);
                    }
                }
                int n = GRID_STEPS;
                double spread = 4.0 - 0.03;
                assertEquals(dual, best, 2.0 / n * spread, "grid maximum vs dual at " + w + " rho " + rho);
            }
        }
    }

    private static final int GRID_STEPS = 100;
    private static final java.util.List<double[]> GRID = grid(GRID_STEPS);

    private static java.util.List<double[]> grid(int n) {
        java.util.List<double[]> g = new java.util.ArrayList<>();
        for (int a = 0; a <= n; a++) {
            for (int b = 0; a + b <= n; b++) {
                for (int c = 0; a + b + c <= n; c++) {
                    g.add(new double[] {(double) a / n, (double) b / n, (double) c / n, (double) (n - a - b - c) / n});
                }
            }
        }
        return g;
    }

    @Test
    void weakDualityAtArbitraryMultipliers() {
        Workload w = new Workload(0.01, 0.97, 0.01, 0.01);
        double worst = RobustCost.worstCase(COSTS, w, 0.5).cost();
        Random rnd = new Random(3);
        for (int i = 0; i < 1000; i++) {
            double lambda = Math.exp(rnd.nextGaussian() * 3);
            double eta = rnd.nextGaussian() * 5;
            assertTrue(RobustCost.dualObjective(COSTS, w, 0.5, lambda, eta) >= worst - 1e-9);
        }
    }

    @Test
    void aLargeBallReachesTheMostExpensiveKind() {
        Workload w = new Workload(0.25, 0.25, 0.25, 0.25);
        RobustCost.WorstCase wc = RobustCost.worstCase(COSTS, w, Math.log(4) + 0.1);
        assertEquals(4.0, wc.cost(), 1e-12);
        assertEquals(1.0, wc.workload().q(), 1e-12);
        // a kind the expected workload never runs stays out of the ball
        Workload noRanges = new Workload(0.5, 0.5, 0, 0);
        assertEquals(1.02, RobustCost.worstCase(COSTS, noRanges, 50).cost(), 1e-12);
    }

    private static double cost(Workload w) {
        double[] p = w.toArray();
        double c = 0;
        for (int i = 0; i < 4; i++) {
            c += p[i] * COSTS[i];
        }
        return c;
    }

    /** A random workload in the ball: a random point of the simplex pulled towards w until it is inside (half on the boundary). */
    static Workload sampleInBall(Random rnd, Workload w, double rho) {
        double[] p = w.toArray();
        double[] x = new double[4];
        double sum = 0;
        for (int i = 0; i < 4; i++) {
            x[i] = p[i] > 0 ? -Math.log(1 - rnd.nextDouble()) : 0; // Dirichlet(1) on w's support
            sum += x[i];
        }
        for (int i = 0; i < 4; i++) {
            x[i] /= sum;
        }
        // mix x with w: KL is convex along the segment and 0 at w; find the largest mix inside the ball
        double lo = 0;
        double hi = 1;
        if (mix(p, x, 1).klDivergenceFrom(w) <= rho) {
            return mix(p, x, 1);
        }
        for (int it = 0; it < 60; it++) {
            double mid = (lo + hi) / 2;
            if (mix(p, x, mid).klDivergenceFrom(w) <= rho) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return mix(p, x, rnd.nextBoolean() ? lo : lo * rnd.nextDouble());
    }

    private static Workload mix(double[] p, double[] x, double a) {
        double[] m = new double[4];
        for (int i = 0; i < 4; i++) {
            m[i] = (1 - a) * p[i] + a * x[i];
        }
        return Workload.of(m);
    }
}
