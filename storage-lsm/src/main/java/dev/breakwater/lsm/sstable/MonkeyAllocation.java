package dev.breakwater.lsm.sstable;

/**
 * Monkey-style Bloom filter sizing (Dayan et al., SIGMOD 2017; paper 004, equations 7 to 9): bits
 * per key per level chosen so that the sum of false-positive rates over all runs (the expected
 * wasted I/Os of a zero-result lookup) is minimal for the same total filter memory as a uniform
 * {@code b} bits per key.
 *
 * <p>Model: a filter of {@code x} bits per key has false-positive rate {@code p = e^(-x·ln²2)}. Level
 * {@code i} holds {@code N_i} entries in {@code r_i} runs of {@code n_i = N_i / r_i} entries each.
 * Minimising {@code Σ r_i·p_i} subject to {@code Σ N_i·x_i = b·Σ N_i} (Lagrange) gives
 * {@code p_i = μ·n_i}: the false-positive rate of a run is proportional to its size, so small runs get
 * more bits and the largest fewer. {@code μ} follows from the memory constraint. Levels whose rate
 * would reach 1 get no filter ({@code x_i = 0}); levels whose bits would exceed {@link #MAX_BITS} are
 * capped; either way the rest is solved again with the memory that remains.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class MonkeyAllocation {

    /** The most bits per key a filter gets (the SSTable format's limit). */
    public static final double MAX_BITS = 64;

    private static final double LN2_SQUARED = Math.log(2) * Math.log(2);

    private MonkeyAllocation() {
    }

    /** False-positive rate of a standard Bloom filter with {@code bitsPerKey} and the optimal hash count. */
    public static double falsePositiveRate(double bitsPerKey) {
        return Math.exp(-bitsPerKey * LN2_SQUARED);
    }

    /**
     * @param levelEntries      entries per level (index = level)
     * @param levelRuns         runs per level
     * @param uniformBitsPerKey the uniform allocation whose total memory is to be matched
     * @return bits per key per level; a level with no entries or no runs gets {@code uniformBitsPerKey}
     *         (it costs no memory either way)
     */
    public static double[] bitsPerKey(long[] levelEntries, int[] levelRuns, double uniformBitsPerKey) {
        if (levelEntries.length != levelRuns.length) {
            throw new IllegalArgumentException("entries and runs must have one value per level: "
                    + levelEntries.length + " != " + levelRuns.length);
        }
        if (!(uniformBitsPerKey >= 0) || uniformBitsPerKey > MAX_BITS) {
            throw new IllegalArgumentException("uniform bits per key must be in [0, " + MAX_BITS + "], got " + uniformBitsPerKey);
        }
        int n = levelEntries.length;
        double[] bits = new double[n];
        boolean[] capped = new boolean[n];
        double budget = 0;
        for (int i = 0; i < n; i++) {
            if (levelEntries[i] < 0 || levelRuns[i] < 0) {
                throw new IllegalArgumentException("level " + i + " has a negative count: " + levelEntries[i] + " entries, " + levelRuns[i] + " runs");
            }
            bits[i] = uniformBitsPerKey;
            if (levelEntries[i] > 0 && levelRuns[i] > 0) {
                budget += uniformBitsPerKey * levelEntries[i];
            }
        }
        if (uniformBitsPerKey == 0) {
            return bits;
        }
        // Outer loop: caps only ever grow (a capped level frees memory, which lowers mu, which can
        // only cap more). Inner loop: levels at rate 1 leave, and the rest is solved again.
        while (true) {
            boolean[] active = new boolean[n];
            for (int i = 0; i < n; i++) {
                active[i] = levelEntries[i] > 0 && levelRuns[i] > 0 && !capped[i];
            }
            double lnMu;
            while (true) {
                double sumEntries = 0;
                double sumEntriesLnRun = 0;
                for (int i = 0; i < n; i++) {
                    if (active[i]) {
                        sumEntries += levelEntries[i];
                        sumEntriesLnRun += levelEntries[i] * Math.log(runEntries(levelEntries, levelRuns, i));
                    }
                }
                if (sumEntries == 0) {
                    return bits;
                }
                // Σ N_i·ln(μ·n_i) = -budget·ln²2
                lnMu = (-budget * LN2_SQUARED - sumEntriesLnRun) / sumEntries;
                boolean left = false;
                for (int i = 0; i < n; i++) {
                    if (active[i] && lnMu + Math.log(runEntries(levelEntries, levelRuns, i)) >= 0) {
                        active[i] = false; // rate 1: a filter here would be wasted memory
                        bits[i] = 0;
                        left = true;
                    }
                }
                if (!left) {
                    break;
                }
            }
            boolean newCap = false;
            for (int i = 0; i < n; i++) {
                if (!active[i]) {
                    continue;
                }
                double x = -(lnMu + Math.log(runEntries(levelEntries, levelRuns, i))) / LN2_SQUARED;
                if (x > MAX_BITS) {
                    capped[i] = true;
                    bits[i] = MAX_BITS;
                    budget -= MAX_BITS * levelEntries[i];
                    newCap = true;
                } else {
                    bits[i] = x;
                }
            }
            if (!newCap) {
                return bits;
            }
        }
    }

    /** {@code Σ r_i · p(x_i)}: the expected false positives of one zero-result lookup. */
    public static double sumOfFalsePositiveRates(long[] levelEntries, int[] levelRuns, double[] bits) {
        double sum = 0;
        for (int i = 0; i < levelEntries.length; i++) {
            if (levelEntries[i] > 0) {
                sum += levelRuns[i] * falsePositiveRate(bits[i]);
            }
        }
        return sum;
    }

    /** {@code Σ N_i · x_i}: the filter memory in bits. */
    public static double memoryBits(long[] levelEntries, double[] bits) {
        double sum = 0;
        for (int i = 0; i < levelEntries.length; i++) {
            sum += levelEntries[i] * bits[i];
        }
        return sum;
    }

    private static double runEntries(long[] entries, int[] runs, int i) {
        return (double) entries[i] / runs[i];
    }
}
