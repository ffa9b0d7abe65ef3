package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Garnering (paper 004, Autumn, section 3.1): leveling with one run per level below a grouped L0, but
 * level capacities that grow as the tree gains levels, so the tree stays flatter than leveling.
 *
 * <h2>Capacities (paper 004, equations 4 and 5)</h2>
 * With {@code N} disk levels, write memory {@code M}, size ratio {@code T} and scaling factor
 * {@code c} in (0, 1], the ratio between level {@code i+1} and level {@code i} is
 * {@code T / c^(N-1-i)} for {@code 0 <= i < N} (level 0 standing for the memory {@code M}): the last
 * two levels keep ratio {@code T}, each smaller pair's ratio is divided by {@code c} once more. So
 * {@code C_i = M · T^i / c^S(i,N)} with {@code S(i,N) = i(N-1) - i(i-1)/2}. Adding a level multiplies
 * every {@code C_i} by {@code c^-i}; with {@code c = 1} the capacities are static leveling's
 * {@code M·T^i}. The number of levels therefore grows like {@code sqrt(log_T(data/M))} (equation 6)
 * instead of {@code log_T(data/M)}.
 *
 * <h2>Merges</h2>
 * L0's score is leveling's ({@link LevelingPicker#groupScore}, {@link LevelingPicker#volumeScore}):
 * from {@code l0MergeGroups} groups an L0 merge is due once L0 holds at least
 * {@code 1 / L0_OVERLAP_RATIO} of the bytes it would rewrite below, and at {@code l0MaxGroups}
 * groups in any case; L0 is also due at {@code l0MergeGroups·M} bytes (or {@code l0MergeTables}
 * tables) whatever its group count, and such a merge takes all of L0. Garnering needs the first rule
 * more than leveling does: its upper levels are {@code c^-S(i,N)} times leveling's, so an L0 merge
 * at a fixed group count would rewrite a larger L1 for the same bytes taken from L0. While an L0
 * merge runs, a second one takes only a slice whose overlap ratio is at most {@code L0_OVERLAP_RATIO}.
 * Level {@code i < N}'s score is {@code |L_i| / C'_i} with
 * {@code C'_i = max(C_i, D · C_i / C_N)}, {@code D} the bytes of all disk levels: like leveling's
 * dynamic targets, this keeps each level's share of the data when the write memory {@code M}
 * shrinks, so a smaller M does not push every level's data down at once (the ratio
 * {@code C_i / C_N} does not depend on M). The
 * highest score {@code >= 1} with a pickable table merges, choosing tables as {@link LevelMerges}
 * describes. The last level never merges.
 *
 * <h2>Levels</h2>
 * <ul>
 *   <li><b>Delayed last-level compaction.</b> When the last level exceeds its capacity
 *       ({@code |L_N| > C_N(N)}), an empty level is appended <em>below</em> it and nothing merges:
 *       with {@code N+1} levels the old last level's capacity is {@code c^-N} times larger, so its
 *       merge into the new level waits for the next cycle. The same rule adds a level when the write
 *       memory shrinks (all capacities shrink with {@code M}); the last level is never rewritten
 *       for it.</li>
 *   <li><b>A due level change holds merges back</b> ({@link #levelChangeHoldsMerges}): while
 *       {@link #levelChange} has a change, no new merge starts, so that the running ones end and the
 *       change is applied before the next merge, not after the load. Unlike the interface's default,
 *       the hold does not end at {@code l0MaxGroups} L0 groups (see the method).</li>
 *   <li><b>Retiring L1</b> when the write memory has grown so that the data would fit in one level
 *       fewer with margin: {@code N >= 2} and {@code f · (|L_1| + ... + |L_N|) <= C_(N-1)(N-1)},
 *       {@code f = 1.5}. As with leveling, L0 merges then go straight into L2 (taking the overlapping
 *       L1 tables along), L1 drains into L2 when nothing else is due, and an empty L1 is removed.
 *       Neither change can undo the other at once: after an append the data exceeds
 *       {@code C_N(N)}; after a removal the last level holds at most {@code C/f}.</li>
 * </ul>
 *
 * <p>Thread safety: immutable; safe.
 */
public final class GarneringPicker implements MergePicker {

    /** Retire L1 only once the data fits in one level fewer with this factor to spare. */
    static final double RETIRE_FACTOR = 1.5;

    private final double scale;

    /** @param scale the scaling factor {@code c}, in (0, 1] */
    public GarneringPicker(double scale) {
        if (!(scale > 0 && scale <= 1)) {
            throw new IllegalArgumentException("Garnering scaling factor c must be in (0, 1], got " + scale);
        }
        this.scale = scale;
    }

    public double scale() {
        return scale;
    }

    /**
     * Capacity in bytes of level {@code i} (1..levels) of a tree with {@code levels} disk levels:
     * {@code M · T^i / c^(i(levels-1) - i(i-1)/2)}, saturating at {@link Long#MAX_VALUE}.
     */
    public static long capacity(int i, int levels, MergeSettings s, double c) {
        if (i < 1 || i > levels) {
            throw new IllegalArgumentException("level " + i + " is not in 1.." + levels);
        }
        double exponent = (double) i * (levels - 1) - i * (i - 1) / 2.0;
        double cap = s.writeMemoryBytes() * Math.pow(s.sizeRatio(), i) / Math.pow(c, exponent);
        return cap >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) cap;
    }

    /** Disk levels a tree of {@code dataBytes} needs: the smallest {@code N >= 1} with {@code C_N(N) >= dataBytes}. */
    public static int levelsFor(long dataBytes, MergeSettings s, double c) {
        int n = 1;
        while (capacity(n, n, s, c) < dataBytes && n < 64) {
            n++;
        }
        return n;
    }

    /**
     * The capacity level {@code i < N} merges at: the larger of {@code C_i(N)} and
     * {@code D · C_i(N) / C_N(N)}, where {@code D} is all disk data (the ratio does not depend on M),
     * and at least the held shape's floor ({@link MergeSettings#levelTargetFloor}) while the share is a guess.
     */
    long capacity(int i, Version v, MergeSettings s) {
        int n = v.levelCount() - 1;
        long byMemory = capacity(i, n, s, scale);
        if (i >= n) {
            return byMemory;
        }
        double byData = diskBytes(v) * ((double) byMemory / capacity(n, n, s, scale));
        return Math.max((long) Math.max(byMemory, Math.min(byData, Long.MAX_VALUE)), s.levelTargetFloor(i, v.levelCount()));
    }

    private static long diskBytes(Version v) {
        long sum = 0;
        for (int i = 1; i < v.levelCount(); i++) {
            sum += v.levelBytes(i);
        }
        return sum;
    }

    /** True if L1 should be retired: at least two disk levels and the data fits in one fewer with room. */
    boolean retiringL1(Version v, MergeSettings s) {
        int n = v.levelCount() - 1;
        return n >= 2 && RETIRE_FACTOR * diskBytes(v) <= capacity(n - 1, n - 1, s, scale);
    }

    @Override
    public Optional<MergeTask> pick(Version v, Set<Long> busy, MergeSettings s) {
        int last = v.levelCount() - 1;
        boolean retiring = retiringL1(v, s);
        List<double[]> scored = new ArrayList<>(); // {level, score}
        int l0Target = retiring ? 2 : 1;
        double groupScore = LevelingPicker.groupScore(v, s, l0Target);
        scored.add(new double[] {0, Math.max(groupScore, LevelingPicker.volumeScore(v, s))});
        for (int i = retiring ? 2 : 1; i < last; i++) {
            scored.add(new double[] {i, v.levelBytes(i) / (double) capacity(i, v, s)});
        }
        scored.sort(Comparator.comparingDouble((double[] a) -> a[1]).reversed());
        for (double[] ls : scored) {
            if (ls[1] < 1.0) {
                break;
            }
            int level = (int) ls[0];
            Optional<MergeTask> t;
            if (level != 0) {
                t = LevelMerges.fromLevel(v, level, busy, ls[1], String.format(" (garnering, capacity %d B)", capacity(level, v, s)));
            } else if (groupScore >= 1.0) {
                t = LevelMerges.fromL0(v, busy, ls[1], l0Target, retiring ? " (garnering, retiring L1)" : " (garnering)",
                        LevelingPicker.anyL0Busy(v, busy) ? LevelingPicker.L0_OVERLAP_RATIO : Double.MAX_VALUE);
            } else {
                t = LevelMerges.allOfL0(v, busy, ls[1], l0Target,
                        (LevelingPicker.tableScore(v, s) >= 1.0 ? "table-count" : "bytes") + " (garnering)");
            }
            if (t.isPresent()) {
                return t;
            }
        }
        if (retiring) {
            return LevelMerges.fromLevel(v, 1, busy, 0, " (garnering, draining a retiring L1)");
        }
        return Optional.empty();
    }

    /**
     * True while a level change is due, whatever L0 holds. The interface's default also ends the hold
     * once L0 reaches {@code l0MaxGroups} groups, and for Garnering (and static leveling, c = 1) that
     * bound starves the change (measured, docs/benchmarks-garnering.md Session 12: 2,400,000 keys, 3 of
     * 6 runs): a fast load fills L0 to {@code l0MaxGroups} during the first L0 merge, so when that ends
     * the hold is already off, the next L0 merge rewrites the whole over-full single level and takes
     * longer still, L0 is full again when it ends, and the append waits for the load to stop (one level
     * rewritten 45-58 times, write amplification 27-35 against 8-9). The hold cannot deadlock: the
     * scheduler asks only while the tree's level count is settled, and then applies the change as soon
     * as the running merges end (at most two); meanwhile L0 may reach the flush slowdown, for no
     * longer than those merges take.
     */
    @Override
    public boolean levelChangeHoldsMerges(Version v, MergeSettings s) {
        return levelChange(v, s).isPresent();
    }

    @Override
    public Optional<LevelChange> levelChange(Version v, MergeSettings s) {
        int n = v.levelCount() - 1;
        if (retiringL1(v, s)) {
            return v.level(1).isEmpty()
                    ? Optional.of(new LevelChange(1, true, String.format(
                            "garnering: %d B on disk fit in %d levels (capacity %d B) and L1 is empty: remove L1",
                            diskBytes(v), n - 1, capacity(n - 1, n - 1, s, scale))))
                    : Optional.empty();
        }
        long lastBytes = v.levelBytes(n);
        long cap = capacity(n, n, s, scale);
        if (lastBytes > cap) {
            return Optional.of(new LevelChange(n + 1, false, String.format(
                    "garnering: |L%d| = %d B exceeds its capacity %d B: append an empty L%d, delaying the last-level merge"
                            + " (L%d's capacity becomes %d B)", n, lastBytes, cap, n + 1, n, capacity(n, n + 1, s, scale))));
        }
        return Optional.empty();
    }
}
