package dev.breakwater.lsm.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses which memory SSTables of a partitioned memory component to flush to disk (paper 000
 * §4.1.1, §4.1.4): pure functions over the sorted runs of the memory levels, newest first, as
 * {@link MemoryMergePicker} takes them (each run disjoint tables in key order; M1's runs first, then
 * one run per deeper level), and a set of busy table ids. The rules below only need that order, so
 * "level" here means one run: {@code levels.get(i)} is older than {@code levels.get(i - 1)}.
 *
 * <h2>Why flushes take what they take</h2>
 * Reads search memory before disk, and a flushed table becomes the newest data on disk. So a flush
 * may leave <em>newer</em> overlapping tables (in shallower levels) in memory: they keep shadowing the
 * flushed data, as they should. It must never leave an <em>older</em> overlapping table (in a deeper
 * level) behind: that table would shadow the newer, flushed versions of its keys, and when flushed
 * later it would land on disk as newer than them. Hence:
 * <ul>
 *   <li>memory-triggered flushes take tables from the deepest non-empty level only (normally the
 *       last level Mk; a shallower one only while every deeper level is empty);</li>
 *   <li>a log-triggered flush takes the table with the minimum log LSN plus every table of a deeper
 *       level that overlaps it, transitively (the overlaps of those in still deeper levels, and so
 *       on). Newer overlapping tables above it stay in memory. Paper 000 says the overlapping tables
 *       "at higher levels" go too; only the deeper (older) ones are needed for correctness, and those
 *       are the ones taken here;</li>
 *   <li>a full flush takes everything.</li>
 * </ul>
 * A pick whose tables include a busy one returns empty: the caller retries when the merge installs.
 * The active component M0 is not described here: the caller seals it first if it holds the oldest
 * log LSN.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class FlushPicker {

    private FlushPicker() {
    }

    /**
     * Memory-triggered (partial) flush of one table: {@link #pickMemoryTriggered(List, byte[], Set, long)}
     * with no byte target.
     */
    public static Optional<MemoryFlushTask> pickMemoryTriggered(List<List<MemorySSTableMeta>> levels, byte[] lastFlushedLargest,
                                                                Set<Long> busy) {
        return pickMemoryTriggered(levels, lastFlushedLargest, busy, 0);
    }

    /**
     * Memory-triggered (partial) flush: in the deepest non-empty level, tables in round-robin key
     * order: from the first table that is not busy and whose smallest key is greater than
     * {@code lastFlushedLargest} (the largest key of the previous pick; null starts from the
     * beginning; past the end of the level, from its first table) onwards, skipping busy tables,
     * until they hold at least {@code targetBytes} or the level ends; always at least one table. The
     * tables are in key order, so the caller remembers the last one's largest key as the next position.
     * Taking several tables in one flush writes fewer, larger L0 tables than one flush per table.
     */
    public static Optional<MemoryFlushTask> pickMemoryTriggered(List<List<MemorySSTableMeta>> levels, byte[] lastFlushedLargest,
                                                                Set<Long> busy, long targetBytes) {
        int level = deepestNonEmpty(levels);
        if (level == 0) {
            return Optional.empty();
        }
        List<MemorySSTableMeta> tables = levels.get(level - 1);
        int start = -1;
        for (int i = 0; i < tables.size() && start < 0; i++) {
            MemorySSTableMeta t = tables.get(i);
            if (!busy.contains(t.id()) && (lastFlushedLargest == null || Arrays.compareUnsigned(t.smallest(), lastFlushedLargest) > 0)) {
                start = i;
            }
        }
        boolean wrapped = start < 0;
        if (wrapped) {
            start = 0;
        }
        List<MemorySSTableMeta> picked = new ArrayList<>();
        long bytes = 0;
        for (int i = start; i < tables.size() && (picked.isEmpty() || bytes < targetBytes); i++) {
            MemorySSTableMeta t = tables.get(i);
            if (!busy.contains(t.id())) {
                picked.add(t);
                bytes += t.bytes();
            }
        }
        if (picked.isEmpty()) {
            return Optional.empty();
        }
        String how = String.format("M%d, %d table(s) from #%d, %d B, round-robin%s", level, picked.size(), picked.get(0).id(), bytes,
                wrapped ? ", wrapped" : "");
        return Optional.of(new MemoryFlushTask(MemoryFlushTask.Kind.MEMORY_TRIGGERED, List.of(new MemoryFlushTask.Input(level, picked)), how));
    }

    /**
     * Log-triggered (partial) flush: the table with the minimum {@code minLogLsn} over all levels (on
     * ties the deeper level, then the smaller key), plus, transitively, every deeper table that
     * overlaps a table taken. Empty if there is no table or a table to take is busy.
     */
    public static Optional<MemoryFlushTask> pickLogTriggered(List<List<MemorySSTableMeta>> levels, Set<Long> busy) {
        MemorySSTableMeta oldest = null;
        int oldestLevel = 0;
        for (int level = 1; level <= levels.size(); level++) {
            for (MemorySSTableMeta t : levels.get(level - 1)) {
                if (oldest == null || t.minLogLsn() < oldest.minLogLsn() || (t.minLogLsn() == oldest.minLogLsn() && level > oldestLevel)) {
                    oldest = t;
                    oldestLevel = level;
                }
            }
        }
        if (oldest == null) {
            return Optional.empty();
        }
        List<MemoryFlushTask.Input> inputs = new ArrayList<>();
        List<MemorySSTableMeta> taken = new ArrayList<>(List.of(oldest));
        inputs.add(new MemoryFlushTask.Input(oldestLevel, taken));
        for (int level = oldestLevel + 1; level <= levels.size(); level++) {
            List<MemorySSTableMeta> here = new ArrayList<>();
            for (MemorySSTableMeta t : levels.get(level - 1)) {
                if (overlapsAny(t, taken)) {
                    here.add(t);
                }
            }
            if (!here.isEmpty()) {
                inputs.add(new MemoryFlushTask.Input(level, here));
                taken.addAll(here);
            }
        }
        if (MemoryMergePicker.anyBusy(taken, busy)) {
            return Optional.empty();
        }
        return Optional.of(new MemoryFlushTask(MemoryFlushTask.Kind.LOG_TRIGGERED, inputs, String.format(
                "M%d table #%d holds the oldest log LSN %d; with %d older overlapping tables", oldestLevel, oldest.id(),
                oldest.minLogLsn(), taken.size() - 1)));
    }

    /** Full flush: every table of every level. Empty if there is none or one is busy. */
    public static Optional<MemoryFlushTask> pickFull(List<List<MemorySSTableMeta>> levels, Set<Long> busy) {
        List<MemoryFlushTask.Input> inputs = new ArrayList<>();
        for (int level = 1; level <= levels.size(); level++) {
            List<MemorySSTableMeta> tables = levels.get(level - 1);
            if (MemoryMergePicker.anyBusy(tables, busy)) {
                return Optional.empty();
            }
            if (!tables.isEmpty()) {
                inputs.add(new MemoryFlushTask.Input(level, tables));
            }
        }
        return inputs.isEmpty() ? Optional.empty()
                : Optional.of(new MemoryFlushTask(MemoryFlushTask.Kind.FULL, inputs, "full flush of " + inputs.size() + " memory levels"));
    }

    /**
     * The β rule of paper 000 §4.1.4 for a log-triggered flush: full if the write memory partially
     * flushed within the last log window is less than {@code beta} (default 0.5) of the write memory,
     * else partial.
     */
    public static boolean preferFullFlush(long partiallyFlushedBytesInWindow, long writeMemoryBytes, double beta) {
        return partiallyFlushedBytesInWindow < beta * writeMemoryBytes;
    }

    private static int deepestNonEmpty(List<List<MemorySSTableMeta>> levels) {
        for (int level = levels.size(); level >= 1; level--) {
            if (!levels.get(level - 1).isEmpty()) {
                return level;
            }
        }
        return 0;
    }

    private static boolean overlapsAny(MemorySSTableMeta t, List<MemorySSTableMeta> tables) {
        for (MemorySSTableMeta u : tables) {
            if (t.overlaps(u)) {
                return true;
            }
        }
        return false;
    }
}
