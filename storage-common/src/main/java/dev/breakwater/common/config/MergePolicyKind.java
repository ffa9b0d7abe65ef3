package dev.breakwater.common.config;

/** The merge policy of every LSM-tree (DESIGN.md §4). */
public enum MergePolicyKind {
    /** Partitioned leveling: one sorted run per level, merges pick the SSTable with least overlap. */
    LEVELING,
    /** Tiering: up to size-ratio runs per level, merged together when the level is full. */
    TIERING,
    /** Up to runs-per-level runs per level (K in [1, size-ratio − 1]): between leveling (K = 1) and tiering. */
    RUNS_PER_LEVEL
}
