package dev.breakwater.tuner.advisor;

/**
 * False-positive rates of Bloom filters with {@code h} bits per key.
 *
 * <p>{@link #textbook}: {@code e^(−h·ln²2)}, the rate of a standard filter with the optimal number of
 * probes, which the slides use. {@link #blocked}: Breakwater's filter (storage-lsm's
 * {@code BloomFilterBuilder}): a key picks one 512-bit block and sets {@code k = round(h·ln 2)} bits
 * (clamped to [1, 16]) inside it. The number of keys in a block is about Poisson with mean
 * {@code 512/h}, so the rate is {@code Σ_n Pois(n; 512/h) · (1 − (1 − 1/512)^(k·n))^k}; blocking
 * costs accuracy against the textbook rate (at 10 bits per key about 1.0% against 0.82%).
 *
 * <p>Thread safety: stateless; static methods only.
 */
public final class BloomFalsePositives {

    private static final int BLOCK_BITS = 512;

    private BloomFalsePositives() {
    }

    /** The textbook rate {@code e^(−h·ln²2)}; 1 for {@code h = 0} (no filter). */
    public static double textbook(double bitsPerKey) {
        checkBits(bitsPerKey);
        return bitsPerKey == 0 ? 1.0 : Math.exp(-bitsPerKey * Math.log(2) * Math.log(2));
    }

    /** {@link #blocked} at 0..64 whole bits per key, computed once (the series takes up to ~800 terms; the search asks millions of times). */
    private static final double[] BLOCKED_WHOLE = new double[65];

    static {
        for (int h = 0; h < BLOCKED_WHOLE.length; h++) {
            BLOCKED_WHOLE[h] = blockedSeries(h);
        }
    }

    /** The rate of Breakwater's blocked filter; 1 for {@code h = 0} (no filter). */
    public static double blocked(double bitsPerKey) {
        checkBits(bitsPerKey);
        if (bitsPerKey == Math.rint(bitsPerKey)) {
            return BLOCKED_WHOLE[(int) bitsPerKey];
        }
        return blockedSeries(bitsPerKey);
    }

    static double blockedSeries(double bitsPerKey) {
        if (bitsPerKey == 0) {
            return 1.0;
        }
        int k = (int) Math.max(1, Math.min(16, Math.round(bitsPerKey * Math.log(2))));
        double mean = BLOCK_BITS / bitsPerKey;
        int hi = (int) Math.ceil(mean + 12 * Math.sqrt(mean) + 20);
        double logP = -mean; // log Pois(0)
        double rate = 0;
        for (int n = 0; n <= hi; n++) {
            if (n > 0) {
                logP += Math.log(mean) - Math.log(n);
            }
            double setFraction = 1 - Math.pow(1 - 1.0 / BLOCK_BITS, (double) k * n);
            rate += Math.exp(logP) * Math.pow(setFraction, k);
        }
        return Math.min(1.0, rate);
    }

    /** The rate under {@code env}'s filter model. */
    public static double rate(Environment env, double bitsPerKey) {
        return env.blockedFilters() ? blocked(bitsPerKey) : textbook(bitsPerKey);
    }

    private static void checkBits(double bitsPerKey) {
        if (!(bitsPerKey >= 0 && bitsPerKey <= 64)) {
            throw new IllegalArgumentException("Bloom bits per key must be in [0, 64], got " + bitsPerKey);
        }
    }
}
