package dev.breakwater.tuner;

/**
 * The controller of paper 000 §5.4: each cycle it turns a {@link TuningSample} into a new write
 * memory size {@code x}, the buffer cache getting the rest of the constant total {@code M}.
 *
 * <h2>Step</h2>
 * {@code cost'(x)} comes from {@link CostModel}. The pair {@code (x, cost'(x))} joins a window of the
 * last K; a least-squares line {@code cost'(x) ≈ A·x + B} is fitted through it and the Newton–Raphson
 * step is {@code Δ = −cost'(x)/A}, whose expected gain on that line is
 * {@code −(f(x)·Δ + A·Δ²/2)}, with {@code f(x)} the line's value at x (this cycle's cost'(x) when
 * the slope is an earlier one). A fixed step's expected gain is {@code −f(x)·Δ} on the line when one
 * was fitted, else {@code −cost'(x)·Δ}.
 *
 * <h2>Noise</h2>
 * With short cycles one cycle's {@code cost'(x)} can vary by more than its mean (merges come in
 * bursts), and a line through two such samples one minimum step apart is steep noise: every Newton
 * step on it is under the minimum step and the split freezes (TPC-C at 64 MiB, docs/benchmarks-tuner.md).
 * So the controller keeps a {@code DerivativeNoise}, an estimate σ of one cycle's noise from the
 * spread of the samples taken at one x, and:
 * <ul>
 *   <li>uses a fitted slope only when it is at least {@code SLOPE_Z} (2) standard errors
 *       ({@code σ/√Σ(x−x̄)²}) from zero; while σ is unknown, only when its samples spread over at
 *       least one fixed step (the paper's rules then apply to it unchanged);</li>
 *   <li>reuses the last usable slope (when the window's own slope is not usable) only while it is
 *       at most {@code 2K} cycles old and still significant for the current σ, so a slope from
 *       samples too close for the noise, or from an older workload, is dropped;</li>
 *   <li>without a usable slope, takes the fixed step against the sign of the mean {@code cost'} of
 *       the recent samples at this x ({@link StepReason#FALLBACK_NOISY_SLOPE}) only when that mean is
 *       {@code MEAN_Z} (1.5) standard errors from zero, and no step otherwise
 *       ({@link StepReason#STOP_WITHIN_NOISE});</li>
 *   <li>while σ is unknown, holds for a cycle when {@code cost'} changed sign since the last cycle
 *       (a root crossed, or noise; the next sample at this x measures the noise), and never steps
 *       against the sign of this cycle's own {@code cost'}.</li>
 * </ul>
 *
 * <h2>Climb</h2>
 * A fixed step of 5% per cycle, held whenever the mean cost' at the new x is not yet clear of noise,
 * took 8 cycles to climb from 16 to 28 MiB on TPC-C at 64 MiB while every cycle but one pointed up
 * (docs/benchmarks-tuner.md, fifth session). So when the last n cycles' cost'(x)
 * ({@code climbSamples}, default 2, at whatever x they were taken) agree in sign and each lies at
 * least {@code CLIMB_Z} (1) σ from zero (sign agreement alone while σ is unknown), the controller
 * climbs ({@link StepReason#CLIMB}): instead of a fixed step, and instead of a noise hold, it steps
 * against that sign by twice the previous cycle's step when that went the same way (else the fixed
 * step), at most {@code maxStepFraction·M}; the limits below still apply. A sign change, or a cycle
 * without a step, starts the next climb from the fixed step again. A usable Newton–Raphson step
 * (fitted or last slope) is kept: it knows how far the root is.
 *
 * <h2>Fallbacks (a fixed step of {@code fallbackStepFraction·M} against the sign of cost'(x))</h2>
 * <ul>
 *   <li>fewer than two samples at x spread by at least the minimum step (or, while σ is unknown, by
 *       one fixed step), and no usable earlier slope ({@link StepReason#FALLBACK_FEW_SAMPLES}); when
 *       an earlier slope is usable it is reused ({@link StepReason#NEWTON_LAST_SLOPE}, on the mean
 *       cost' at x): samples piled up at one x after stop decisions say nothing about the slope, and
 *       fixed steps there would oscillate around the optimum;</li>
 *   <li>a flat fit, {@code A = 0} or a root beyond all memory ({@code |cost'/A| ≥ M})
 *       ({@link StepReason#FALLBACK_FLAT_FIT});</li>
 *   <li>a negative slope (significantly, once σ is known): cost'(x) falling means cost(x) is
 *       concave there and Newton–Raphson would climb to a maximum ({@link StepReason#FALLBACK_WRONG_SIGN});</li>
 *   <li>the Newton–Raphson step would not reduce cost on the fitted line
 *       ({@link StepReason#FALLBACK_NO_GAIN}): the line's value at x, {@code f(x) = A·x + B}, averages
 *       the K samples, while the step uses this cycle's {@code cost'(x)}; when the two disagree in sign
 *       (or this cycle's value is more than twice the line's) the step's gain
 *       {@code −(f(x)·Δ + A·Δ²/2)} is not positive.</li>
 * </ul>
 *
 * <h2>Limits, in this order</h2>
 * <ol>
 *   <li>a step takes at most {@code maxDecreaseFraction} of the region that shrinks (the cache when
 *       x grows, write memory when it shrinks): both regions have diminishing returns, so taking
 *       memory away is the risky direction. The limit is never below the minimum step (and one
 *       granule): where 10% of the region is less, a limited step would always be stopped as too
 *       small, and the split could never approach the floors (at 64 MiB with 1 MiB granules, write
 *       memory shrinking from 16 MiB would stop at 9 MiB);</li>
 *   <li>x stays within {@code [writeMemoryFloor, M − cacheFloor]}, both rounded inwards to the
 *       granularity, and x itself moves in whole granules (rounded towards the current x);</li>
 *   <li>stop (no step) if {@code |Δ|} is under the minimum step, or the expected gain of the final
 *       step under {@code minGainFraction} of the current cost {@code ω·write(x) + γ·read(x)}.</li>
 * </ol>
 * Cycles without operations and samples without a simulated cache take no step and do not enter
 * the window.
 *
 * <p>Invariant: a returned {@code writeMemoryAfter} is within the bounds, or equals the sample's x.
 *
 * <p>Thread safety: not thread-safe; one tuner service thread calls {@link #decide} (the service never
 * runs two cycles at once).
 */
