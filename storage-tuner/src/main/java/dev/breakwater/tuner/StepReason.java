package dev.breakwater.tuner;

/** Why a tuning cycle moved memory the way it did, or why it did not. */
public enum StepReason {
    /** A Newton–Raphson step on the line fitted through the last K samples. */
    NEWTON(true),
    /**
     * A Newton–Raphson step on the last usable slope: the last K samples sit at (nearly) one x, so they
     * do not determine a slope, but an earlier fit did. Near the optimum this keeps a noisy cost'(x)
     * from triggering fixed steps that would oscillate around it.
     */
    NEWTON_LAST_SLOPE(true),
    /**
     * Fixed step: fewer than two samples at distinct x and no usable earlier slope; or, while the
     * noise of cost'(x) is not yet known, samples spread by less than one fixed step.
     */
    FALLBACK_FEW_SAMPLES(true),
    /** Fixed step: the fitted line is flat, so x − cost'/A is undefined. */
    FALLBACK_FLAT_FIT(true),
    /** Fixed step: the fitted slope is negative (cost'(x) falling), so Newton–Raphson would climb. */
    FALLBACK_WRONG_SIGN(true),
    /** Fixed step: on the fitted line the Newton–Raphson step would not reduce cost. */
    FALLBACK_NO_GAIN(true),
    /**
     * Fixed step: the fitted slope is within noise of zero (its samples lie too close together for the
     * noise of cost'(x)), and no earlier slope is usable, but the mean cost'(x) at this x is clearly
     * not zero: the step goes against its sign.
     */
    FALLBACK_NOISY_SLOPE(true),
    /**
     * A climb: no trustworthy Newton step, but the last n cycles' cost'(x) agree in sign and each
     * lies beyond the noise band (one σ from zero; sign agreement alone while σ is unknown). The step
     * goes against that sign and doubles the previous step taken in the same direction, up to the
     * maximum step; it replaces a fixed step and overrides the noise hold
     * ({@link #STOP_WITHIN_NOISE}).
     */
    CLIMB(true),
    /**
     * No step: no slope is usable and the mean cost'(x) at this x is within noise of zero, so even
     * its sign is not known.
     */
    STOP_WITHIN_NOISE(false),
    /** No step: the step was under the minimum step. */
    STOP_SMALL_STEP(false),
    /** No step: the expected cost reduction was under the minimum gain. */
    STOP_SMALL_GAIN(false),
    /** No step: the step pointed past a floor and the split already sits at it. */
    STOP_AT_BOUND(false),
    /** No step: the cycle counted no operations. */
    STOP_EMPTY_CYCLE(false),
    /** No step: cost'(x) was exactly zero (or not finite). */
    STOP_ZERO_DERIVATIVE(false),
    /** No step: the simulated cache is off, so read'(x) is unknown and only write'(x) would speak. */
    STOP_NO_SIMULATED_CACHE(false),
    /** No step: the tuner is off (the cycle is recorded for its statistics). */
    STOP_DISABLED(false);

    private final boolean step;

    StepReason(boolean step) {
        this.step = step;
    }

    /** Whether this reason moves memory. */
    public boolean isStep() {
        return step;
    }
}
