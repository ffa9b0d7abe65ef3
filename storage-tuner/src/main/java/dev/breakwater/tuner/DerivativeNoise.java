package dev.breakwater.tuner;

/**
 * A running estimate of the noise σ of one cycle's {@code cost'(x)}: how far a cycle's value lies
 * from what the x alone explains. Short cycles see merges in bursts, so two cycles at one x can
 * differ by more than their mean (TPC-C, 5-second cycles: −0.0023 … +0.0005 pages/op per MiB at one x).
 *
 * <p>Each cycle the tuner adds the squared deviations of its recent samples at the current x from
 * their mean, with {@code n − 1} degrees of freedom: at one x, what differs between cycles is noise
 * (or a change of workload), never the curvature of cost'(x), which the residuals of a line through
 * distant samples would also hold (on a noise-free convex cost they made every slope look
 * insignificant). Older contributions decay by {@code DECAY} per cycle, so the estimate follows a
 * change of workload within a few cycles. σ is unknown until the decayed degrees of freedom reach
 * {@code MIN_DOF}: one deviation says little about a spread (the TPC-C case: two cycles 0.0003
 * apart, then one 0.0024 away).
 *
 * <p>Invariant: {@code sumSquares ≥ 0}, {@code dof ≥ 0}. Thread safety: not thread-safe; owned by
 * one {@link MemoryTuner}.
 */
final class DerivativeNoise {

    /** Weight of the previous estimate per cycle. */
    static final double DECAY = 0.8;
    /** Degrees of freedom below which σ is unknown. */
    static final double MIN_DOF = 2;

    private double sumSquares;
    private double dof;

    /** Adds {@code sumSquares} of deviations with {@code dof} degrees of freedom, after decaying the old ones. */
    void add(double sumSquares, int dof) {
        this.sumSquares = DECAY * this.sumSquares + Math.max(0, sumSquares);
        this.dof = DECAY * this.dof + Math.max(0, dof);
    }

    /** Decays the estimate for a cycle that added nothing. */
    void age() {
        add(0, 0);
    }

    boolean known() {
        return dof >= MIN_DOF;
    }

    /** σ, or NaN when unknown. */
    double sigma() {
        return known() ? Math.sqrt(sumSquares / dof) : Double.NaN;
    }

    void reset() {
        sumSquares = 0;
        dof = 0;
    }
}
