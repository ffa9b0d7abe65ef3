package dev.breakwater.tuner.advisor;

/**
 * The expected I/O cost of one operation of each kind under one design (paper 003): Z0, Z1, Q, U, in
 * random-page-read units. {@link #cost(Workload)} weighs them by a workload mix.
 *
 * <p>Immutable; thread-safe.
 *
 * @param z0        Z0(φ): an empty point read
 * @param z1        Z1(φ): a non-empty point read
 * @param q         Q(φ): a range read
 * @param u         U(φ): a write (amortized merge I/O)
 * @param levels    L, the number of disk levels
 * @param fpr       the Bloom false-positive rate of each level
 * @param cacheHit  the probability a random page read hits the buffer cache (0 without the cache model)
 */
public record OperationCosts(double z0, double z1, double q, double u, int levels, double fpr, double cacheHit) {

    /** C(w, φ) = z0·Z0 + z1·Z1 + q·Q + u·U. */
    public double cost(Workload w) {
        return w.z0() * z0 + w.z1() * z1 + w.q() * q + w.u() * u;
    }

    /** (Z0, Z1, Q, U) as a vector in workload order. */
    public double[] toArray() {
        return new double[] {z0, z1, q, u};
    }
}
