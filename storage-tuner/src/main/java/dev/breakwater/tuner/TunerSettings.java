package dev.breakwater.tuner;

/**
 * The controller's knobs (paper 000 §5.4), with the engine-derived bounds.
 *
 * @param omega                write weight ω (2 on SSDs whose writes cost twice their reads)
 * @param gamma                read weight γ
 * @param samples              K: samples the Newton–Raphson line is fitted through (paper: 3)
 * @param fallbackStepFraction fixed step when Newton–Raphson cannot be used, as a fraction of total memory (paper: 5%)
 * @param maxDecreaseFraction  largest fraction of the shrinking region one step may take (paper: 10%)
 * @param minStepBytes         steps smaller than this are not taken (paper: 32 MB)
 * @param minGainFraction      steps whose expected gain is under this fraction of the current cost are not taken (paper: 0.1%)
 * @param writeMemoryFloorBytes write memory never goes below this
 * @param cacheFloorBytes      the buffer cache never goes below this
 * @param granularityBytes     every split is a multiple of this (the buffer cache resizes in whole chunks)
 * @param sizeRatio            the trees' size ratio T (a guard of {@link CostModel})
 * @param flushCauseScaling    scale each tree's eq. 4 term by its share of memory-triggered flushes
 *                             (paper 000 eq. 5); see {@link CostModel} for when that factor is wrong
 * @param climbSamples         n: a climb ({@link StepReason#CLIMB}) needs the last n cycles' cost' to agree in
 *                             sign and each lie beyond the noise band; 0 turns the climb off (the paper's
 *                             rules alone, as before the fifth session of docs/benchmarks-tuner.md)
 * @param maxStepFraction      largest climb step, as a fraction of total memory (a climb doubles its step
 *                             each cycle up to this, and the max-decrease rule still applies); at or below
 *                             {@code fallbackStepFraction} a climb keeps the fixed step
 * @param queryLevels          count the reads more write memory saves by removing disk levels from queries'
 *                             way (the {@code queryLevelsPrime} term of {@link CostModel}; not in the paper)
 */
public record TunerSettings(double omega, double gamma, int samples, double fallbackStepFraction,
                            double maxDecreaseFraction, long minStepBytes, double minGainFraction,
                            long writeMemoryFloorBytes, long cacheFloorBytes, long granularityBytes, int sizeRatio,
                            boolean flushCauseScaling, int climbSamples, double maxStepFraction, boolean queryLevels) {

    /** Default n of a climb: two cycles in a row. */
    public static final int DEFAULT_CLIMB_SAMPLES = 2;
    /** Default cap of a climb step: a quarter of total memory. */
    public static final double DEFAULT_MAX_STEP = 0.25;

    public TunerSettings {
        require(omega >= 0 && gamma >= 0 && omega + gamma > 0, "weights ω and γ must be >= 0 and not both 0");
        require(samples >= 2, "K (samples for the line fit) must be at least 2, got " + samples);
        require(fallbackStepFraction > 0 && fallbackStepFraction < 1, "fallback step must be in (0, 1), got " + fallbackStepFraction);
        require(maxDecreaseFraction > 0 && maxDecreaseFraction < 1, "max decrease must be in (0, 1), got " + maxDecreaseFraction);
        require(minStepBytes >= 0 && minGainFraction >= 0, "minimum step and gain must be >= 0");
        require(granularityBytes > 0, "granularity must be positive, got " + granularityBytes);
        require(writeMemoryFloorBytes > 0 && cacheFloorBytes > 0, "memory floors must be positive");
        require(sizeRatio >= 2, "size ratio must be at least 2, got " + sizeRatio);
        require(climbSamples == 0 || climbSamples >= 2 && climbSamples <= 100,
                "climb samples must be 0 (off) or in [2, 100], got " + climbSamples);
        require(maxStepFraction > 0 && maxStepFraction < 1, "max step must be in (0, 1), got " + maxStepFraction);
    }

    /** Settings without the query-levels term: read'(x) as paper 000's eq. 6 has it. */
    public TunerSettings(double omega, double gamma, int samples, double fallbackStepFraction, double maxDecreaseFraction,
                         long minStepBytes, double minGainFraction, long writeMemoryFloorBytes, long cacheFloorBytes,
                         long granularityBytes, int sizeRatio, boolean flushCauseScaling, int climbSamples,
                         double maxStepFraction) {
        this(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, climbSamples,
                maxStepFraction, false);
    }

    /** Settings with the default climb (n = 2, steps up to 25% of total memory). */
    public TunerSettings(double omega, double gamma, int samples, double fallbackStepFraction, double maxDecreaseFraction,
                         long minStepBytes, double minGainFraction, long writeMemoryFloorBytes, long cacheFloorBytes,
                         long granularityBytes, int sizeRatio, boolean flushCauseScaling) {
        this(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling,
                DEFAULT_CLIMB_SAMPLES, DEFAULT_MAX_STEP);
    }

    /** Settings with eq. 5's flush-cause factor applied, as in the paper. */
    public TunerSettings(double omega, double gamma, int samples, double fallbackStepFraction, double maxDecreaseFraction,
                         long minStepBytes, double minGainFraction, long writeMemoryFloorBytes, long cacheFloorBytes,
                         long granularityBytes, int sizeRatio) {
        this(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, true);
    }

    /**
     * The paper's defaults (ω = γ = 1, K = 3, 5%, 10%, 0.1%) for {@code totalBytes} of memory, with
     * eq. 5's factor and the engine's default climb ({@link #withClimb}{@code (0, …)} drops it).
     */
    public static TunerSettings paperDefaults(long totalBytes, long writeFloor, long cacheFloor, long granularity) {
        return new TunerSettings(1, 1, 3, 0.05, 0.10, Math.max(granularity, totalBytes / 128), 0.001, writeFloor,
                cacheFloor, granularity, 10);
    }

    public TunerSettings withWeights(double w, double g) {
        return new TunerSettings(w, g, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, climbSamples, maxStepFraction, queryLevels);
    }

    public TunerSettings withMinStep(long bytes) {
        return new TunerSettings(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, bytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, climbSamples, maxStepFraction, queryLevels);
    }

    public TunerSettings withMinGain(double fraction) {
        return new TunerSettings(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, fraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, climbSamples, maxStepFraction, queryLevels);
    }

    public TunerSettings withFlushCauseScaling(boolean on) {
        return new TunerSettings(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, on, climbSamples, maxStepFraction, queryLevels);
    }

    /** The same settings with climb samples n (0: no climb) and a climb step cap of {@code maxStep}·M. */
    public TunerSettings withClimb(int n, double maxStep) {
        return new TunerSettings(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, n, maxStep, queryLevels);
    }

    /** The same settings with the query-levels term of read'(x) on or off. */
    public TunerSettings withQueryLevels(boolean on) {
        return new TunerSettings(omega, gamma, samples, fallbackStepFraction, maxDecreaseFraction, minStepBytes, minGainFraction,
                writeMemoryFloorBytes, cacheFloorBytes, granularityBytes, sizeRatio, flushCauseScaling, climbSamples, maxStepFraction, on);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException("tuner settings: " + message);
        }
    }
}
