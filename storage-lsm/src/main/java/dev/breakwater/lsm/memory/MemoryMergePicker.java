package dev.breakwater.lsm.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the next memory merge of a partitioned memory component (paper 000 §4.1.1): a pure
 * function of a description of the memory levels, so scenarios can be tested in a few lines.
 *
 * <h2>Input</h2>
 * {@code levels.get(i - 1)} describes memory level M{@code i}, for {@code i = 1..k}: disjoint tables
 * sorted by key; M1 holds the newest data. {@code busy} holds the ids of tables that an
 * unfinished merge or flush is reading.
 *
 * <h2>Targets</h2>
 * Level {@code i < k} targets {@code M0 * T^i} ({@link MemoryMergeSettings#target}): T times the level
 * above, counting M0 as level 0, the same rule as the disk levels ({@code a·M_w·T^i}, paper 000 §4.1.3),
 * so sealing one M0 into M1 fills 1/T of M1 (T is {@link MemoryMergeSettings#DEFAULT_SIZE_RATIO}, 5,
 * by default; why not the paper's 10 is said there). The last level M{@code k} has no target: it takes
 * whatever write memory the tree holds, and flushes ({@link FlushPicker}) drain it. With a single
 * memory level nothing ever merges.
 *
 * <h2>Choice</h2>
 * The score of level {@code i < k} is {@code |M_i| / target(M_i)}. Levels are tried by decreasing
 * score, among those scoring at least 1; the first with a pickable table wins. Within a level, the
 * table minimizing (bytes of the overlapping tables in M{@code i+1}) / (its bytes), the overlap
 * ratio, is chosen, skipping tables that are busy or whose overlapping tables are; ties go to the
 * smaller key. The task takes the table and its overlapping tables into M{@code i+1}.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class MemoryMergePicker {

    private MemoryMergePicker() {
    }

    /** The memory merge to run now, if any level is over its target and has a pickable table. */
    public static Optional<MemoryMergeTask> pick(List<List<MemorySSTableMeta>> levels, Set<Long> busy, MemoryMergeSettings s) {
        List<double[]> scored = new ArrayList<>(); // {level, score}
        for (int level = 1; level < levels.size(); level++) {
            scored.add(new double[] {level, bytes(levels.get(level - 1)) / s.target(level)});
        }
        scored.sort(Comparator.comparingDouble((double[] a) -> a[1]).reversed().thenComparingDouble(a -> a[0]));
        for (double[] ls : scored) {
            if (ls[1] < 1.0) {
                break;
            }
            Optional<MemoryMergeTask> t = pickLevel(levels, (int) ls[0], busy, ls[1]);
            if (t.isPresent()) {
                return t;
            }
        }
        return Optional.empty();
    }

    /**
     * The merge that seals the active component M0 (holding {@code m0Bytes}), whose keys span
     * {@code [smallest, largest]}, into
     * M1: the overlapping M1 tables, which the caller merges with M0 (M0 newest). Empty if one of them
     * is busy (retry when that merge or flush installs). Requires {@code levels} to have at least M1
     * (possibly empty).
     */
    public static Optional<MemoryMergeTask> pickSeal(long m0Bytes, byte[] smallest, byte[] largest,
                                                     List<List<MemorySSTableMeta>> levels, Set<Long> busy) {
        List<MemorySSTableMeta> lower = overlapping(levels.get(0), smallest, largest);
        if (anyBusy(lower, busy)) {
            return Optional.empty();
        }
        double ratio = (double) bytes(lower) / Math.max(1, m0Bytes);
        return Optional.of(new MemoryMergeTask(1, List.of(), lower, 1.0, ratio,
                String.format("seal M0 into M1 with %d overlapping tables (%d B)", lower.size(), bytes(lower))));
    }

    private static Optional<MemoryMergeTask> pickLevel(List<List<MemorySSTableMeta>> levels, int level, Set<Long> busy, double score) {
        List<MemorySSTableMeta> next = levels.get(level);
        MemoryMergeTask best = null;
        for (MemorySSTableMeta t : levels.get(level - 1)) {
            if (busy.contains(t.id())) {
                continue;
            }
            List<MemorySSTableMeta> lower = overlapping(next, t.smallest(), t.largest());
            if (anyBusy(lower, busy)) {
                continue;
            }
            double ratio = (double) bytes(lower) / Math.max(1, t.bytes());
            if (best == null || ratio < best.overlapRatio()) {
                best = new MemoryMergeTask(level + 1, List.of(t), lower, score, ratio,
                        String.format("M%d table #%d -> M%d, overlap ratio %.2f, level score %.2f", level, t.id(), level + 1, ratio, score));
            }
        }
        return Optional.ofNullable(best);
    }

    /** The tables of a sorted, disjoint level that overlap {@code [lo, hi]}, in key order. */
    static List<MemorySSTableMeta> overlapping(List<MemorySSTableMeta> level, byte[] lo, byte[] hi) {
        List<MemorySSTableMeta> out = new ArrayList<>();
        for (MemorySSTableMeta t : level) {
            if (t.overlaps(lo, hi)) {
                out.add(t);
            }
        }
        return out;
    }

    static boolean anyBusy(List<MemorySSTableMeta> tables, Set<Long> busy) {
        for (MemorySSTableMeta t : tables) {
            if (busy.contains(t.id())) {
                return true;
            }
        }
        return false;
    }

    static long bytes(List<MemorySSTableMeta> tables) {
        long s = 0;
        for (MemorySSTableMeta t : tables) {
            s += t.bytes();
        }
        return s;
    }
}
