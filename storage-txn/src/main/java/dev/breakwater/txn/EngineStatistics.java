package dev.breakwater.txn;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.tuner.TuningCycle;
import dev.breakwater.txn.lock.LockStats;
import dev.breakwater.txn.log.LogStatistics;
import dev.breakwater.txn.log.PackerStatistics;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of everything the engine counts (DESIGN.md section 6), for benchmarks, the memory tuner
 * and the stats endpoint.
 *
 * @param io                 pages and bytes read and written, by purpose
 * @param bufferCache        buffer-cache capacity, hits, misses and simulated-cache saves by purpose
 * @param writeMemoryUsed    bytes of write memory held by memory components
 * @param writeMemoryCapacity the write-memory budget
 * @param log                transaction-log counters (records, batches, fsyncs)
 * @param logSizeBytes       current length of the retained log
 * @param locks              lock requests, waits, deadlocks and timeouts
 * @param transactionRetries transactions {@code inTransaction} ran again after an abort
 * @param trees              per-tree statistics, by tree name ({@code dataset.index}; for partition k of
 *                           a partitioned dataset {@code dataset.index.pk})
 * @param gcMillis           total GC time of the JVM so far
 * @param writeMemory        the write-memory manager's view: each tree's share of memory and of
 *                           writes, and pool utilization over time
 * @param operations         point reads, scans and record writes since open ({@code op} for the tuner)
 * @param tuner              the memory tuner's recent cycles, oldest first (docs/tuner.md)
 * @param logPacker          the log packer's counters (paper 002; all zero when {@code log-trim} and
 *                           {@code log-compression} are off)
 */
public record EngineStatistics(IoStatisticsSnapshot io, BufferCacheSnapshot bufferCache, long writeMemoryUsed,
                               long writeMemoryCapacity, LogStatistics log, long logSizeBytes, LockStats locks,
                               long transactionRetries, Map<String, TreeStatisticsSnapshot> trees, long gcMillis,
                               WriteMemorySnapshot writeMemory, OperationCounts operations, List<TuningCycle> tuner,
                               PackerStatistics logPacker) {

    static EngineStatistics of(StorageEngine e) {
        Map<String, TreeStatisticsSnapshot> trees = new LinkedHashMap<>();
        for (var t : e.trees.values()) {
            trees.put(t.name(), t.statistics());
        }
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        return new EngineStatistics(e.io.snapshot(), e.cache.snapshot(), e.pool.usedBytes(), e.pool.capacityBytes(),
                e.log.statistics(), e.log.sizeBytes(), e.locks.stats(), e.locks.retries(), trees, gc, e.writeMemory.snapshot(),
                e.operations.snapshot(), e.tunerHistory(), e.packer.statistics());
    }
}
