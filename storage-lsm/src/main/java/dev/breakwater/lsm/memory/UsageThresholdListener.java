package dev.breakwater.lsm.memory;

/**
 * Told when the pages handed out by a {@link WriteMemoryPool} reach a registered fraction of its
 * budget: the seam for a global write-memory manager that picks a tree to flush (DESIGN.md §3).
 *
 * <p>Called on the thread whose allocation (or capacity change) crossed the threshold, after the
 * pool's lock is released. It must be quick and must not block on a flush: typically it wakes a
 * flush thread. It may call back into the pool.
 */
@FunctionalInterface
public interface UsageThresholdListener {

    /**
     * @param usedBytes     bytes handed out when the threshold was observed crossed
     * @param capacityBytes the budget at that time
     */
    void thresholdReached(long usedBytes, long capacityBytes);
}
