package dev.breakwater.common.config;

/** How Bloom filter bits per key are spread over the levels of an LSM-tree (option {@code bloom-allocation}). */
public enum BloomAllocationKind {
    /** Every level gets bloom-bits-per-key. */
    UNIFORM,
    /**
     * Monkey (paper 004, equations 7 to 9): the same total filter memory, spread so that the sum of
     * false-positive rates over all runs is minimal: smaller runs get more bits, the last level fewer.
     */
    MONKEY
}
