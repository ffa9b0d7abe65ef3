package dev.breakwater.lsm.manager;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;

/**
 * Settings of the {@link WriteMemoryManager}.
 *
 * @param scheme          how write memory is organized
 * @param policy          which tree a memory-triggered flush picks
 * @param flushThreshold  fraction of the pool in use at which memory-triggered flushes start
 * @param staticDatasets  D for the STATIC scheme: datasets that may hold memory at once
 * @param logWindowBytes  write rates for the OPTIMAL policy are measured over this much log (one
 *                        maximum log length)
 * @param minShareBytes   floor of the write-memory share reported to a tree for sizing its levels,
 *                        so a tree that has just flushed does not grow levels it will retire soon;
 *                        with {@code minShareOfCapacity > 0}, only its cap (see {@link #minShare})
 * @param minShareOfCapacity when above 0, the floor is {@code min(minShareBytes, minShareOfCapacity ×
 *                        the pool's current capacity)}: it follows write memory as the tuner moves it
 *                        instead of staying what the opening write memory made it (the engine passes
 *                        1/8 and memory-component-size, the rule M0 is sized by); 0: the floor is
 *                        {@code minShareBytes}
 * @param levelShareTimeConstantNanos the time constant of the slow share a tree's levels are sized
 *                        from ({@link LevelSizingShare}; default
 *                        {@link LevelSizingShare#TIME_CONSTANT_NANOS}, 10 s)
 */
public record WriteMemoryOptions(WriteMemoryScheme scheme, FlushPolicyKind policy, double flushThreshold,
                                 int staticDatasets, long logWindowBytes, long minShareBytes, double minShareOfCapacity,
                                 long levelShareTimeConstantNanos) {

    /** Options with a fixed share floor of {@code minShareBytes}. */
    public WriteMemoryOptions(WriteMemoryScheme scheme, FlushPolicyKind policy, double flushThreshold,
                              int staticDatasets, long logWindowBytes, long minShareBytes) {
        this(scheme, policy, flushThreshold, staticDatasets, logWindowBytes, minShareBytes, 0);
    }

    /** Options with the default time constant of the level-sizing share. */
    public WriteMemoryOptions(WriteMemoryScheme scheme, FlushPolicyKind policy, double flushThreshold,
                              int staticDatasets, long logWindowBytes, long minShareBytes, double minShareOfCapacity) {
        this(scheme, policy, flushThreshold, staticDatasets, logWindowBytes, minShareBytes, minShareOfCapacity,
                LevelSizingShare.TIME_CONSTANT_NANOS);
    }

    /** A copy whose level-sizing share follows the trees' memory with time constant {@code nanos}. */
    public WriteMemoryOptions withLevelShareTimeConstantNanos(long nanos) {
        return new WriteMemoryOptions(scheme, policy, flushThreshold, staticDatasets, logWindowBytes, minShareBytes, minShareOfCapacity, nanos);
    }

    /** The share floor for a pool of {@code capacityBytes}: see {@code minShareOfCapacity}. */
    public long minShare(long capacityBytes) {
        return minShareOfCapacity > 0 ? Math.min(minShareBytes, (long) (minShareOfCapacity * capacityBytes)) : minShareBytes;
    }

    public WriteMemoryOptions {
        if (flushThreshold <= 0 || flushThreshold > 1) {
            throw new IllegalArgumentException("flush threshold must be in (0, 1], got " + flushThreshold);
        }
        if (staticDatasets < 1) {
            throw new IllegalArgumentException("static datasets must be >= 1, got " + staticDatasets);
        }
        if (!(minShareOfCapacity >= 0 && minShareOfCapacity <= 1)) {
            throw new IllegalArgumentException("share floor fraction must be in [0, 1], got " + minShareOfCapacity);
        }
        if (levelShareTimeConstantNanos <= 0) {
            throw new IllegalArgumentException("level share time constant must be positive, got " + levelShareTimeConstantNanos);
        }
        if (logWindowBytes <= 0) {
            throw new IllegalArgumentException("log window must be positive, got " + logWindowBytes);
        }
    }
}
