package dev.breakwater.lsm.tree;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one tree (DESIGN.md section 6): what the memory tuner and the benchmarks read.
 * Striped adders, so counting costs no lock on hot paths.
 *
 * <p>Thread safety: safe.
 */
final class TreeStatistics {
    /** Levels with their own merge-bytes counter; deeper output levels share the last one. */
    static final int TRACKED_LEVELS = 16;

    final LongAdder entriesWritten = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder bytesFlushed = new LongAdder();
    /** Bytes flushed, by {@link FlushCause} ordinal. */
    final LongAdder[] bytesFlushedBy = {new LongAdder(), new LongAdder(), new LongAdder()};
    /** Flushes installed, by {@link FlushCause} ordinal. */
    final LongAdder[] flushesBy = {new LongAdder(), new LongAdder(), new LongAdder()};
    final LongAdder merges = new LongAdder();
    /** Merges done as a trivial move (one version edit, nothing rewritten); not in {@link #merges}. */
    final LongAdder trivialMoves = new LongAdder();
    /** Partitioned memory component: sealed M0s merged into M1, memory merges and their input bytes. */
    final LongAdder memorySeals = new LongAdder();
    final LongAdder memoryMerges = new LongAdder();
    final LongAdder memoryMergeBytes = new LongAdder();
    /** Input bytes of seals: the sealed M0's pages plus the M1 tables merged with it. */
    final LongAdder memorySealBytes = new LongAdder();
    /** Pages point lookups read from the tree's SSTables on a cache miss (part of the tree's query misses). */
    final LongAdder pointQueryPagesRead = new LongAdder();
    /**
     * Seals that found the write-memory pool without pages for their compact copy, and the bytes the
     * flushes made to free pages for them wrote (read by the time series of docs/benchmarks-memory.md).
     */
    final LongAdder sealsWithoutRoom = new LongAdder();
    /** Seals that waited for the flush policy to free pool room before building. */
    final LongAdder sealRoomWaits = new LongAdder();
    final LongAdder bytesFlushedForSealRoom = new LongAdder();
    /** Bytes written by partitioned flushes the log asked for (however {@link Flusher} labelled their cause). */
    final LongAdder bytesFlushedForLogRequest = new LongAdder();
    final LongAdder mergeBytesRead = new LongAdder();
    /** Bytes merges have written, added per page batch as written (not at install). */
    final LongAdder mergeBytesWritten = new LongAdder();
    /** {@link #mergeBytesWritten} by the merge's output level (as numbered when the merge was picked). */
    final LongAdder[] mergeBytesWrittenByLevel = adders(TRACKED_LEVELS);
    final LongAdder bloomProbes = new LongAdder();
    final LongAdder bloomNegatives = new LongAdder();
    final LongAdder bloomFalsePositives = new LongAdder();
    final LongAdder flushSlowdowns = new LongAdder();
    final LongAdder flushStops = new LongAdder();
    final LongAdder flushStallNanos = new LongAdder();
    final LongAdder writeStalls = new LongAdder();
    final LongAdder writeSlowdowns = new LongAdder();
    final LongAdder writeStallNanos = new LongAdder();
    /**
     * Range scans opened; table cursors (disk SSTables and memory SSTables) they opened; entries their
     * merges read from their sources; sources of those merges. Read by tests of the scan path (package-private: not in the
     * snapshot).
     */
    final LongAdder scans = new LongAdder();
    final LongAdder scanTablesOpened = new LongAdder();
    final LongAdder scanEntriesRead = new LongAdder();
    final LongAdder scanSources = new LongAdder();

    LongAdder mergeBytesWrittenTo(int level) {
        return mergeBytesWrittenByLevel[Math.min(level, TRACKED_LEVELS - 1)];
    }

    /** Sums of {@link #mergeBytesWrittenByLevel}, up to the deepest level with bytes. */
    List<Long> mergeBytesWrittenByLevel() {
        long[] sums = new long[TRACKED_LEVELS];
        int n = 0;
        for (int i = 0; i < TRACKED_LEVELS; i++) {
            sums[i] = mergeBytesWrittenByLevel[i].sum();
            if (sums[i] != 0) {
                n = i + 1;
            }
        }
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(sums[i]);
        }
        return out;
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }
}
