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
 * <h2>Fallbacks (a fixed step of {@code fallbackStepFraction·M} against the sign of cost'(x))</h2>
 * <ul>
 *   <li>fewer than two samples at x spread by at least the minimum step, and no earlier slope
 *       ({@link StepReason#FALLBACK_FEW_SAMPLES}); when an earlier slope exists it is reused
 *       ({@link StepReason#NEWTON_LAST_SLOPE}): samples piled up at one x after stop decisions say
 *       nothing about the slope, and fixed steps there would oscillate around the optimum;</li>
 *   <li>a flat fit, {@code A = 0} or a root beyond all memory ({@code |cost'/A| ≥ M})
 *       ({@link StepReason#FALLBACK_FLAT_FIT});</li>
 *   <li>a negative slope: cost'(x) falling means cost(x) is concave there and Newton–Raphson would
 *       climb to a maximum ({@link StepReason#FALLBACK_WRONG_SIGN});</li>
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

    private final TunerSettings settings;
    private final double[] xs;
    private final double[] ys;
    private int count;
    private int next;
    private double lastSlope = Double.NaN;

    public MemoryTuner(TunerSettings settings) {
        this.settings = settings;
        this.xs = new double[settings.samples()];
        this.ys = new double[settings.samples()];
    }

    public TunerSettings settings() {
        return settings;
    }

    /** Forgets every sample and slope, e.g. after the split was set from outside (a seed). */
    public void reset() {
        count = 0;
        next = 0;
        lastSlope = Double.NaN;
    }

    /** Decides the next split for one cycle. */
    public TuningDecision decide(TuningSample sample) {
        long x = sample.writeMemoryBytes();
        if (sample.ops() == 0) {
            return TuningDecision.none(x, StepReason.STOP_EMPTY_CYCLE, null);
        }
        CostDerivative d = CostModel.derive(sample, settings.omega(), settings.gamma(), settings.sizeRatio());
        if (sample.simulatedBytes() == 0) {
            return TuningDecision.none(x, StepReason.STOP_NO_SIMULATED_CACHE, d);
        }
        double c = d.costPrime();
        if (c == 0 || !Double.isFinite(c)) {
            return TuningDecision.none(x, StepReason.STOP_ZERO_DERIVATIVE, d);
        }
        remember(x, c);
        long total = sample.totalMemoryBytes();
        double fitted = LineFit.slope(xs, ys, count, Math.max(1, settings.minStepBytes()));
        double slope;
        StepReason reason;
        if (Double.isNaN(fitted)) {
            slope = lastSlope;
            reason = Double.isNaN(slope) ? StepReason.FALLBACK_FEW_SAMPLES : StepReason.NEWTON_LAST_SLOPE;
        } else if (fitted == 0 || Math.abs(c / fitted) >= total) {
            slope = Double.NaN;
            reason = StepReason.FALLBACK_FLAT_FIT;
        } else if (fitted < 0) {
            slope = Double.NaN;
            reason = StepReason.FALLBACK_WRONG_SIGN;
        } else {
            slope = fitted;
            lastSlope = fitted;
            reason = StepReason.NEWTON;
        }
        // The line's value at x: the K samples averaged, so less noisy than this cycle's cost'(x) alone.
        double lineAtX = reason == StepReason.NEWTON ? LineFit.valueAt(xs, ys, count, slope, x) : c;
        double step;
        if (!Double.isNaN(slope) && gain(lineAtX, slope, -c / slope) <= 0) {
            reason = StepReason.FALLBACK_NO_GAIN;
            step = -Math.signum(c) * settings.fallbackStepFraction() * total;
        } else if (Double.isNaN(slope)) {
            step = -Math.signum(c) * settings.fallbackStepFraction() * total;
        } else {
            step = -c / slope;
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
        double expected = Double.isNaN(slope) ? -c * delta : gain(lineAtX, slope, delta);
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
        return new TuningDecision(x, after, reason, d, slope, expected, limited, clamped);
    }

    /** Cost reduction of a step {@code delta} on the line {@code cost'(x+t) = c + slope·t}. */
    private static double gain(double c, double slope, double delta) {
        return -(c * delta + slope * delta * delta / 2);
    }

    private void remember(long x, double c) {
        xs[next] = x;
        ys[next] = c;
        next = (next + 1) % xs.length;
        count = Math.min(count + 1, xs.length);
    }

    private static long ceilTo(long v, long g) {
        return Math.floorDiv(v + g - 1, g) * g;
    }
}
