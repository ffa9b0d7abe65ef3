package dev.breakwater.common.config;

/** How write memory is organized across trees (paper 000, sections 4 and 6.2). */
public enum WriteMemoryScheme {
    /**
     * One global pool; each tree has a partitioned memory component: an active M0 of
     * memory-component-size, sealed into memory levels of compact memory SSTables that flush partially.
     */
    PARTITIONED,
    /** One global pool; each tree has one mutable memory component, flushed whole (the B+-dynamic baseline). */
    DYNAMIC,
    /** At most D active datasets, each with 1/D of write memory, flushing all its trees together (B+-static). */
    STATIC
}
