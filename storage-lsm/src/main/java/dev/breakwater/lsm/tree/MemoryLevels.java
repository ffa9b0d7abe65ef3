package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.MemorySSTableMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The memory levels M1..Mk of a tree's partitioned memory component (paper 000, section 4.1), as
 * sorted runs, newest first: M1 is the first {@link #firstLevelRuns()} runs (at least one, at most
 * {@link dev.breakwater.lsm.memory.MemoryMergeSettings#firstLevelRuns} by the seal rule of
 * {@link dev.breakwater.lsm.memory.MemoryMergePicker}), and each deeper level is one run. A run is a
 * list of disjoint, immutable memory SSTables in key order. A value object: every change builds a new
 * one, which the tree publishes in its next super version.
 *
 * <p>Invariants: (1) tables of a run are disjoint and sorted by key; (2) for a key, a table of a run
 * is newer than any table of a later run (so a point lookup stops at the first run holding the key);
 * (3) only M1 has more than one run, and no M1 run but the only one is empty; (4) this object holds
 * no references: the super versions that include it do.
 *
 * <p>Thread safety: immutable; safe.
 */
final class MemoryLevels {

    private static final Comparator<MemorySSTable> BY_KEY = (a, b) -> Arrays.compareUnsigned(a.smallestKey(), b.smallestKey());

    private final List<List<MemorySSTable>> runs;
    /** How many of the first runs are M1's (0 only with no memory level at all). */
    private final int firstLevelRuns;

    private MemoryLevels(List<List<MemorySSTable>> runs, int firstLevelRuns) {
        this.runs = runs;
        this.firstLevelRuns = firstLevelRuns;
    }

    /** {@code count} empty levels (none for a monolithic memory component). */
    static MemoryLevels empty(int count) {
        List<List<MemorySSTable>> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(List.of());
        }
        return new MemoryLevels(List.copyOf(l), count == 0 ? 0 : 1);
    }

    /** Sorted runs, M1's first: what a point lookup or a scan reads, in this order. */
    int runCount() {
        return runs.size();
    }

    /** Run {@code index} (0-based, newest first). */
    List<MemorySSTable> run(int index) {
        return runs.get(index);
    }

    /** How many of the first runs belong to M1. */
    int firstLevelRuns() {
        return firstLevelRuns;
    }

    boolean isEmpty() {
        return runs.stream().allMatch(List::isEmpty);
    }

    /** Every table, newest run first. */
    List<MemorySSTable> all() {
        List<MemorySSTable> all = new ArrayList<>();
        runs.forEach(all::addAll);
        return all;
    }

    /** Descriptions of the runs, newest first, for the pure pickers. */
    List<List<MemorySSTableMeta>> metas() {
        List<List<MemorySSTableMeta>> m = new ArrayList<>();
        for (List<MemorySSTable> l : runs) {
            m.add(l.stream().map(MemorySSTable::meta).toList());
        }
        return m;
    }

    MemorySSTable byId(long id) {
        for (List<MemorySSTable> l : runs) {
            for (MemorySSTable t : l) {
                if (t.id() == id) {
                    return t;
                }
            }
        }
        throw new IllegalStateException("memory table #" + id + " is not in the memory levels");
    }

    /** The table of run {@code index} (0-based) whose key range covers {@code key}, or null. Allocates nothing. */
    MemorySSTable findInRun(int index, byte[] key, int keyLen) {
        List<MemorySSTable> l = runs.get(index);
        int lo = 0;
        int hi = l.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemorySSTable t = l.get(mid);
            // The comparisons read the table's bounds in place (smallestKey() would copy them on every step).
            if (t.compareLargestTo(key, keyLen) < 0) {
                lo = mid + 1;
            } else if (t.compareSmallestTo(key, keyLen) > 0) {
                hi = mid - 1;
            } else {
                return t;
            }
        }
        return null;
    }

    long bytes() {
        long b = 0;
        for (MemorySSTable t : all()) {
            b += t.bytesUsed();
        }
        return b;
    }

    /** Bytes of each run, newest first (the statistics' memory shape). */
    List<Long> runBytes() {
        List<Long> out = new ArrayList<>(runs.size());
        for (List<MemorySSTable> run : runs) {
            long b = 0;
            for (MemorySSTable t : run) {
                b += t.bytesUsed();
            }
            out.add(b);
        }
        return out;
    }

    /** Entries of each run, newest first (within a run, one version per key unless a snapshot kept more). */
    List<Long> runEntries() {
        List<Long> out = new ArrayList<>(runs.size());
        for (List<MemorySSTable> run : runs) {
            long n = 0;
            for (MemorySSTable t : run) {
                n += t.entryCount();
            }
            out.add(n);
        }
        return out;
    }

    long minLogLsn() {
        long m = Long.MAX_VALUE;
        for (MemorySSTable t : all()) {
            m = Math.min(m, t.minLogLsn());
        }
        return m;
    }

    long maxSeq() {
        long m = Long.MIN_VALUE;
        for (MemorySSTable t : all()) {
            m = Math.max(m, t.maxSeq());
        }
        return m;
    }

    /**
     * A copy with {@code removed} taken out of every run and {@code added} put into M{@code level}:
     * into M1's newest run for level 1, else into the level's run. M1 runs left empty are dropped
     * (one, possibly empty, always stays). The caller guarantees that {@code added} is disjoint from
     * the run's remaining tables and newer than every later run (it replaces tables of the run, of an
     * older run, or holds keys no other table of M1 holds).
     */
    MemoryLevels replace(List<MemorySSTable> removed, int level, List<MemorySSTable> added) {
        List<List<MemorySSTable>> next = new ArrayList<>();
        int m1 = 0;
        for (int i = 0; i < runs.size(); i++) {
            List<MemorySSTable> l = new ArrayList<>(runs.get(i));
            l.removeAll(removed);
            if (i < firstLevelRuns) {
                if (l.isEmpty()) {
                    continue; // re-added below if M1 would be left without a run
                }
                m1++;
            } else if (m1 == 0) {
                next.add(List.of()); // M1 emptied entirely: keep one empty run
                m1 = 1;
            }
            next.add(l);
        }
        if (m1 == 0 && firstLevelRuns > 0) { // M1 is the only level, and it is empty
            next.add(0, List.of());
            m1 = 1;
        }
        int target = level == 1 ? 0 : m1 + level - 2;
        List<MemorySSTable> into = new ArrayList<>(next.get(target));
        into.addAll(added);
        into.sort(BY_KEY);
        next.set(target, into);
        List<List<MemorySSTable>> frozen = new ArrayList<>();
        next.forEach(l -> frozen.add(List.copyOf(l)));
        return new MemoryLevels(List.copyOf(frozen), m1);
    }

    /** A copy with {@code added} as a new run of M1, newer than every other run (a seal that reads no M1 table). */
    MemoryLevels withNewFirstRun(List<MemorySSTable> added) {
        if (added.isEmpty()) {
            return this;
        }
        List<List<MemorySSTable>> next = new ArrayList<>();
        List<MemorySSTable> run = new ArrayList<>(added);
        run.sort(BY_KEY);
        next.add(List.copyOf(run));
        int m1 = firstLevelRuns + 1;
        if (runs.get(0).isEmpty()) { // M1's only run was empty: the new run takes its place
            next.addAll(runs.subList(1, runs.size()));
            m1 = 1;
        } else {
            next.addAll(runs);
        }
        return new MemoryLevels(List.copyOf(next), m1);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("MemoryLevels{");
        for (int i = 0; i < runs.size(); i++) {
            int level = i < firstLevelRuns ? 1 : i - firstLevelRuns + 2;
            b.append(" M").append(level);
            if (i < firstLevelRuns && firstLevelRuns > 1) {
                b.append('.').append(i + 1);
            }
            b.append('=').append(runs.get(i).size()).append(" tables");
        }
        return b.append('}').toString();
    }
}
