package dev.breakwater.tuner.advisor;

import java.util.List;

/**
 * A workload mix w = (z0, z1, q, u) of paper 003: the fractions of empty point reads, non-empty point
 * reads, range reads and writes. The fractions are non-negative and sum to 1 (the constructor
 * normalizes any non-negative vector with a positive sum).
 *
 * <p>Immutable; thread-safe.
 *
 * @param z0 empty point reads (the key is in no level)
 * @param z1 non-empty point reads
 * @param q  range reads
 * @param u  writes (inserts, upserts, deletes)
 */
public record Workload(double z0, double z1, double q, double u) {

    public Workload {
        double[] v = {z0, z1, q, u};
        double sum = 0;
        for (int i = 0; i < v.length; i++) {
            if (!(v[i] >= 0) || Double.isInfinite(v[i])) {
                throw new IllegalArgumentException("workload fraction " + NAMES.get(i) + " must be a finite number >= 0, got " + v[i]);
            }
            sum += v[i];
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("a workload needs at least one positive fraction, got " + List.of(z0, z1, q, u));
        }
        z0 /= sum;
        z1 /= sum;
        q /= sum;
        u /= sum;
    }

    /** The names of the four operation kinds, in vector order. */
    public static final List<String> NAMES = List.of("z0", "z1", "q", "u");

    /** The fractions as a vector (z0, z1, q, u). */
    public double[] toArray() {
        return new double[] {z0, z1, q, u};
    }

    /** The workload with the fractions of {@code v} (z0, z1, q, u). */
    public static Workload of(double[] v) {
        if (v.length != 4) {
            throw new IllegalArgumentException("a workload has 4 fractions (z0, z1, q, u), got " + v.length);
        }
        return new Workload(v[0], v[1], v[2], v[3]);
    }

    /**
     * The KL divergence I_KL(this, w) = Σ this_i · log(this_i / w_i) (natural log), the distance that
     * defines the uncertainty neighbourhood; infinite if this workload has a kind {@code w} lacks.
     */
    public double klDivergenceFrom(Workload w) {
        double[] a = toArray();
        double[] b = w.toArray();
        double d = 0;
        for (int i = 0; i < 4; i++) {
            if (a[i] == 0) {
                continue;
            }
            if (b[i] == 0) {
                return Double.POSITIVE_INFINITY;
            }
            d += a[i] * Math.log(a[i] / b[i]);
        }
        return Math.max(0, d);
    }

    /**
     * The mix an engine observed: its point reads split by {@code emptyFraction} into empty (z0) and
     * non-empty (z1) reads, its scans as range reads (q) and its record writes (u). Breakwater counts
     * point reads without telling found from not found, so the split is an input.
     */
    public static Workload fromCounts(long pointReads, long scans, long writes, double emptyFraction) {
        if (pointReads < 0 || scans < 0 || writes < 0) {
            throw new IllegalArgumentException("operation counts must be >= 0, got " + pointReads + ", " + scans + ", " + writes);
        }
        if (!(emptyFraction >= 0 && emptyFraction <= 1)) {
            throw new IllegalArgumentException("the empty-read fraction must be in [0, 1], got " + emptyFraction);
        }
        if (pointReads + scans + writes == 0) {
            throw new IllegalArgumentException("no operations counted yet: nothing to take a mix from");
        }
        return new Workload(pointReads * emptyFraction, pointReads * (1 - emptyFraction), scans, writes);
    }

    /** The 15 expected workloads of the slides' uncertainty benchmark, index 0 to 14. */
    public static List<Workload> expectedWorkloads() {
        return List.of(
                new Workload(25, 25, 25, 25),
                new Workload(97, 1, 1, 1), new Workload(1, 97, 1, 1), new Workload(1, 1, 97, 1), new Workload(1, 1, 1, 97),
                new Workload(49, 49, 1, 1), new Workload(49, 1, 49, 1), new Workload(49, 1, 1, 49),
                new Workload(1, 49, 49, 1), new Workload(1, 49, 1, 49), new Workload(1, 1, 49, 49),
                new Workload(33, 33, 33, 1), new Workload(33, 33, 1, 33), new Workload(33, 1, 33, 33),
                new Workload(1, 33, 33, 33));
    }

    /** The slides' type of expected workload {@code index}: uniform, unimodal, bimodal or trimodal. */
    public static String expectedType(int index) {
        if (index == 0) {
            return "uniform";
        }
        return index <= 4 ? "unimodal" : index <= 10 ? "bimodal" : "trimodal";
    }

    @Override
    public String toString() {
        return String.format("(z0=%.3f, z1=%.3f, q=%.3f, u=%.3f)", z0, z1, q, u);
    }
}
