package dev.breakwater.common.config;

/** When leveling merges L0 into L1, and what the level sizes start from (docs/design.md, "L0 merges"). */
public enum L0MergePolicy {
    /**
     * Paper 000 as written: an L0 merge is due at min(4, l0-slowdown-groups) groups, and level sizes
     * start from the tree's write memory M (L1 is added when it exceeds M·T).
     */
    GROUPS,
    /**
     * An L0 merge is due at l0-slowdown-groups − 2 groups (at least 2), and level sizes start from
     * what one such merge moves, B = groups·M (L1 is added when it exceeds B·T): fewer, larger L0
     * merges into fewer levels, for less write amplification at the cost of more L0 groups to read.
     */
    BATCHED
}
