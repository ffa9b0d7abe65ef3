package dev.breakwater.lsm.tree;

import java.util.List;

/**
 * A copy of one tree's statistics.
 *
 * @param entriesWritten       puts and deletes applied ({@code w_i})
 * @param flushes              flushes installed
 * @param bytesFlushed         bytes of SSTables written by flushes
 * @param bytesFlushedForMemory bytes flushed because memory ran short or a table filled ({@code flush_mem_i})
 * @param bytesFlushedForLog   bytes flushed to let the log be truncated ({@code flush_log_i})
 * @param merges               merges installed
 * @param mergeBytesRead       bytes of input SSTables of merges
 * @param mergeBytesWritten    bytes merges have written ({@code merge_i}), counted per page batch as it
 *                             reaches the file, not when the merge installs: a snapshot taken during a
 *                             merge includes what it has written so far (and a merge that fails after
 *                             writing stays counted: the I/O happened)
 * @param levelBytes           bytes per level, L0 first; the last level may be empty (a tree starts
 *                             with an empty L1, and an added level is empty until merges fill it), so
 *                             use {@link #deepestLevelBytes} for {@code |L_N|}
 * @param levelTables          SSTables per level
 * @param l0Groups             groups (runs) in L0
 * @param memoryBytes          write memory held by memory tables
 * @param bloomProbes          Bloom filter probes by point lookups
 * @param bloomNegatives       probes that excluded the key (no data page read)
 * @param bloomFalsePositives  probes that said "maybe" for a key the table did not hold
 * @param flushSlowdowns       flushes delayed because L0 reached the slowdown threshold
 * @param flushStops           flushes that waited because L0 reached the stop threshold
 * @param flushStallNanos      time flushes spent delayed or waiting
 * @param writeSlowdowns       writes delayed because the write-memory pool was nearly full
 * @param writeStalls          writes that waited for memory (the pool was full)
 * @param writeStallNanos      time writes spent delayed or waiting
 * @param memorySeals          partitioned component: sealed M0s merged into memory level M1
 * @param memoryMerges         partitioned component: merges between memory levels
 * @param memoryMergeBytes     partitioned component: input bytes of memory merges
 * @param mergeBytesWrittenByLevel {@code mergeBytesWritten} by the merge's output level, L0 first, as
 *                             levels were numbered when each merge was picked (a level added or
 *                             retired later does not move bytes already counted); levels from 15 down
 *                             share the last entry; the list ends at the deepest level with bytes
 * @param deepestLevel         index of the deepest level holding data (-1 if every level is empty):
 *                             the level whose size is the tree's {@code |L_N|}; L0 when only L0 holds data
 * @param deepestLevelBytes    bytes of that level ({@code |L_N|}; 0 if no level holds data)
 * @param memorySealBytes      partitioned component: input bytes of seals (the sealed M0's pages plus
 *                             the overlapping M1 tables it was merged with); with
 *                             {@code memoryMergeBytes}, what the memory levels rewrote
 * @param queryPagesRead       pages of the tree's SSTables that queries read from disk (its buffer-cache
 *                             query misses), point lookups' and scans' together
 * @param pointQueryPagesRead  the part of {@code queryPagesRead} that point lookups read (Bloom, index and
 *                             leaf pages of the table holding the key): a lookup's Bloom filters skip the
 *                             levels without its key, so these reads do not grow with the level count as a
 *                             scan's do ({@code queryPagesRead − pointQueryPagesRead})
 * @param shape                what the tree's memory holds now and how its flushes split by cause
 *                             ({@link MemoryShape}); for benchmarks that follow it over time
 */
