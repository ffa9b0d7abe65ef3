package dev.breakwater.common.config;

/** The merge policy of every LSM-tree (DESIGN.md §4). */
public enum MergePolicyKind {
    /** Partitioned leveling: one sorted run per level, merges pick the SSTable with least overlap. */
    LEVELING,
    /** Tiering: up to size-ratio runs per level, merged together when the level is full. */
    TIERING,
    /** Up to runs-per-level runs per level (K in [1, size-ratio − 1]): between leveling (K = 1) and tiering. */
    RUNS_PER_LEVEL,
    /**
     * Garnering (paper 004): one run per level like leveling, but the last two levels keep ratio
     * size-ratio T and each smaller pair's ratio is divided by garnering-scale c once more, so the
     * tree has fewer levels; a full last level gets a new level appended below it.
     */
    GARNERING
}
