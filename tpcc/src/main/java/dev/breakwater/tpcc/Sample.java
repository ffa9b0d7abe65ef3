package dev.breakwater.tpcc;

/**
 * One point of the run's time series, taken once a second.
 *
 * @param seconds             time since the run started (warm-up included)
 * @param measuring           whether this second is inside the measurement window
 * @param mix                 the mix the terminals were drawing from
 * @param txPerSecond         transactions committed in the last second (all types)
 * @param newOrdersPerMinute  New-Orders committed in the last second, times 60
 * @param writeMemoryUsed     bytes of write memory held by memory components
 * @param writeMemoryCapacity the write-memory budget
 * @param bufferCacheBytes    the buffer cache's current capacity
 */
public record Sample(double seconds, boolean measuring, String mix, double txPerSecond, double newOrdersPerMinute,
                     long writeMemoryUsed, long writeMemoryCapacity, long bufferCacheBytes) {
}
