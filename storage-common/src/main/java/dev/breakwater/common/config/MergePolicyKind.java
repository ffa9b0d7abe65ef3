package dev.breakwater.common.config;

/** The merge policy of every LSM-tree (DESIGN.md §4). */
public enum MergePolicyKind {
    /** Partitioned leveling: one sorted run per level, merges pick the SSTable with least overlap. */
    LEVELING,
    /** Tiering: up to size-ratio runs per level, merged together when the level is full. */
    TIERING
}
