package dev.breakwater.common.config;

/** Which tree a memory-triggered flush picks (paper 000, section 4.2). */
public enum FlushPolicyKind {
    /** The tree holding the most write memory. */
    MAX_MEMORY,
    /** The tree holding the oldest log LSN in memory. */
    MIN_LSN,
    /** The tree whose share of write memory most exceeds its share of recent writes. */
    OPTIMAL
}
