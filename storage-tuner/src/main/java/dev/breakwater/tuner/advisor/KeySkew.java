package dev.breakwater.tuner.advisor;

/**
 * The key skew θ ({@link Environment#keySkew()}) fitted to what a running engine's buffer cache
 * observed, at the design the engine runs. Two observations, two fits:
 * <ul>
 *   <li>{@link #fitToSimulatedCache}: the reads a larger cache would have saved, per operation and
 *       MiB (the simulated cache's {@code saved_q / ops / sim}, the tuner's {@code simulatedPrimePerMiB}),
 *       against the model's {@code (R(M) − R(M + sim)) / sim}, R the read pages per operation
 *       {@code z0·Z0 + z1·Z1 + q·Q}. This is the value of cache at the margin, which is what decides
 *       the split, so {@code advise --key-skew auto} uses it. The model's saving first grows with θ
 *       (a moderately skewed cache gains most from its next pages) and then falls (the hot pages are
 *       all cached); the fit takes the falling branch, scanning down from {@link #MAX}.</li>
 *   <li>{@link #fitToMisses}: the page misses per read operation (the {@code QUERY} misses over point
 *       reads and scans) against the model's {@code R / (z0 + z1 + q)}, which falls as θ grows.</li>
 * </ul>
 * On TPC-C the two disagree (session 9: 1.1 from the misses, more from the simulated cache): one Zipf
 * exponent cannot give both the engine's miss rate and its flat miss curve, whose hot pages are few
 * and whose misses are mostly pages no cache of this size would keep.
 *
 * <p>Thread safety: stateless; static methods only.
 */
public final class KeySkew {

    /** The largest θ searched: at 3 nearly every read goes to a handful of pages. */
    public static final double MAX = 3.0;

    private KeySkew() {
    }

    /**
     * The model's page reads per read operation (empty, non-empty and range reads weighted by
     * {@code w}) under design {@code d} with key skew {@code theta}.
     */
    public static double readCostPerRead(Environment env, EngineShape shape, Design d, Workload w, double theta) {
        double reads = w.z0() + w.z1() + w.q();
        if (!(reads > 0)) {
            throw new IllegalArgumentException("the workload has no reads to fit a key skew to: " + w);
        }
        OperationCosts c = new LsmCostModel(env.withKeySkew(theta), shape).costs(d);
        return (w.z0() * c.z0() + w.z1() * c.z1() + w.q() * c.q()) / reads;
    }

    /**
     * The model's read pages per operation (all operations) that {@code simBytes} more cache would save,
     * per MiB of it: {@code (R(M) − R(M + sim)) / sim}, with key skew {@code theta}.
     */
    public static double savedPerOpPerMiB(Environment env, EngineShape shape, Design d, Workload w, double theta, long simBytes) {
        if (simBytes <= 0) {
            throw new IllegalArgumentException("the simulated cache must have a positive size, got " + simBytes);
        }
        Environment at = env.withKeySkew(theta);
        Environment larger = new Environment(at.entries(), at.entryBytes(), at.pageBytes(), at.totalMemoryBytes() + simBytes,
                at.rangeSelectivity(), at.seqCost(), at.writeAsymmetry(), at.cacheModel(), at.blockedFilters(), theta);
        return (reads(new LsmCostModel(at, shape).costs(d), w) - reads(new LsmCostModel(larger, shape).costs(d), w))
                / (simBytes / (double) (1 << 20));
    }

    /**
     * The largest θ in [0, {@link #MAX}] at which {@link #savedPerOpPerMiB} reaches {@code observed}
     * (the falling branch: scanned down from {@link #MAX} in steps of 0.01, then bisected), or 0 if it
     * never does (the engine's cache is worth more at the margin than the model's ever is).
     */
    public static double fitToSimulatedCache(Environment env, EngineShape shape, Design d, Workload w, double observed, long simBytes) {
        if (!(observed >= 0) || Double.isInfinite(observed)) {
            throw new IllegalArgumentException("the observed saving must be a finite number >= 0, got " + observed);
        }
        double step = 0.01;
        double prev = MAX;
        if (savedPerOpPerMiB(env, shape, d, w, MAX, simBytes) >= observed) {
            return MAX;
        }
        for (double t = MAX - step; t >= -1e-9; t -= step) {
            double theta = Math.max(0, t);
            if (savedPerOpPerMiB(env, shape, d, w, theta, simBytes) >= observed) {
                double lo = theta; // saving >= observed
                double hi = prev;  // saving < observed
                for (int i = 0; i < 30; i++) {
                    double mid = (lo + hi) / 2;
                    if (savedPerOpPerMiB(env, shape, d, w, mid, simBytes) >= observed) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                return (lo + hi) / 2;
            }
            prev = theta;
        }
        return 0;
    }

    private static double reads(OperationCosts c, Workload w) {
        return w.z0() * c.z0() + w.z1() * c.z1() + w.q() * c.q();
    }

    /**
     * θ in [0, {@link #MAX}] with {@link #readCostPerRead} equal to {@code observedMissesPerRead}: 0 if the
     * engine missed at least as often as uniform keys would, {@link #MAX} if less often than θ = 3
     * predicts.
     */
    public static double fitToMisses(Environment env, EngineShape shape, Design d, Workload w, double observedMissesPerRead) {
        if (!(observedMissesPerRead >= 0) || Double.isInfinite(observedMissesPerRead)) {
            throw new IllegalArgumentException("observed misses per read must be a finite number >= 0, got " + observedMissesPerRead);
        }
        if (readCostPerRead(env, shape, d, w, 0) <= observedMissesPerRead) {
            return 0;
        }
        if (readCostPerRead(env, shape, d, w, MAX) >= observedMissesPerRead) {
            return MAX;
        }
        double lo = 0;
        double hi = MAX;
        for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            if (readCostPerRead(env, shape, d, w, mid) > observedMissesPerRead) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }
}
