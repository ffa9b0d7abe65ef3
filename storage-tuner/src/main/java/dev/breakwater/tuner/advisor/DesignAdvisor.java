package dev.breakwater.tuner.advisor;

/**
 * Picks the nominal design (least cost at the expected workload) and the robust design (least worst
 * cost over the KL ball of radius ρ around it, ENDURE) by evaluating every candidate of a
 * {@link DesignSpace} under an {@link LsmCostModel}.
 *
 * <p>The robust search prunes: the worst case of a design is at least its expected cost, so a
 * candidate whose expected cost already exceeds the best worst case found cannot win and its dual is
 * not solved. Equal worst cases are broken by the expected cost, then towards the earlier candidate,
 * so results are deterministic.
 *
 * <p>Thread safety: immutable; safe.
 */
public final class DesignAdvisor {

    private final LsmCostModel model;
    private final DesignSpace space;

    public DesignAdvisor(LsmCostModel model, DesignSpace space) {
        this.model = model;
        this.space = space;
    }

    public LsmCostModel model() {
        return model;
    }

    /** The design with the least expected cost; its worst case is reported for the ball of {@code rho}. */
    public Advice nominal(Workload w, double rho) {
        Best best = new Best();
        space.forEach(model, d -> {
            best.evaluated++;
            OperationCosts c = model.costs(d);
            double cost = c.cost(w);
            if (cost < best.score) {
                best.score = cost;
                best.design = d;
                best.costs = c;
            }
        });
        return best.advice(w, rho);
    }

    /**
     * The design with the least worst-case cost over the KL ball of radius {@code rho} around
     * {@code w}; among designs whose worst cases tie (within a relative 1e-9, common once the ball
     * reaches the corner of the most expensive operation, where the worst case is that operation's
     * cost alone), the one with the least expected cost.
     */
    public Advice robust(Workload w, double rho) {
        Best best = new Best();
        space.forEach(model, d -> {
            best.evaluated++;
            OperationCosts c = model.costs(d);
            double expected = c.cost(w);
            double tolerance = best.design == null ? 0 : TIE * Math.max(1, Math.abs(best.score));
            if (expected > best.score + tolerance) {
                return;
            }
            double worst = RobustCost.worstCase(c.toArray(), w, rho).cost();
            boolean better = best.design == null || worst < best.score - tolerance
                    || (worst <= best.score + tolerance && expected < best.costs.cost(w));
            if (better) {
                best.score = worst;
                best.design = d;
                best.costs = c;
            }
        });
        return best.advice(w, rho);
    }

    /** Relative difference under which two worst cases count as a tie. */
    private static final double TIE = 1e-9;

    /** The worst case of a given design over the ball. */
    public RobustCost.WorstCase worstCase(Design d, Workload w, double rho) {
        return RobustCost.worstCase(model.costs(d).toArray(), w, rho);
    }

    private static final class Best {
        double score = Double.POSITIVE_INFINITY;
        Design design;
        OperationCosts costs;
        long evaluated;

        Advice advice(Workload w, double rho) {
            if (design == null) {
                throw new IllegalArgumentException("no design of the search space fits in the total memory; lower the floors or "
                        + "the Bloom bits, or give more memory");
            }
            return new Advice(design, costs, costs.cost(w), RobustCost.worstCase(costs.toArray(), w, rho), rho, evaluated);
        }
    }
}
