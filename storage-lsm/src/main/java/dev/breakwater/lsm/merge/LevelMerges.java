package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The two merge shapes of a tree with one run per level below a grouped L0, for pickers that decide
 * only <em>when</em> a level merges and leave <em>what</em> to these rules (used by
 * {@link GarneringPicker}; the rules are those {@link LevelingPicker} documents):
 * <ul>
 *   <li>{@link #fromL0}: the smallest L0 group first; its table minimizing (overlapping bytes below)
 *       / (L0 bytes) together with every L0 table of any group overlapping the growing key range, and
 *       the overlapping tables of the target level (and of L1 when the target is L2, for a retiring
 *       L1).</li>
 *   <li>{@link #fromLevel}: the table of level {@code i} minimizing (overlapping bytes in
 *       {@code L_i+1}) / (its bytes).</li>
 * </ul>
 * Neither picks a table in {@code busy}. Tombstones are dropped when the output is the last level.
 *
 * <p>Thread safety: stateless; safe.
 */
final class LevelMerges {

    private LevelMerges() {
    }

    /**
     * An L0 merge into {@code target} (1, or 2 while L1 is retired: then overlapping L1 tables come
     * along), for leveling and Garnering; {@code suffix} follows the target level in the reason.
     */
    static Optional<MergeTask> fromL0(Version v, Set<Long> busy, double score, int target, String suffix) {
        return fromL0(v, busy, score, target, suffix, Double.MAX_VALUE);
    }

    /**
     * {@link #fromL0(Version, Set, double, int, String)}, taking only a slice whose overlap ratio
     * (bytes below / bytes from L0) is at most {@code maxRatio}.
     */
    static Optional<MergeTask> fromL0(Version v, Set<Long> busy, double score, int target, String suffix, double maxRatio) {
        List<Run> groups = new ArrayList<>(v.level(0));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            order.add(i);
        }
        // Smallest group first; among equals the oldest (last in newest-first order).
        order.sort(Comparator.comparingInt((Integer i) -> groups.get(i).size()).thenComparing(Comparator.reverseOrder()));
        Run l1 = v.levelCount() > 1 && !v.level(1).isEmpty() ? v.level(1).get(0) : null;
        Run l2 = target == 2 && !v.level(2).isEmpty() ? v.level(2).get(0) : null;
        boolean toLast = v.levelCount() - 1 == target;
        for (int gi : order) {
            MergeTask best = null;
            double bestRatio = Double.MAX_VALUE;
            for (TableMeta seed : groups.get(gi).tables()) {
                List<MergeTask.Input> l0 = closure(groups, seed);
                if (anyBusy(l0, busy)) {
                    continue;
                }
                byte[][] range = range(l0);
                List<TableMeta> below = l1 == null ? List.of() : l1.overlapping(range[0], range[1]);
                List<TableMeta> twoBelow = List.of();
                if (target == 2 && l2 != null) {
                    byte[][] wide = widen(range, below);
                    twoBelow = l2.overlapping(wide[0], wide[1]);
                }
                if (anyBusyTable(below, busy) || anyBusyTable(twoBelow, busy)) {
                    continue;
                }
                double ratio = (double) (bytes(below) + bytes(twoBelow)) / Math.max(1, bytes(l0));
                if (ratio < bestRatio && ratio <= maxRatio) {
                    bestRatio = ratio;
                    List<MergeTask.Input> inputs = new ArrayList<>(l0);
                    if (!below.isEmpty()) {
                        inputs.add(new MergeTask.Input(1, l1.id(), below));
                    }
                    if (!twoBelow.isEmpty()) {
                        inputs.add(new MergeTask.Input(2, l2.id(), twoBelow));
                    }
                    best = new MergeTask(inputs, target, MergeTask.LEVEL_RUN, toLast, score, String.format(
                            "L0 group of %d tables -> L%d%s, overlap ratio %.2f", groups.get(gi).size(), target, suffix, ratio));
                }
            }
            if (best != null) {
                return Optional.of(best);
            }
        }
        return Optional.empty();
    }

    /**
     * An L0 merge of every L0 table (all groups) into {@code target} (as for {@link #fromL0}), with
     * the overlapping tables of the target level (and of L1 when the target is L2); empty if any of
     * them is busy or L0 is empty. For L0 triggers that are not the group count: when groups do not
     * form (flushes that overlap nothing in L0), the closure of a slice is the slice itself, and
     * merging slice by slice would leave most small tables where they are.
     */
    static Optional<MergeTask> allOfL0(Version v, Set<Long> busy, double score, int target, String trigger) {
        List<MergeTask.Input> l0 = new ArrayList<>();
        int tables = 0;
        for (Run g : v.level(0)) {
            if (!g.tables().isEmpty()) {
                l0.add(new MergeTask.Input(0, g.id(), g.tables()));
                tables += g.tables().size();
            }
        }
        if (l0.isEmpty() || anyBusy(l0, busy)) {
            return Optional.empty();
        }
        byte[][] range = range(l0);
        Run l1 = v.levelCount() > 1 && !v.level(1).isEmpty() ? v.level(1).get(0) : null;
        Run l2 = target == 2 && !v.level(2).isEmpty() ? v.level(2).get(0) : null;
        List<TableMeta> below = l1 == null ? List.of() : l1.overlapping(range[0], range[1]);
        List<TableMeta> twoBelow = List.of();
        if (l2 != null) {
            byte[][] wide = widen(range, below);
            twoBelow = l2.overlapping(wide[0], wide[1]);
        }
        if (anyBusyTable(below, busy) || anyBusyTable(twoBelow, busy)) {
            return Optional.empty();
        }
        List<MergeTask.Input> inputs = new ArrayList<>(l0);
        if (!below.isEmpty()) {
            inputs.add(new MergeTask.Input(1, l1.id(), below));
        }
        if (!twoBelow.isEmpty()) {
            inputs.add(new MergeTask.Input(2, l2.id(), twoBelow));
        }
        return Optional.of(new MergeTask(inputs, target, MergeTask.LEVEL_RUN, v.levelCount() - 1 == target, score, String.format(
                "all of L0 (%d tables in %d groups, %d B) -> L%d on the %s trigger, overlap ratio %.2f", tables, l0.size(), bytes(l0),
                target, trigger, (double) (bytes(below) + bytes(twoBelow)) / Math.max(1, bytes(l0)))));
    }

    /** A merge of one table of {@code level} (at least 1, not the last) into the level below; {@code suffix} as for {@link #fromL0}. */
    static Optional<MergeTask> fromLevel(Version v, int level, Set<Long> busy, double score, String suffix) {
        if (v.level(level).isEmpty()) {
            return Optional.empty();
        }
        Run run = v.level(level).get(0);
        Run next = v.level(level + 1).isEmpty() ? null : v.level(level + 1).get(0);
        boolean toLast = level + 1 == v.levelCount() - 1;
        MergeTask best = null;
        double bestRatio = Double.MAX_VALUE;
        for (TableMeta t : run.tables()) {
            if (busy.contains(t.fileNumber())) {
                continue;
            }
            List<TableMeta> below = next == null ? List.of() : next.overlapping(t.smallest(), t.largest());
            if (anyBusyTable(below, busy)) {
                continue;
            }
            double ratio = (double) bytes(below) / Math.max(1, t.sizeBytes());
            if (ratio < bestRatio) {
                bestRatio = ratio;
                List<MergeTask.Input> inputs = new ArrayList<>();
                inputs.add(new MergeTask.Input(level, run.id(), List.of(t)));
                if (!below.isEmpty()) {
                    inputs.add(new MergeTask.Input(level + 1, next.id(), below));
                }
                best = new MergeTask(inputs, level + 1, MergeTask.LEVEL_RUN, toLast, score, String.format(
                        "L%d table #%d -> L%d%s, overlap ratio %.2f", level, t.fileNumber(), level + 1, suffix, ratio));
            }
        }
        return Optional.ofNullable(best);
    }

    /** The L0 tables of every group (newest group first) overlapping the range grown from {@code seed}. */
    private static List<MergeTask.Input> closure(List<Run> groups, TableMeta seed) {
        byte[] lo = seed.smallest();
        byte[] hi = seed.largest();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Run g : groups) {
                for (TableMeta t : g.overlapping(lo, hi)) {
                    if (Arrays.compareUnsigned(t.smallest(), lo) < 0) {
                        lo = t.smallest();
                        grew = true;
                    }
                    if (Arrays.compareUnsigned(t.largest(), hi) > 0) {
                        hi = t.largest();
                        grew = true;
                    }
                }
            }
        }
        List<MergeTask.Input> inputs = new ArrayList<>();
        for (Run g : groups) {
            List<TableMeta> ts = g.overlapping(lo, hi);
            if (!ts.isEmpty()) {
                inputs.add(new MergeTask.Input(0, g.id(), ts));
            }
        }
        return inputs;
    }

    private static byte[][] widen(byte[][] range, List<TableMeta> tables) {
        byte[] lo = range[0];
        byte[] hi = range[1];
        for (TableMeta t : tables) {
            lo = Arrays.compareUnsigned(t.smallest(), lo) < 0 ? t.smallest() : lo;
            hi = Arrays.compareUnsigned(t.largest(), hi) > 0 ? t.largest() : hi;
        }
        return new byte[][] {lo, hi};
    }

    private static byte[][] range(List<MergeTask.Input> inputs) {
        byte[] lo = null;
        byte[] hi = null;
        for (MergeTask.Input in : inputs) {
            for (TableMeta t : in.tables()) {
                lo = lo == null || Arrays.compareUnsigned(t.smallest(), lo) < 0 ? t.smallest() : lo;
                hi = hi == null || Arrays.compareUnsigned(t.largest(), hi) > 0 ? t.largest() : hi;
            }
        }
        return new byte[][] {lo, hi};
    }

    private static boolean anyBusy(List<MergeTask.Input> inputs, Set<Long> busy) {
        for (MergeTask.Input in : inputs) {
            if (anyBusyTable(in.tables(), busy)) {
                return true;
            }
        }
        return false;
    }

    static boolean anyBusyTable(Collection<TableMeta> tables, Set<Long> busy) {
        for (TableMeta t : tables) {
            if (busy.contains(t.fileNumber())) {
                return true;
            }
        }
        return false;
    }

    private static long bytes(List<MergeTask.Input> inputs) {
        long s = 0;
        for (MergeTask.Input in : inputs) {
            s += bytes(in.tables());
        }
        return s;
    }

    static long bytes(Collection<TableMeta> tables) {
        long s = 0;
        for (TableMeta t : tables) {
            s += t.sizeBytes();
        }
        return s;
    }
}