public final class MemoryTuner {

    /** A slope is used only when it is at least this many standard errors from zero. */
    static final double SLOPE_Z = 2;
    /**
     * A fixed step on the mean cost'(x) at x is taken only when that mean is this many standard
     * errors from zero. 1.5 rather than 2: near the optimum of TPC-C at 64 MiB the mean is under
     * half of one cycle's noise, and at 2 a dozen cycles passed at each x before a step (10 of 20
     * seeds of {@code MemoryTunerNoisySlopeTest} still far from the optimum after 40 cycles); at 1
     * the noisy synthetic workload of {@code MemoryTunerConvergenceTest} reversed direction 7–8 times
     * in 60 cycles.
     */
    static final double MEAN_Z = 1.5;
    /**
     * A climb needs each of its last n samples at least this many σ (one cycle's noise) from zero:
     * at the optimum, two cycles in a row beyond one σ on the same side happen in 5% of cycle pairs
     * (two-sided), where two cycles of one sign alone happen in half of them.
     */
    static final double CLIMB_Z = 1;

    private final TunerSettings settings;
    private final double[] xs;
    private final double[] ys;
    private int count;
    private int next;
    /** cost'(x) of the recent samples at the current x (they pile up there after stop decisions). */
    private final double[] atX;
    private long atXValue = -1;
    private int atXCount;
    private int atXNext;
    private final DerivativeNoise noise = new DerivativeNoise();
    private long cycles;
    private double lastSlope = Double.NaN;
    private double lastSlopeSxx;
    private long lastSlopeCycle;
    /** cost'(x) of the last {@code climbSamples} cycles (at least the last one), a ring in cycle order. */
    private final double[] recent;
    private int recentCount;
    private int recentNext;
    /** The last step taken: its signed size in bytes and the cycle it was taken in (what a climb doubles). */
    private long lastStep;
    private long lastStepCycle = -1;