public record TreeStatisticsSnapshot(long entriesWritten, long flushes, long bytesFlushed, long bytesFlushedForMemory,
                                     long bytesFlushedForLog, long merges,
                                     long mergeBytesRead, long mergeBytesWritten, List<Long> levelBytes,
                                     List<Integer> levelTables, int l0Groups, long memoryBytes, long bloomProbes,
                                     long bloomNegatives, long bloomFalsePositives, long flushSlowdowns, long flushStops,
                                     long flushStallNanos, long writeSlowdowns, long writeStalls, long writeStallNanos, long memorySeals,
                                     long memoryMerges, long memoryMergeBytes, List<Long> mergeBytesWrittenByLevel,
                                     int deepestLevel, long deepestLevelBytes, long memorySealBytes,
                                     long queryPagesRead, long pointQueryPagesRead, MemoryShape shape) {

    /**
     * The shape of a tree's write memory at one moment, and its flush counts by cause.
     *
     * @param activeBytes       bytes of the active memory table (M0, or the whole B+-dynamic component)
     * @param activeEntries     entries in it, every version counted (the active table keeps them all)
     * @param sealedBytes       bytes of sealed memory tables still waiting for their seal or flush
     * @param runBytes          partitioned component: bytes of each memory-level run, newest first
     *                          (M1's runs, then one per deeper level); empty for a monolithic one
     * @param runEntries        entries of each of those runs
     * @param flushesForMemory  flushes installed because memory ran short or a table filled
     * @param flushesForLog     flushes installed to let the log be truncated
     * @param sealsWithoutRoom  partitioned component: seals that found the write-memory pool without pages
     *                          for their compact copy of M0 and the M1 tables it overlaps
     * @param bytesFlushedForSealRoom bytes written by the flushes made to free pages for those seals
     *                          (also in {@code bytesFlushedForMemory})
     * @param bytesFlushedForLogRequest partitioned component: bytes written by flushes the log asked for,
     *                          also those counted as memory-triggered because the pool was full then
     * @param sealRoomWaits     partitioned component: seals that waited for the flush policy to free
     *                          pool room for their copy before building
     */
    public record MemoryShape(long activeBytes, long activeEntries, long sealedBytes, List<Long> runBytes, List<Long> runEntries,
                              long flushesForMemory, long flushesForLog, long sealsWithoutRoom, long bytesFlushedForSealRoom,
                              long bytesFlushedForLogRequest, long sealRoomWaits) {
        /** No memory, no flushes. */
        public static final MemoryShape NONE = new MemoryShape(0, 0, 0, List.of(), List.of(), 0, 0, 0, 0, 0, 0);
    }

    /** The snapshot without a memory shape ({@link MemoryShape#NONE}) or query reads (0), for callers that have none to give. */
    public TreeStatisticsSnapshot(long entriesWritten, long flushes, long bytesFlushed, long bytesFlushedForMemory,
                                  long bytesFlushedForLog, long merges,
                                  long mergeBytesRead, long mergeBytesWritten, List<Long> levelBytes,
                                  List<Integer> levelTables, int l0Groups, long memoryBytes, long bloomProbes,
                                  long bloomNegatives, long bloomFalsePositives, long flushSlowdowns, long flushStops,
                                  long flushStallNanos, long writeSlowdowns, long writeStalls, long writeStallNanos, long memorySeals,
                                  long memoryMerges, long memoryMergeBytes, List<Long> mergeBytesWrittenByLevel,
                                  int deepestLevel, long deepestLevelBytes, long memorySealBytes) {
        this(entriesWritten, flushes, bytesFlushed, bytesFlushedForMemory, bytesFlushedForLog, merges, mergeBytesRead, mergeBytesWritten,
                levelBytes, levelTables, l0Groups, memoryBytes, bloomProbes, bloomNegatives, bloomFalsePositives, flushSlowdowns, flushStops,
                flushStallNanos, writeSlowdowns, writeStalls, writeStallNanos, memorySeals, memoryMerges, memoryMergeBytes,
                mergeBytesWrittenByLevel, deepestLevel, deepestLevelBytes, memorySealBytes, 0, 0, MemoryShape.NONE);
    }

    /** Pages the tree's scans (cursors) read from disk: {@code queryPagesRead − pointQueryPagesRead}. */
    public long scanQueryPagesRead() {
        return Math.max(0, queryPagesRead - pointQueryPagesRead);
    }

    /** Bytes written to disk (flushes and merges) per byte flushed: the tree's write amplification after flush. */
    public double mergeAmplification() {
        return bytesFlushed == 0 ? 0 : (double) (bytesFlushed + mergeBytesWritten) / bytesFlushed;
    }
}
