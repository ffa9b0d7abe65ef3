package dev.breakwater.tuner.advisor;

/**
 * The worst cost of a design over the KL-divergence neighbourhood
 * {@code U = { ŵ : I_KL(ŵ, w) <= ρ }} of the expected workload w (ENDURE), by the dual form on the
 * slides of paper 003:
 * <pre>
 *   max_{ŵ ∈ U} Σ ŵ_i·c_i  =  min_{λ &gt;= 0, η} { η + ρ·λ + λ·Σ_i w_i·φ*_KL((c_i − η)/λ) },   φ*_KL(s) = e^s − 1
 * </pre>
 * For a fixed λ the bracket is convex in η and its minimum is at
 * {@code η = λ·log Σ w_i·e^(c_i/λ)}, where the φ* sum vanishes; what remains,
 * {@code g(λ) = λ·(ρ + log Σ w_i·e^(c_i/λ))}, is convex in λ, so a golden-section search on
 * {@code log λ} finds its minimum. The maximizing workload is the exponential tilt
 * {@code ŵ_i ∝ w_i·e^(c_i/λ*)}. Edge cases: ρ = 0 gives the expected cost (λ* = ∞); when ρ is at
 * least {@code −log w(argmax c)} the ball contains the workload that only runs the most expensive
 * kind, and the worst cost is {@code max{c_i : w_i > 0}} (λ* → 0).
 *
 * <p>Thread safety: stateless; static methods only.
 */
public final class RobustCost {

    private static final int ITERATIONS = 120;
    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;

    private RobustCost() {
    }

    /**
     * The worst case.
     *
     * @param cost      the design's cost by kind, the workload's order (Z0, Z1, Q, U)
     * @param lambda    the dual variable λ* (∞ when ρ = 0, 0 when the ball reaches the corner)
     * @param eta       the dual variable η* (the cost itself when λ* is ∞ or 0)
     * @param workload  a workload of the ball at which the worst cost is (nearly) reached
     */
    public record WorstCase(double cost, double lambda, double eta, Workload workload) {
    }

    /**
     * The worst expected cost of {@code costs} over the KL ball of radius {@code rho} around {@code w}.
     *
     * @param costs the cost of one operation of each kind, (Z0, Z1, Q, U)
     */
    public static WorstCase worstCase(double[] costs, Workload w, double rho) {
        if (!(rho >= 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("the neighbourhood size rho must be a finite number >= 0, got " + rho);
        }
        if (costs.length != 4) {
            throw new IllegalArgumentException("need 4 costs (Z0, Z1, Q, U), got " + costs.length);
        }
        double[] p = w.toArray();
        double expected = 0;
        double max = Double.NEGATIVE_INFINITY;
        double massAtMax = 0;
        for (int i = 0; i < 4; i++) {
            if (!Double.isFinite(costs[i])) {
                throw new IllegalArgumentException("cost " + Workload.NAMES.get(i) + " must be finite, got " + costs[i]);
            }
            if (p[i] > 0) {
                expected += p[i] * costs[i];
                max = Math.max(max, costs[i]);
            }
        }
        for (int i = 0; i < 4; i++) {
            if (p[i] > 0 && costs[i] == max) {
                massAtMax += p[i];
            }
        }
        if (rho == 0 || max - expected <= 1e-15 * Math.max(1, Math.abs(max))) {
            return new WorstCase(expected, Double.POSITIVE_INFINITY, expected, w);
        }
        if (rho >= -Math.log(massAtMax)) {
            double[] corner = new double[4];
            for (int i = 0; i < 4; i++) {
                corner[i] = p[i] > 0 && costs[i] == max ? p[i] : 0;
            }
            return new WorstCase(max, 0, max, Workload.of(corner));
        }
        // g is convex in λ, hence unimodal in log λ; λ* lies where the spread of costs matters
        double spread = max - expected;
        double lo = Math.log(spread * 1e-6);
        double hi = Math.log(spread * 1e8 / Math.max(rho, 1e-12));
        double a = hi - GOLDEN * (hi - lo);
        double b = lo + GOLDEN * (hi - lo);
        double ga = g(costs, p, rho, max, Math.exp(a));
        double gb = g(costs, p, rho, max, Math.exp(b));
        for (int it = 0; it < ITERATIONS; it++) {
            if (ga <= gb) {
                hi = b;
                b = a;
                gb = ga;
                a = hi - GOLDEN * (hi - lo);
                ga = g(costs, p, rho, max, Math.exp(a));
            } else {
                lo = a;
                a = b;
                ga = gb;
                b = lo + GOLDEN * (hi - lo);
                gb = g(costs, p, rho, max, Math.exp(b));
            }
        }
        double lambda = Math.exp((lo + hi) / 2);
        double value = Math.min(g(costs, p, rho, max, lambda), max);
        double eta = max + lambda * Math.log(tiltSum(costs, p, max, lambda));
        return new WorstCase(Math.max(value, expected), lambda, eta, tilt(costs, w, lambda));
    }

    /**
     * The slides' dual objective {@code η + ρλ + λ·Σ w_i·(e^((c_i − η)/λ) − 1)} at given λ &gt; 0 and η;
     * its minimum over both is the worst case.
     */
    public static double dualObjective(double[] costs, Workload w, double rho, double lambda, double eta) {
        if (!(lambda > 0)) {
            throw new IllegalArgumentException("lambda must be > 0, got " + lambda);
        }
        double[] p = w.toArray();
        double s = 0;
        for (int i = 0; i < 4; i++) {
            if (p[i] > 0) {
                s += p[i] * Math.expm1((costs[i] - eta) / lambda);
            }
        }
        return eta + rho * lambda + lambda * s;
    }

    /** The exponential tilt {@code ŵ_i ∝ w_i·e^(c_i/λ)} of {@code w} (λ &gt; 0). */
    public static Workload tilt(double[] costs, Workload w, double lambda) {
        double[] p = w.toArray();
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 4; i++) {
            if (p[i] > 0) {
                max = Math.max(max, costs[i]);
            }
        }
        double[] t = new double[4];
        for (int i = 0; i < 4; i++) {
            t[i] = p[i] > 0 ? p[i] * Math.exp((costs[i] - max) / lambda) : 0;
        }
        return Workload.of(t);
    }

    /** g(λ) = λ·(ρ + log Σ w_i·e^(c_i/λ)), computed stably around {@code max}. */
    private static double g(double[] c, double[] p, double rho, double max, double lambda) {
        return max + lambda * (rho + Math.log(tiltSum(c, p, max, lambda)));
    }

    private static double tiltSum(double[] c, double[] p, double max, double lambda) {
        double s = 0;
        for (int i = 0; i < 4; i++) {
            if (p[i] > 0) {
                s += p[i] * Math.exp((c[i] - max) / lambda);
            }
        }
        return s;
    }
}
