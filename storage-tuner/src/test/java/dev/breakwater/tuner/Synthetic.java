package dev.breakwater.tuner;

import java.util.List;
import java.util.Random;

/**
 * Synthetic statistics for a workload with a known cost curve on total memory {@code M}:
 * {@code write(x) = α·ln(L/x)} pages/op (one tree, every flush memory-triggered, merges proportional to
 * the level count) and {@code read(x) = β/(M−x)} pages/op (query misses fall with the cache), so
 * {@code cost'(x) = −α/x + β/(M−x)²}, convex, with one root. The samples carry exactly the counts the
 * cost model turns back into that derivative; {@code noise} multiplies the saved and merge counts by
 * {@code 1 + N(0, noise)}.
 */
final class Synthetic {

    static final int PAGE = 16 * 1024;
    static final long OPS = 1_000_000;
    static final long SIM = 128L << 20;

    final long total;
    final double alpha;
    final double beta;
    final double lastLevel;
    private final Random random;
    private final double noise;

    /** A workload whose cost is lowest at {@code optimum} bytes of write memory. */
    Synthetic(long total, long optimum, double noise, long seed) {
        this.total = total;
        this.alpha = 1.0;
        this.beta = alpha * Math.pow(total - optimum, 2) / optimum;
        this.lastLevel = 1000.0 * total;
        this.noise = noise;
        this.random = new Random(seed);
    }

    double cost(double x) {
        return alpha * Math.log(lastLevel / x) + beta / (total - x);
    }

    double costPrime(double x) {
        return -alpha / x + beta / Math.pow(total - x, 2);
    }

    TuningSample sample(long x) {
        double mergePages = alpha * Math.log(lastLevel / x) * OPS * jitter();
        double savedPages = beta / Math.pow(total - x, 2) * OPS * SIM * jitter();
        double queryReads = beta / (total - x) * OPS;
        TreeSample tree = new TreeSample("t", (long) (mergePages * PAGE), 1, 0, (long) lastLevel, 1.0);
        return new TuningSample(OPS, List.of(tree), (long) savedPages, 0, SIM, (long) queryReads, 0, 0,
                (long) mergePages, PAGE, x, total);
    }

    private double jitter() {
        return noise == 0 ? 1 : Math.max(0.05, 1 + noise * random.nextGaussian());
    }

    /** A sample whose cost'(x) is exactly {@code c} (per byte), with the given measured cost per op. */
    static TuningSample withCostPrime(long x, long total, double c, double cost) {
        if (c >= 0) {
            return new TuningSample(OPS, List.of(), Math.round(c * OPS * SIM), 0, SIM, Math.round(cost * OPS), 0, 0, 0,
                    PAGE, x, total);
        }
        double ln = 2 * Math.log(10); // |L_N| = 100·x: two levels of ratio 10
        long mergePages = Math.round(-c * x * ln * OPS);
        TreeSample tree = new TreeSample("t", mergePages * PAGE, 1, 0, 100 * x, 1.0);
        return new TuningSample(OPS, List.of(tree), 0, 0, SIM, Math.round(cost * OPS), 0, 0, 0, PAGE, x, total);
    }
}
