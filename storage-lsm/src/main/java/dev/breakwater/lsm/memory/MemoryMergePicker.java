package dev.breakwater.lsm.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the next memory merge of a partitioned memory component (paper 000 §4.1.1), and how a seal
 * puts M0 into M1: pure functions of a description of the memory levels, so scenarios can be tested
 * in a few lines.
 *
 * <h2>Input</h2>
 * {@code runs} lists the sorted runs of the memory levels, newest first, each a list of disjoint
 * tables sorted by key. The first {@code m1Runs} (at least 1) are M1's; each later entry is one whole
 * level: {@code runs.get(m1Runs + i - 2)} is M{@code i} for {@code i ≥ 2}. M1 may hold several runs
 * (up to {@link MemoryMergeSettings#firstLevelRuns}); deeper levels hold one. {@code busy} holds the
 * ids of tables that an unfinished merge or flush is reading.
 *
 * <h2>Targets</h2>
 * Level {@code i < k} targets {@code M0 * T^i} ({@link MemoryMergeSettings#target}): T times the level
 * above, counting M0 as level 0, the same rule as the disk levels ({@code a·M_w·T^i}, paper 000 §4.1.3)
 * (T is {@link MemoryMergeSettings#DEFAULT_SIZE_RATIO}, 8, by default; why not the paper's 10 is said
 * there). M1's size is the sum of its runs. The last level M{@code k} has no target: it takes
 * whatever write memory the tree holds, and flushes ({@link FlushPicker}) drain it. With a single
 * memory level nothing ever merges.
 *
 * <h2>Choice of a merge</h2>
 * The score of level {@code i < k} is {@code |M_i| / target(M_i)}. Levels are tried by decreasing
 * score, among those scoring at least 1; the first with a pickable table wins. Within a level, the
 * table minimizing (bytes of the overlapping tables in M{@code i+1}) / (its bytes), the overlap
 * ratio, is chosen, skipping tables that are busy or whose overlapping tables are; ties go to the
 * smaller key. The task takes the table and its overlapping tables into M{@code i+1}. From M1 only
 * the oldest run's tables are candidates: they are older than every other M1 run, so moving them
 * below keeps each key's newer versions above its older ones.
 *
 * <h2>Choice of a seal ({@link #pickSeal})</h2>
 * If M0 overlaps no M1 table its tables join M1's newest run unmerged. Otherwise, while M1 holds
 * fewer than {@code firstLevelRuns} runs, M0 becomes a new run (nothing of M1 is read); when M1 is
 * full, M0 is merged with every M1 table into one run (with a single allowed run: with the
 * overlapping M1 tables only, the paper's seal). While no level below M1 holds data, M1 stays (or
 * becomes, at the next overlapping seal) one run: it is then the level flushes drain, and a flush of
 * an old run would write versions that newer runs already replace (measured on Figure 10, where the
 * hot trees' M1 never outgrows its target and flushes drain it: with runs there, flush bytes per
 * update went from 600 to 824 and merge bytes from 547 to 906 at 64 MiB). So M1 is rewritten once per {@code firstLevelRuns}
 * seals instead of at every seal, and a point lookup reads at most {@code firstLevelRuns} M1 runs.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class MemoryMergePicker {

    private MemoryMergePicker() {
    }

    /** {@link #pick(List, int, Set, MemoryMergeSettings)} with one run per level ({@code levels.get(i - 1)} is M{@code i}). */
    public static Optional<MemoryMergeTask> pick(List<List<MemorySSTableMeta>> levels, Set<Long> busy, MemoryMergeSettings s) {
        return pick(levels, 1, busy, s);
    }

    /** The memory merge to run now, if any level is over its target and has a pickable table. */
    public static Optional<MemoryMergeTask> pick(List<List<MemorySSTableMeta>> runs, int m1Runs, Set<Long> busy, MemoryMergeSettings s) {
        checkRuns(runs, m1Runs);
        int levelCount = runs.size() - m1Runs + 1;
        List<double[]> scored = new ArrayList<>(); // {level, score}
        for (int level = 1; level < levelCount; level++) {
            long bytes = 0;
            if (level == 1) {
                for (int r = 0; r < m1Runs; r++) {
                    bytes += bytes(runs.get(r));
                }
            } else {
                bytes = bytes(runs.get(m1Runs + level - 2));
            }
            scored.add(new double[] {level, bytes / s.target(level)});
        }
        scored.sort(Comparator.comparingDouble((double[] a) -> a[1]).reversed().thenComparingDouble(a -> a[0]));
        for (double[] ls : scored) {
            if (ls[1] < 1.0) {
                break;
            }
            int level = (int) ls[0];
            // M1's oldest run, or the level's only run; and the run of the level below.
            int source = m1Runs + level - 2;
            Optional<MemoryMergeTask> t = pickLevel(runs.get(source), runs.get(source + 1), level, busy, ls[1]);
            if (t.isPresent()) {
                return t;
            }
        }
        return Optional.empty();
    }

    /**
     * How to seal the active component M0 (holding {@code m0Bytes}), whose keys span
     * {@code [smallest, largest]}, into M1 (see the class comment). Empty if a table the seal must
     * read is busy (retry when that merge or flush installs). {@code runs} and {@code m1Runs} as in
     * {@link #pick(List, int, Set, MemoryMergeSettings)}.
     */
    public static Optional<MemorySealTask> pickSeal(long m0Bytes, byte[] smallest, byte[] largest, List<List<MemorySSTableMeta>> runs,
                                                    int m1Runs, Set<Long> busy, int firstLevelRuns) {
        checkRuns(runs, m1Runs);
        List<MemorySSTableMeta> overlapping = new ArrayList<>();
        List<MemorySSTableMeta> all = new ArrayList<>();
        for (int r = 0; r < m1Runs; r++) {
            overlapping.addAll(overlapping(runs.get(r), smallest, largest));
            all.addAll(runs.get(r));
        }
        if (overlapping.isEmpty()) {
            return Optional.of(new MemorySealTask(false, List.of(), 0, "seal M0 into M1's newest run: it overlaps no M1 table"));
        }
        // While no level below M1 holds data, M1 is what flushes drain: kept as one run, so that a
        // flush writes each key's newest version only (older runs' stale versions would go to disk
        // first). A seal then merges M0 with all of M1, which also folds runs left from before.
        boolean drained = true;
        for (int r = m1Runs; r < runs.size(); r++) {
            drained &= runs.get(r).isEmpty();
        }
        if (!drained && m1Runs < firstLevelRuns) {
            return Optional.of(new MemorySealTask(true, List.of(), 0,
                    String.format("seal M0 as M1's run %d of %d, without reading M1", m1Runs + 1, firstLevelRuns)));
        }
        // M1 is full. With one run the overlapping tables suffice; with several, merging only the
        // overlapping ones could put an older run's version above a newer run's table that stays.
        List<MemorySSTableMeta> lower = m1Runs == 1 ? overlapping : all;
        if (anyBusy(lower, busy)) {
            return Optional.empty();
        }
        double ratio = (double) bytes(lower) / Math.max(1, m0Bytes);
        return Optional.of(new MemorySealTask(false, lower, ratio,
                String.format("seal M0 merged with %d M1 tables of %d run(s) (%d B)", lower.size(), m1Runs, bytes(lower))));
    }

    private static void checkRuns(List<List<MemorySSTableMeta>> runs, int m1Runs) {
        if (m1Runs < 1 || m1Runs > runs.size()) {
            throw new IllegalArgumentException("M1 runs " + m1Runs + " of " + runs.size() + " runs");
        }
    }

    private static Optional<MemoryMergeTask> pickLevel(List<MemorySSTableMeta> source, List<MemorySSTableMeta> next, int level,
                                                       Set<Long> busy, double score) {
        MemoryMergeTask best = null;
        for (MemorySSTableMeta t : source) {
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
