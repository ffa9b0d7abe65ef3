package dev.breakwater.tpcc;

import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * One LSM-tree's share of a run's measured window: what the memory tuner's eq. 4 reads for it (merge
 * bytes written, flush bytes by cause) as differences over the window, and its shape at the window's
 * end (level sizes, write memory). Lets a reader check eq. 4's prediction against merge bytes measured
 * at two fixed splits (docs/benchmarks-tuner.md). Immutable.
 *
 * @param entriesWritten           puts and deletes applied in the window
 * @param bytesFlushedForMemory    bytes flushed because write memory ran short ({@code flush_mem_i})
 * @param bytesFlushedForLog       bytes flushed for log truncation ({@code flush_log_i})
 * @param bytesFlushed             all bytes flushed
 * @param merges                   merges installed
 * @param mergeBytesWritten        bytes merges wrote ({@code merge_i})
 * @param mergeBytesWrittenByLevel the same by output level
 * @param levelBytes               bytes per disk level at the end (L0 first)
 * @param deepestLevelBytes        the deepest non-empty level at the end ({@code |L_N_i|})
 * @param averageMemoryBytes       the tree's average write memory at the end (the manager's; {@code a_i·x})
 * @param memoryBytes              the tree's write memory at the end
 * @param queryPagesRead           pages of its SSTables queries read from disk in the window ({@code read_q_i})
 * @param pointQueryPagesRead      the part of them point lookups read (the rest, scans')
 */
public record TreeWindow(long entriesWritten, long bytesFlushedForMemory, long bytesFlushedForLog, long bytesFlushed,
                         long merges, long mergeBytesWritten, List<Long> mergeBytesWrittenByLevel, List<Long> levelBytes,
                         long deepestLevelBytes, double averageMemoryBytes, long memoryBytes, long queryPagesRead,
                         long pointQueryPagesRead) {

    static TreeWindow of(TreeStatisticsSnapshot before, TreeStatisticsSnapshot after, WriteMemorySnapshot.TreeShare share) {
        long entries = after.entriesWritten() - (before == null ? 0 : before.entriesWritten());
        List<Long> byLevel = new ArrayList<>();
        for (int i = 0; i < after.mergeBytesWrittenByLevel().size(); i++) {
            long then = before == null || i >= before.mergeBytesWrittenByLevel().size() ? 0 : before.mergeBytesWrittenByLevel().get(i);
            byLevel.add(after.mergeBytesWrittenByLevel().get(i) - then);
        }
        return new TreeWindow(entries,
                after.bytesFlushedForMemory() - (before == null ? 0 : before.bytesFlushedForMemory()),
                after.bytesFlushedForLog() - (before == null ? 0 : before.bytesFlushedForLog()),
                after.bytesFlushed() - (before == null ? 0 : before.bytesFlushed()),
                after.merges() - (before == null ? 0 : before.merges()),
                after.mergeBytesWritten() - (before == null ? 0 : before.mergeBytesWritten()),
                List.copyOf(byLevel), List.copyOf(after.levelBytes()), after.deepestLevelBytes(),
                share == null ? 0 : share.averageMemoryBytes(), share == null ? 0 : share.memoryBytes(),
                after.queryPagesRead() - (before == null ? 0 : before.queryPagesRead()),
                after.pointQueryPagesRead() - (before == null ? 0 : before.pointQueryPagesRead()));
    }
}
