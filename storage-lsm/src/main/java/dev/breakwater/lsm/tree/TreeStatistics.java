package dev.breakwater.lsm.tree;

import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one tree (DESIGN.md section 6): what the memory tuner and the benchmarks read.
 * Striped adders, so counting costs no lock on hot paths.
 *
 * <p>Thread safety: safe.
 */
final class TreeStatistics {
    final LongAdder entriesWritten = new LongAdder();
    final LongAdder flushes = new LongAdder();
    final LongAdder bytesFlushed = new LongAdder();
    /** Bytes flushed, by {@link FlushCause} ordinal. */
    final LongAdder[] bytesFlushedBy = {new LongAdder(), new LongAdder(), new LongAdder()};
    final LongAdder merges = new LongAdder();
    /** Partitioned memory component: sealed M0s merged into M1, memory merges and their input bytes. */
    final LongAdder memorySeals = new LongAdder();
    final LongAdder memoryMerges = new LongAdder();
    final LongAdder memoryMergeBytes = new LongAdder();
    final LongAdder mergeBytesRead = new LongAdder();
    final LongAdder mergeBytesWritten = new LongAdder();
    final LongAdder bloomProbes = new LongAdder();
    final LongAdder bloomNegatives = new LongAdder();
    final LongAdder bloomFalsePositives = new LongAdder();
    final LongAdder flushSlowdowns = new LongAdder();
    final LongAdder flushStops = new LongAdder();
    final LongAdder flushStallNanos = new LongAdder();
    final LongAdder writeStalls = new LongAdder();
    final LongAdder writeSlowdowns = new LongAdder();
    final LongAdder writeStallNanos = new LongAdder();
}
