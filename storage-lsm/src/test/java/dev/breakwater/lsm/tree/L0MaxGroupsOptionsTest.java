package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * How a tree's options set the deepest L0 an amortized L0 merge waits for
 * ({@link dev.breakwater.lsm.merge.MergeSettings#l0MaxGroups()}): two groups below the flush slowdown,
 * never below the merge trigger.
 */
class L0MaxGroupsOptionsTest {

    @Test
    void defaultsWaitUpToTwoGroupsBelowTheSlowdown() {
        LsmTreeOptions o = LsmTreeOptions.defaults(4096, 1 << 20);
        assertEquals(4, o.mergeSettings().l0MergeGroups());
        assertEquals(o.l0SlowdownGroups() - 2, o.mergeSettings().l0MaxGroups());
        assertEquals(12, o.withL0(4, 14, 20).mergeSettings().l0MaxGroups());
    }

    @Test
    void neverBelowTheMergeTrigger() {
        // BATCHED's trigger (slowdown - 2) and shallow slowdowns: no wait beyond l0MergeGroups.
        assertEquals(6, LsmTreeOptions.defaults(4096, 1 << 20).withL0(6, 8, 12).mergeSettings().l0MaxGroups());
        assertEquals(4, LsmTreeOptions.defaults(4096, 1 << 20).withL0(4, 5, 6).mergeSettings().l0MaxGroups());
    }
}