    public MemoryTuner(TunerSettings settings) {
        this.settings = settings;
        this.xs = new double[settings.samples()];
        this.ys = new double[settings.samples()];
        this.atX = new double[4 * settings.samples()];
        this.recent = new double[Math.max(1, settings.climbSamples())];
    }

    public TunerSettings settings() {
        return settings;
    }

    /** Forgets every sample, slope and noise estimate, e.g. after the split was set from outside (a seed). */
    public void reset() {
        count = 0;
        next = 0;
        atXValue = -1;
        atXCount = 0;
        atXNext = 0;
        noise.reset();
        lastSlope = Double.NaN;
        recentCount = 0;
        recentNext = 0;
        lastStep = 0;
        lastStepCycle = -1;
    }

    /** Decides the next split for one cycle. */
    public TuningDecision decide(TuningSample sample) {
        long x = sample.writeMemoryBytes();
        if (sample.ops() == 0) {
            return TuningDecision.none(x, StepReason.STOP_EMPTY_CYCLE, null);
        }
        CostDerivative d = CostModel.derive(sample, settings.omega(), settings.gamma(), settings.sizeRatio(),
                settings.flushCauseScaling(), settings.queryLevels());
        if (sample.simulatedBytes() == 0) {
            return TuningDecision.none(x, StepReason.STOP_NO_SIMULATED_CACHE, d);
        }
        double c = d.costPrime();
        if (c == 0 || !Double.isFinite(c)) {
            return TuningDecision.none(x, StepReason.STOP_ZERO_DERIVATIVE, d);
        }
        remember(x, c);
        long total = sample.totalMemoryBytes();
        long minSpread = Math.max(1, settings.minStepBytes());
        LineFit fit = LineFit.of(xs, ys, count, minSpread);
        updateNoise();
        double sigma = noise.sigma(); // NaN while unknown
        double fixedStep = settings.fallbackStepFraction() * total;
        double meanAtX = meanAtX();
        boolean climb = climbing(c, sigma) && !rootWithinFixedStep(c, fixedStep, sigma);
        double slope = Double.NaN;
        StepReason reason = null;
        if (fit != null && noise.known()) {
            double se = fit.slopeError(sigma);
            if (fit.slope() >= SLOPE_Z * se && fit.slope() > 0) {
                reason = Math.abs(c / fit.slope()) >= total ? StepReason.FALLBACK_FLAT_FIT : StepReason.NEWTON;
            } else if (fit.slope() <= -SLOPE_Z * se && fit.slope() < 0) {
                reason = StepReason.FALLBACK_WRONG_SIGN;
            } // else: the slope is within noise of zero; an earlier slope or the mean at x decides
        } else if (fit != null && spread() >= fixedStep) {
            // noise unknown: the paper's rules, for samples at least one fixed step apart
            if (fit.slope() == 0 || Math.abs(c / fit.slope()) >= total) {
                reason = StepReason.FALLBACK_FLAT_FIT;
            } else {
                reason = fit.slope() < 0 ? StepReason.FALLBACK_WRONG_SIGN : StepReason.NEWTON;
            }
        }
        if (reason == StepReason.NEWTON) {
            slope = fit.slope();
            lastSlope = slope;
            lastSlopeSxx = fit.sxx();
            lastSlopeCycle = cycles;
        } else if (reason == null && lastSlopeUsable(sigma)) {
            slope = lastSlope;
            reason = StepReason.NEWTON_LAST_SLOPE;
        }
        // this cycle's estimate of cost'(x): its own value for the paper's rules, the mean at x otherwise
        double estimate = reason == StepReason.NEWTON || reason == StepReason.FALLBACK_FLAT_FIT
                || reason == StepReason.FALLBACK_WRONG_SIGN ? c : meanAtX;
        if (Math.signum(estimate) != Math.signum(c)) {
            if (!climb) {
                // the mean says one way, this cycle the other: its sign is not known well enough to step
                return new TuningDecision(x, x, StepReason.STOP_WITHIN_NOISE, d, Double.NaN, 0, false, false);
            }
            // the last n cycles agree, the mean at x (older samples here) does not: the recent cycles decide
            reason = StepReason.CLIMB;
            slope = Double.NaN;
            estimate = c;
        }
        if (reason == null) {
            if (climb) {
                reason = StepReason.CLIMB;
                estimate = c;
            } else if (!noise.known()) {
                if (count >= 2 && Math.signum(ys[Math.floorMod(next - 2, ys.length)]) != Math.signum(c)) {
                    // cost' changed sign since the last cycle and the noise is unknown: a root crossed, or
                    // noise; hold one cycle (its sample at this x measures the noise) rather than reverse
                    return new TuningDecision(x, x, StepReason.STOP_WITHIN_NOISE, d, Double.NaN, 0, false, false);
                }
                reason = StepReason.FALLBACK_FEW_SAMPLES;
                estimate = c;
            } else if (Math.abs(meanAtX) < MEAN_Z * sigma / Math.sqrt(atXCount)) {
                return new TuningDecision(x, x, StepReason.STOP_WITHIN_NOISE, d, Double.NaN, 0, false, false);
            } else {
                reason = StepReason.FALLBACK_NOISY_SLOPE;
            }
        }
        // The line's value at x: the K samples averaged, so less noisy than this cycle's cost'(x) alone.
        double lineAtX = reason == StepReason.NEWTON ? fit.valueAt(x) : estimate;
        double step;
        if (reason == StepReason.CLIMB) {
            step = -Math.signum(c) * climbStep(c, fixedStep, total);
        } else if (!Double.isNaN(slope) && gain(lineAtX, slope, -estimate / slope) <= 0) {
            if (climb) {
                // the Newton step is not trusted this cycle and the recent cycles agree: climb, not a fixed step
                reason = StepReason.CLIMB;
                slope = Double.NaN;
                estimate = c;
                step = -Math.signum(c) * climbStep(c, fixedStep, total);
            } else {
                reason = StepReason.FALLBACK_NO_GAIN;
                step = -Math.signum(estimate) * fixedStep;
            }
        } else if (Double.isNaN(slope)) {
            if (climb) {
                reason = StepReason.CLIMB;
                estimate = c;
                step = -Math.signum(c) * climbStep(c, fixedStep, total);
            } else {
                step = -Math.signum(estimate) * fixedStep;
            }
        } else {
            step = -estimate / slope;
        }
        // 1. limit the decrease of the region that shrinks, but never below the minimum step: 10% of a
        //    small region can be less than the minimum step (or a granule), and the split would freeze
        long g = settings.granularityBytes();
        boolean limited = false;
        double maxStep = Math.max(settings.maxDecreaseFraction() * (step > 0 ? total - x : x),
                Math.max(settings.minStepBytes(), g));
        if (Math.abs(step) > maxStep) {
            step = Math.signum(step) * maxStep;
            limited = true;
        }
        // 2. bounds and granules
        long low = ceilTo(settings.writeMemoryFloorBytes(), g);
        long high = Math.floorDiv(total - settings.cacheFloorBytes(), g) * g;
        double target = x + step;
        boolean clamped = false;
        if (target < low || target > high) {
            target = Math.max(low, Math.min(high, target));
            clamped = true;
        }
        long after = target > x ? Math.floorDiv((long) target, g) * g : ceilTo((long) Math.ceil(target), g);
        if (after > high || after < low || (after - x) * step < 0) {
            after = x; // the current x sits outside the granule-aligned bounds; never step away from them
        }
        long delta = after - x;
        double expected = Double.isNaN(slope) ? -estimate * delta : gain(lineAtX, slope, delta);
        // 3. stop rules
        if (delta == 0 && clamped) {
            return new TuningDecision(x, x, StepReason.STOP_AT_BOUND, d, slope, 0, limited, true);
        }
        if (Math.abs(delta) < Math.max(1, settings.minStepBytes())) {
            return new TuningDecision(x, x, StepReason.STOP_SMALL_STEP, d, slope, 0, limited, clamped);
        }
        if (expected < settings.minGainFraction() * d.cost() || expected <= 0) {
            return new TuningDecision(x, x, StepReason.STOP_SMALL_GAIN, d, slope, 0, limited, clamped);
        }
        lastStep = delta;
        lastStepCycle = cycles;
        return new TuningDecision(x, after, reason, d, slope, expected, limited, clamped);
    }

