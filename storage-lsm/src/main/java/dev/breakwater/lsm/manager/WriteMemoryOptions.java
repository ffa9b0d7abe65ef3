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
 *                        so a tree that has just flushed does not grow levels it will retire soon
 */
public record WriteMemoryOptions(WriteMemoryScheme scheme, FlushPolicyKind policy, double flushThreshold,
                                 int staticDatasets, long logWindowBytes, long minShareBytes) {

    public WriteMemoryOptions {
        if (flushThreshold <= 0 || flushThreshold > 1) {
            throw new IllegalArgumentException("flush threshold must be in (0, 1], got " + flushThreshold);
        }
        if (staticDatasets < 1) {
            throw new IllegalArgumentException("static datasets must be >= 1, got " + staticDatasets);
        }
        if (logWindowBytes <= 0) {
            throw new IllegalArgumentException("log window must be positive, got " + logWindowBytes);
        }
    }
}
