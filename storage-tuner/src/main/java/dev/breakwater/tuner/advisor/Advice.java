package dev.breakwater.tuner.advisor;

/**
 * One recommended design with its predicted costs.
 *
 * <p>Immutable; thread-safe.
 *
 * @param design        the design
 * @param costs         its cost per operation of each kind
 * @param expectedCost  C(w, φ) at the expected workload
 * @param worstCase     the worst cost over the KL ball of the advice's ρ (for nominal advice, the
 *                      nominal design's worst case over the same ball, for comparison)
 * @param rho           the neighbourhood size the worst case is for
 * @param evaluated     designs the search evaluated
 */
public record Advice(Design design, OperationCosts costs, double expectedCost, RobustCost.WorstCase worstCase, double rho,
                     long evaluated) {
}
