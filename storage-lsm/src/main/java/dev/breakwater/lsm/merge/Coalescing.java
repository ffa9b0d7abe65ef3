package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps non-overlapping data (an append-only tree: a ledger, a log, increasing keys) from piling
 * up as thousands of small tables under the leveling policy. The merge scheduler passes every
 * result of {@link LevelingPicker} through {@link #refine}.
 *
 * <h2>Why it is needed</h2>
 * A flushed table joins the oldest L0 group it overlaps nothing in ({@link
 * dev.breakwater.lsm.version.L0Groups}). With increasing keys no flush overlaps anything, so every
 * flush joins the one oldest group: L0 never reaches {@code l0MergeGroups} groups, no L0 merge is
 * ever due, and the tree keeps one small table per flush, forever (measured: 50,879 ledger rows
 * with 1 MiB of write memory left 59 L0 tables and a space amplification of 2.49).
 *
 * <h2>What it does</h2>
 * <ul>
 *   <li><b>L0 coalescing</b> (when the picker has nothing to do): in the oldest L0 group, the
 *       longest stretch of key-consecutive tables whose whole key span holds no L1 table and no
 *       table of a newer L0 group in the gaps between them, if it has
 *       at least {@link #MIN_L0_TABLES} tables, is merged into L1. No older L0 table exists (the
 *       group is the oldest) and no L1 table lies in the span, so the merge only concatenates and
 *       the output fits between L1's tables.</li>
 *   <li><b>Oldest-group merge</b> (when there is no such stretch): the same rule for sequential
 *       overwrites, whose flushes do not overlap each other but do overlap L1 (so they also all
 *       join the oldest group and never trip the group trigger): the longest stretch of at least
 *       {@link #MIN_L0_TABLES} key-consecutive oldest-group tables (no newer L0 table in its gaps)
 *       is merged with the L1 tables overlapping its span, an ordinary L0 merge. (The root cause
 *       is that L0's score counts groups, not tables; this hook leaves the picker's L0 policy
 *       alone.) Only while those L1 tables hold at most {@link LevelingPicker#L0_OVERLAP_RATIO}
 *       times the stretch's bytes: under random keys a stretch of the oldest group is a thin
 *       slice of the key space over large L1 tables (measured in issue 13: 9 MB of L0 merged
 *       with a 67 MB L1 table, again and again while the picker's amortized L0 trigger waited),
 *       and a rewrite of the L1 table per few MB of L0 is exactly the cost that trigger avoids.</li>
 *   <li><b>Growing a small neighbour</b>: the output of an L0 coalescing, and a picked trivial move
 *       ({@link TrivialMove}), is merged together with the output run's table right next to its
 *       span (no table of that run lies between them) when that table is small: together at most
 *       {@code targetTableBytes}, and the neighbour under {@link #GROWTH} times the incoming bytes.
 *       Tables thus grow towards the target size; the growth bound keeps the cost of growing a
 *       table to about {@code GROWTH/2 + 1} rewrites of each byte, instead of rewriting a large
 *       neighbour for every small arrival.</li>
 *   <li>Anything else the picker chose passes unchanged; a single-table task that is not grown
 *       stays a trivial move, which the executor does by one version edit.</li>
 * </ul>
 *
 * <p>Correctness of growing a neighbour {@code n} in output run {@code R} with incoming tables of
 * span {@code [lo, hi]}: {@code n} overlaps none of the incoming tables (a move or coalescing has
 * no overlap in {@code R}), so no key has two versions; the output spans the gap between them,
 * where {@code R} has no table; tables of shallower levels in that gap stay above the output,
 * where they already were. Merges run concurrently, and a merge's output covers the hull of its
 * inputs, so a gap is spanned only while no table above could be merged into it
 * ({@code nothingAbove}).
 *
 * <p>Thread safety: stateless; safe.
 */
public final class Coalescing {

    /** Key-consecutive tables in the oldest L0 group at which they are coalesced into L1. */
    public static final int MIN_L0_TABLES = 4;
    /** A neighbour grows only while smaller than this many times the incoming bytes. */
    public static final int GROWTH = 4;

    private Coalescing() {
    }

    /**
     * What to run instead of {@code picked}: {@code picked} with a small neighbour merged in, an L0
     * coalescing when nothing was picked, or {@code picked} unchanged.
     */
    public static Optional<MergeTask> refine(LevelingPicker picker, Optional<MergeTask> picked, Version v, Set<Long> busy,
                                             MergeSettings s) {
        if (picked.isPresent()) {
            return Optional.of(growNeighbour(picked.get(), v, busy, s));
        }
        return pickL0(picker, v, busy, s);
    }

    /** A trivial move with the output run's small adjacent table merged in, if there is one. */
    static MergeTask growNeighbour(MergeTask t, Version v, Set<Long> busy, MergeSettings s) {
        int out = t.outputLevel();
        if (!TrivialMove.applies(t) || t.outputRunId() != MergeTask.LEVEL_RUN || out >= v.levelCount() || v.level(out).isEmpty()) {
            return t;
        }
        TableMeta moved = TrivialMove.table(t);
        Run run = v.level(out).get(0);
        TableMeta n = neighbour(run, moved.smallest(), moved.largest(), moved.sizeBytes(), busy, s);
        if (n == null || !nothingAbove(v, out, hull(n, moved), Set.of(moved.fileNumber()))) {
            return t;
        }
        List<MergeTask.Input> inputs = List.of(t.inputs().get(0), new MergeTask.Input(out, run.id(), List.of(n)));
        return new MergeTask(inputs, out, MergeTask.LEVEL_RUN, t.dropTombstones(), t.score(),
                t.reason() + String.format("; grows the adjacent small L%d table #%d (%d B)", out, n.fileNumber(), n.sizeBytes()));
    }

    /**
     * True if no table of levels {@code 0..level-1} but those in {@code own} overlaps {@code range}.
     * A merge's output covers the hull of its inputs; a merge into {@code level} that spans a gap
     * of its inputs (growing a neighbour, coalescing tables with gaps between them) is safe next to
     * concurrent merges only when nothing above may be merged into that gap meanwhile: any other
     * merge into {@code level} takes its inputs from the levels above (and the tables of
     * {@code level} overlapping them), so its output stays clear of {@code range}.
     */
    static boolean nothingAbove(Version v, int level, byte[][] range, Set<Long> own) {
        for (int i = 0; i < level; i++) {
            for (Run r : v.level(i)) {
                for (TableMeta t : r.overlapping(range[0], range[1])) {
                    if (!own.contains(t.fileNumber())) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static byte[][] hull(TableMeta a, TableMeta b) {
        return new byte[][] {Arrays.compareUnsigned(a.smallest(), b.smallest()) <= 0 ? a.smallest() : b.smallest(),
                Arrays.compareUnsigned(a.largest(), b.largest()) >= 0 ? a.largest() : b.largest()};
    }

    private static Set<Long> ids(List<TableMeta> tables) {
        Set<Long> ids = new java.util.HashSet<>();
        for (TableMeta t : tables) {
            ids.add(t.fileNumber());
        }
        return ids;
    }

    /** The L0 coalescing or oldest-group merge described in the class comment, or empty. */
    static Optional<MergeTask> pickL0(LevelingPicker picker, Version v, Set<Long> busy, MergeSettings s) {
        List<Run> l0 = v.level(0);
        if (l0.isEmpty() || v.levelCount() < 2 || picker.retiringL1(v, s)) {
            return Optional.empty();
        }
        Run oldest = l0.get(l0.size() - 1);
        Run l1 = v.level(1).isEmpty() ? null : v.level(1).get(0);
        List<TableMeta> clear = stretch(l0, l1, busy, s, false);
        if (clear.size() >= MIN_L0_TABLES) {
            return Optional.of(coalesce(v, oldest, l1, clear, busy, s));
        }
        List<TableMeta> any = stretch(l0, l1, busy, s, true);
        if (any.size() < MIN_L0_TABLES) {
            return Optional.empty();
        }
        List<TableMeta> below = l1 == null ? List.of() : l1.overlapping(any.get(0).smallest(), any.get(any.size() - 1).largest());
        if (bytes(below) > LevelingPicker.L0_OVERLAP_RATIO * bytes(any)) {
            return Optional.empty(); // too small a batch for what it rewrites: L0's own triggers take it later, whole
        }
        for (TableMeta t : below) {
            if (busy.contains(t.fileNumber())) {
                return Optional.empty();
            }
        }
        List<MergeTask.Input> inputs = new ArrayList<>();
        inputs.add(new MergeTask.Input(0, oldest.id(), any));
        if (!below.isEmpty()) {
            inputs.add(new MergeTask.Input(1, l1.id(), below));
        }
        return Optional.of(new MergeTask(inputs, 1, MergeTask.LEVEL_RUN, v.levelCount() - 1 == 1, 0, String.format(
                "merge %d key-consecutive tables of the oldest L0 group (%d B) with %d overlapping L1 tables (%d B)",
                any.size(), bytes(any), below.size(), bytes(below))));
    }

    /**
     * The longest stretch of key-consecutive, non-busy tables of the oldest L0 group with no table
     * of a newer group in the gaps between them, of at most twice the target table size; unless
     * {@code overlapL1}, also with no L1 table anywhere in its span.
     */
    private static List<TableMeta> stretch(List<Run> l0, Run l1, Set<Long> busy, MergeSettings s, boolean overlapL1) {
        long maxBytes = 2 * s.targetTableBytes();
        List<TableMeta> best = List.of();
        List<TableMeta> stretch = new ArrayList<>();
        long stretchBytes = 0;
        for (TableMeta t : l0.get(l0.size() - 1).tables()) {
            boolean fitsAlone = !busy.contains(t.fileNumber()) && (overlapL1 || l1 == null || !l1.overlaps(t.smallest(), t.largest()));
            boolean extends_ = fitsAlone && !stretch.isEmpty() && stretchBytes + t.sizeBytes() <= maxBytes
                    && (overlapL1 || l1 == null || !l1.overlaps(stretch.get(0).smallest(), t.largest()))
                    && newerGroupsClear(l0, stretch.get(stretch.size() - 1).largest(), t.smallest());
            if (!extends_) {
                if (stretch.size() > best.size()) {
                    best = stretch;
                }
                stretch = new ArrayList<>();
                stretchBytes = 0;
            }
            if (fitsAlone) {
                stretch.add(t);
                stretchBytes += t.sizeBytes();
            }
        }
        return stretch.size() > best.size() ? stretch : best;
    }

    private static MergeTask coalesce(Version v, Run oldest, Run l1, List<TableMeta> best, Set<Long> busy, MergeSettings s) {
        long bytes = bytes(best);
        List<MergeTask.Input> inputs = new ArrayList<>();
        inputs.add(new MergeTask.Input(0, oldest.id(), best));
        String grown = "";
        if (l1 != null) {
            TableMeta first = best.get(0);
            TableMeta last = best.get(best.size() - 1);
            TableMeta n = neighbour(l1, first.smallest(), last.largest(), bytes, busy, s);
            if (n != null && nothingAbove(v, 1, new byte[][] {hull(n, first)[0], hull(n, last)[1]}, ids(best))) {
                inputs.add(new MergeTask.Input(1, l1.id(), List.of(n)));
                grown = String.format(", growing the adjacent small L1 table #%d (%d B)", n.fileNumber(), n.sizeBytes());
            }
        }
        return new MergeTask(inputs, 1, MergeTask.LEVEL_RUN, v.levelCount() - 1 == 1, 0,
                String.format("coalesce %d non-overlapping tables (%d B) of the oldest L0 group into L1%s", best.size(), bytes, grown));
    }

    private static long bytes(List<TableMeta> tables) {
        long b = 0;
        for (TableMeta t : tables) {
            b += t.sizeBytes();
        }
        return b;
    }

    /**
     * True if no table of a newer L0 group (all groups but the oldest) lies in the gap between
     * consecutive tables of a stretch, {@code (gapLo, gapHi)}: see {@link #nothingAbove}.
     */
    private static boolean newerGroupsClear(List<Run> l0, byte[] gapLo, byte[] gapHi) {
        for (int g = 0; g < l0.size() - 1; g++) {
            for (TableMeta t : l0.get(g).tables()) {
                if (Arrays.compareUnsigned(t.largest(), gapLo) >= 0 && Arrays.compareUnsigned(t.smallest(), gapHi) <= 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The smaller of {@code run}'s tables just before {@code lo} and just after {@code hi} that may
     * grow by {@code incoming} bytes (see the class comment), or null. Requires: no table of
     * {@code run} overlaps {@code [lo, hi]}.
     */
    static TableMeta neighbour(Run run, byte[] lo, byte[] hi, long incoming, Set<Long> busy, MergeSettings s) {
        TableMeta before = null;
        TableMeta after = null;
        for (TableMeta t : run.tables()) {
            if (Arrays.compareUnsigned(t.largest(), lo) < 0) {
                before = t;
            } else if (Arrays.compareUnsigned(t.smallest(), hi) > 0) {
                after = t;
                break;
            }
        }
        TableMeta chosen = null;
        for (TableMeta n : new TableMeta[] {before, after}) {
            if (n != null && !busy.contains(n.fileNumber()) && n.sizeBytes() + incoming <= s.targetTableBytes()
                    && n.sizeBytes() < GROWTH * incoming && (chosen == null || n.sizeBytes() < chosen.sizeBytes())) {
                chosen = n;
            }
        }
        return chosen;
    }
}
