package dev.breakwater.txn;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.tuner.TreeSample;
import dev.breakwater.tuner.TuningSample;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that reads the engine's statistics for the tuner: turns two {@link EngineStatistics}
 * snapshots into the {@link TuningSample} of the cycle between them (paper 000, Table 2). When a
 * counter's meaning is fixed, this is the class to change.
 *
 * <p>Readings, and what each rests on:
 * <ul>
 *   <li>{@code op}: {@link OperationCounts#total()} (point reads, scans, record writes);</li>
 *   <li>{@code merge_i}: the tree's {@code mergeBytesWritten}; {@code flush_mem_i},
 *       {@code flush_log_i}: its bytes flushed by cause;</li>
 *   <li>{@code |L_N_i|}: the deepest <em>non-empty</em> level of {@code levelBytes} at the cycle's end
 *       (a tree starts with an empty last level, which would make |L_N| zero);</li>
 *   <li>{@code a_i}: the tree's average write memory over recent ticks divided by {@code x} (the
 *       memory the manager sizes its levels for), or its current share when it has no average;</li>
 *   <li>{@code read_q_i}: the tree's {@code queryPagesRead}, the buffer cache's query misses on its
 *       SSTables (the cache counts them per registered file for the tree that opened it), and
 *       the part of them its point lookups read ({@code pointQueryPagesRead}, counted by the lookup);</li>
 *   <li>{@code saved_q}, {@code saved_m}, {@code sim}: the buffer cache's simulated-cache counters and
 *       ghost capacity in pages times the page size;</li>
 *   <li>{@code read_q}, {@code read_m}, flush and merge pages written: the I/O counters by purpose;</li>
 *   <li>log-trim pages written: the log packer's {@code bytesWritten} over the page size (rounded up).</li>
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
final class TuningSampleAdapter {

    private TuningSampleAdapter() {
    }

    /**
     * The cycle from {@code before} to {@code after}, during which write memory was {@code x}.
     *
     * @param totalMemory write memory plus buffer cache
     */
    static TuningSample sample(EngineStatistics before, EngineStatistics after, long x, long totalMemory, int pageSize) {
        List<TreeSample> trees = new ArrayList<>(after.trees().size());
        for (var e : after.trees().entrySet()) {
            TreeStatisticsSnapshot now = e.getValue();
            TreeStatisticsSnapshot then = before.trees().get(e.getKey());
            long merge = now.mergeBytesWritten() - (then == null ? 0 : then.mergeBytesWritten());
            long flushMem = now.bytesFlushedForMemory() - (then == null ? 0 : then.bytesFlushedForMemory());
            long flushLog = now.bytesFlushedForLog() - (then == null ? 0 : then.bytesFlushedForLog());
            long queryReads = Math.max(0, now.queryPagesRead() - (then == null ? 0 : then.queryPagesRead()));
            long pointReads = now.pointQueryPagesRead() - (then == null ? 0 : then.pointQueryPagesRead());
            // the two counters are read one after the other while lookups run: keep the part within the whole
            pointReads = Math.max(0, Math.min(queryReads, pointReads));
            trees.add(new TreeSample(e.getKey(), Math.max(0, merge), Math.max(0, flushMem), Math.max(0, flushLog),
                    deepestNonEmptyLevel(now), share(after.writeMemory(), e.getKey(), x), queryReads, pointReads));
        }
        BufferCacheSnapshot c1 = after.bufferCache();
        BufferCacheSnapshot c0 = before.bufferCache();
        var io = after.io().minus(before.io());
        return new TuningSample(Math.max(0, after.operations().total() - before.operations().total()), trees,
                diff(c1.saved(IoPurpose.QUERY), c0.saved(IoPurpose.QUERY)), diff(c1.saved(IoPurpose.MERGE), c0.saved(IoPurpose.MERGE)),
                c1.simulatedCapacityPages() * pageSize, Math.max(0, io.pagesRead(IoPurpose.QUERY)),
                Math.max(0, io.pagesRead(IoPurpose.MERGE)), Math.max(0, io.pagesWritten(IoPurpose.FLUSH)),
                Math.max(0, io.pagesWritten(IoPurpose.MERGE)), pageSize, x, totalMemory,
                (diff(after.logPacker().bytesWritten(), before.logPacker().bytesWritten()) + pageSize - 1) / pageSize);
    }

    static long deepestNonEmptyLevel(TreeStatisticsSnapshot t) {
        List<Long> levels = t.levelBytes();
        for (int i = levels.size() - 1; i >= 0; i--) {
            if (levels.get(i) > 0) {
                return levels.get(i);
            }
        }
        return 0;
    }

    private static double share(WriteMemorySnapshot wm, String tree, long x) {
        WriteMemorySnapshot.TreeShare s = wm.trees().get(tree);
        if (s == null) {
            return 0;
        }
        double a = s.averageMemoryBytes() > 0 ? s.averageMemoryBytes() / x : s.memoryShare();
        return Math.max(0, Math.min(1, a));
    }

    private static long diff(long now, long then) {
        return Math.max(0, now - then);
    }
}
