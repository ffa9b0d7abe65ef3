package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.MemorySSTableMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The memory levels M1..Mk of a tree's partitioned memory component (paper 000, section 4.1): each
 * level a list of disjoint, immutable memory SSTables in key order, M1 holding the newest data. A
 * value object: every change builds a new one, which the tree publishes in its next super version.
 *
 * <p>Invariants: (1) tables of a level are disjoint and sorted by key; (2) for a key, a table of
 * M{@code i} is newer than any table of M{@code i+1}; (3) this object holds no references: the
 * super versions that include it do.
 *
 * <p>Thread safety: immutable; safe.
 */
final class MemoryLevels {

    private static final Comparator<MemorySSTable> BY_KEY = (a, b) -> Arrays.compareUnsigned(a.smallestKey(), b.smallestKey());

    private final List<List<MemorySSTable>> levels;

    private MemoryLevels(List<List<MemorySSTable>> levels) {
        this.levels = levels;
    }

    static MemoryLevels empty(int count) {
        List<List<MemorySSTable>> l = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            l.add(List.of());
        }
        return new MemoryLevels(List.copyOf(l));
    }

    int count() {
        return levels.size();
    }

    /** Level M{@code level} (1-based). */
    List<MemorySSTable> level(int level) {
        return levels.get(level - 1);
    }

    boolean isEmpty() {
        return levels.stream().allMatch(List::isEmpty);
    }

    /** Every table, newest level first. */
    List<MemorySSTable> all() {
        List<MemorySSTable> all = new ArrayList<>();
        levels.forEach(all::addAll);
        return all;
    }

    /** Descriptions for the pure pickers. */
    List<List<MemorySSTableMeta>> metas() {
        List<List<MemorySSTableMeta>> m = new ArrayList<>();
        for (List<MemorySSTable> l : levels) {
            m.add(l.stream().map(MemorySSTable::meta).toList());
        }
        return m;
    }

    MemorySSTable byId(long id) {
        for (List<MemorySSTable> l : levels) {
            for (MemorySSTable t : l) {
                if (t.id() == id) {
                    return t;
                }
            }
        }
        throw new IllegalStateException("memory table #" + id + " is not in the memory levels");
    }

    /** The table of M{@code level} whose key range covers {@code key}, or null. */
    MemorySSTable find(int level, byte[] key, int keyLen) {
        List<MemorySSTable> l = levels.get(level - 1);
        int lo = 0;
        int hi = l.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemorySSTable t = l.get(mid);
            byte[] s = t.smallestKey();
            byte[] g = t.largestKey();
            if (Arrays.compareUnsigned(g, 0, g.length, key, 0, keyLen) < 0) {
                lo = mid + 1;
            } else if (Arrays.compareUnsigned(s, 0, s.length, key, 0, keyLen) > 0) {
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

    /** A copy with {@code removed} taken out of every level and {@code added} put into M{@code level}. */
    MemoryLevels replace(List<MemorySSTable> removed, int level, List<MemorySSTable> added) {
        List<List<MemorySSTable>> next = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
            List<MemorySSTable> l = new ArrayList<>(levels.get(i));
            l.removeAll(removed);
            if (i == level - 1) {
                l.addAll(added);
                l.sort(BY_KEY);
            }
            next.add(List.copyOf(l));
        }
        return new MemoryLevels(List.copyOf(next));
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("MemoryLevels{");
        for (int i = 0; i < levels.size(); i++) {
            b.append(" M").append(i + 1).append('=').append(levels.get(i).size()).append(" tables");
        }
        return b.append('}').toString();
    }
}