    /**
     * Whether the last {@code climbSamples} cycles (this one included) agree with {@code c} in sign and
     * each lies at least {@code CLIMB_Z}·σ from zero (any nonzero value while σ is unknown).
     */
    private boolean climbing(double c, double sigma) {
        int n = settings.climbSamples();
        if (n == 0 || recentCount < n) {
            return false;
        }
        double band = Double.isNaN(sigma) ? 0 : CLIMB_Z * sigma;
        for (int i = 0; i < n; i++) {
            if (Math.signum(recent[i]) != Math.signum(c) || Math.abs(recent[i]) < band) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the last fitted slope, however old, still stands clear of the noise and puts the root of
     * cost' within one fixed step of x: then there is nothing to climb, and the paper's rules decide.
     * Without this, a split held by the Newton step's stop rules would climb one fixed step past the
     * root each time the last slope aged out (every 2K cycles, on a noise-free cost).
     */
    private boolean rootWithinFixedStep(double c, double fixedStep, double sigma) {
        if (Double.isNaN(lastSlope) || !Double.isNaN(sigma) && lastSlope < SLOPE_Z * sigma / Math.sqrt(lastSlopeSxx)) {
            return false;
        }
        return Math.abs(c / lastSlope) < fixedStep;
    }

    /**
     * Size of a climb step: twice the previous cycle's step when it went the same way (against the
     * sign of {@code c}), at most {@code maxStepFraction·M}, never below the fixed step.
     */
    private double climbStep(double c, double fixedStep, long total) {
        boolean continues = lastStepCycle == cycles - 1 && Long.signum(lastStep) == -(int) Math.signum(c);
        if (!continues) {
            return fixedStep;
        }
        return Math.max(fixedStep, Math.min(2.0 * Math.abs(lastStep), settings.maxStepFraction() * total));
    }

    /**
     * Whether the last fitted slope may be reused: it is at most {@code 2K} cycles old (a slope from
     * an older workload would otherwise hold the split for the rest of the run), and, once the noise
     * is known, still {@code SLOPE_Z} (2) standard errors from zero for the spread of the samples it was
     * fitted from (a slope fitted from samples too close for the noise is dropped).
     */
    private boolean lastSlopeUsable(double sigma) {
        if (Double.isNaN(lastSlope) || cycles - lastSlopeCycle > 2L * xs.length) {
            return false;
        }
        return Double.isNaN(sigma) || lastSlope >= SLOPE_Z * sigma / Math.sqrt(lastSlopeSxx);
    }

    /**
     * Adds the deviations of the recent samples at this x from their mean to the noise estimate: at
     * one x, what differs between cycles is noise (or a change of workload), never the curvature of
     * cost'(x), which the residuals of a line through distant samples would also hold.
     */
    private void updateNoise() {
        if (atXCount < 2) {
            noise.age();
            return;
        }
        double mean = meanAtX();
        double ss = 0;
        for (int i = 0; i < atXCount; i++) {
            ss += (atX[i] - mean) * (atX[i] - mean);
        }
        noise.add(ss, atXCount - 1);
    }

    private double spread() {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            min = Math.min(min, xs[i]);
            max = Math.max(max, xs[i]);
        }
        return max - min;
    }

    private double meanAtX() {
        double sum = 0;
        for (int i = 0; i < atXCount; i++) {
            sum += atX[i];
        }
        return sum / atXCount;
    }

    /** Cost reduction of a step {@code delta} on the line {@code cost'(x+t) = c + slope·t}. */
    private static double gain(double c, double slope, double delta) {
        return -(c * delta + slope * delta * delta / 2);
    }

    private void remember(long x, double c) {
        cycles++;
        recent[recentNext] = c;
        recentNext = (recentNext + 1) % recent.length;
        recentCount = Math.min(recentCount + 1, recent.length);
        xs[next] = x;
        ys[next] = c;
        next = (next + 1) % xs.length;
        count = Math.min(count + 1, xs.length);
        if (x != atXValue) {
            atXValue = x;
            atXCount = 0;
            atXNext = 0;
        }
        atX[atXNext] = c;
        atXNext = (atXNext + 1) % atX.length;
        atXCount = Math.min(atXCount + 1, atX.length);
    }

    private static long ceilTo(long v, long g) {
        return Math.floorDiv(v + g - 1, g) * g;
    }
}
