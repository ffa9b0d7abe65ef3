package dev.breakwater.lsm.version;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A sorted run: disjoint SSTables in key order, all of the same recency. An L0 group, a level of
 * the leveling policy, and a run of the tiering policy are all runs. Immutable.
 *
 * <p>Invariant: for consecutive tables {@code a, b}: {@code a.largest < b.smallest}.
 */
public final class Run {

    private final long id;
    private final List<TableMeta> tables;
    private final long sizeBytes;

    private Run(long id, List<TableMeta> tables) {
        this.id = id;
        this.tables = tables;
        long s = 0;
        for (TableMeta t : tables) {
            s += t.sizeBytes();
        }
        this.sizeBytes = s;
    }

    /** An empty run with identity {@code id} (unique within a tree, never reused). */
    public static Run empty(long id) {
        return new Run(id, List.of());
    }

    /** A run of the given tables, sorted by key; throws if two of them overlap. */
    public static Run of(long id, List<TableMeta> tables) {
        List<TableMeta> sorted = new ArrayList<>(tables);
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.smallest(), b.smallest()));
        for (int i = 1; i < sorted.size(); i++) {
            if (Arrays.compareUnsigned(sorted.get(i - 1).largest(), sorted.get(i).smallest()) >= 0) {
                throw new IllegalStateException("tables " + sorted.get(i - 1) + " and " + sorted.get(i) + " overlap within one run");
            }
        }
        return new Run(id, Collections.unmodifiableList(sorted));
    }

    /**
     * A run of tables already in key order and disjoint (checked by the caller, {@link
     * VersionBuilder}); takes ownership of {@code sorted}.
     */
    static Run ofSortedDisjoint(long id, List<TableMeta> sorted) {
        return new Run(id, Collections.unmodifiableList(sorted));
    }

    /** The run's identity, which version edits use to name it. */
    public long id() {
        return id;
    }

    public List<TableMeta> tables() {
        return tables;
    }

    public boolean isEmpty() {
        return tables.isEmpty();
    }

    public int size() {
        return tables.size();
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    /** The table whose range covers {@code key}, or null. Binary search; no allocation. */
    public TableMeta find(byte[] key, int keyLen) {
        int lo = 0;
        int hi = tables.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            TableMeta t = tables.get(mid);
            if (Arrays.compareUnsigned(t.largest(), 0, t.largest().length, key, 0, keyLen) < 0) {
                lo = mid + 1;
            } else if (Arrays.compareUnsigned(t.smallest(), 0, t.smallest().length, key, 0, keyLen) > 0) {
                hi = mid - 1;
            } else {
                return t;
            }
        }
        return null;
    }

    /** Tables overlapping {@code [lo, hi]}, in key order. */
    public List<TableMeta> overlapping(byte[] lo, byte[] hi) {
        List<TableMeta> out = new ArrayList<>();
        for (TableMeta t : tables) {
            if (t.overlaps(lo, hi)) {
                out.add(t);
            }
        }
        return out;
    }

    public boolean overlaps(byte[] lo, byte[] hi) {
        for (TableMeta t : tables) {
            if (t.overlaps(lo, hi)) {
                return true;
            }
        }
        return false;
    }

    /** Total bytes of the tables overlapping {@code [lo, hi]}. */
    public long overlappingBytes(byte[] lo, byte[] hi) {
        long s = 0;
        for (TableMeta t : tables) {
            if (t.overlaps(lo, hi)) {
                s += t.sizeBytes();
            }
        }
        return s;
    }

    /** A copy of this run with {@code removed} taken out and {@code added} put in. */
    public Run with(List<TableMeta> removed, List<TableMeta> added) {
        List<TableMeta> next = new ArrayList<>(tables);
        next.removeAll(removed);
        next.addAll(added);
        return of(id, next);
    }

    @Override
    public String toString() {
        return "run" + id + tables;
    }
}
