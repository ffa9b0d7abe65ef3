package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Partitioned leveling with a grouped L0 (paper 000, sections 2.1 and 4.1.2-4.1.3).
 *
 * <h2>Shape</h2>
 * L0 holds groups (runs) of disjoint SSTables, newest first. Levels {@code 1..N} hold one run each.
 * The last level is treated as full and fixes the others' targets: with {@code r = (|L_N|/M)^(1/N)},
 * {@code target(L_i) = M·r^i} while {@code r <= T} (equal ratios, see {@link #target}), else
 * {@code max(M·T^i, |L_N| / T^(N-i))}, where {@code M} is the tree's write-memory share (the
 * write-memory manager's slow level-sizing share). While that share is the registration guess the
 * target is at least what the level held then ({@link MergeSettings#levelTargetFloor}): the guess
 * does not merge a level that fitted the share it was written with.
 *
 * <h2>Scores and choice</h2>
 * L0's score is the largest of its group score ({@code groupScore}) and the volume terms of
 * {@code volumeScore} ({@code |L0| / (l0MergeGroups·M)}, {@code L0 tables / l0MergeTables});
 * level {@code i}'s is {@code |L_i| / target(L_i)}.
 *
 * <h2>When L0 merges: amortized over the level below</h2>
 * Under random keys an L0 merge rewrites all of the level below it (every group spans the key
 * space), so its cost per byte taken from L0 is {@code |L1| / |L0|}: merging at a fixed group count
 * while L1 grows to hundreds of MB makes every byte flushed cost several bytes of merge (7.6 in the
 * issue-13 measurements). So L0 merges are due at {@code l0MergeGroups} groups only once L0 holds at
 * least {@code 1 / }{@link #L0_OVERLAP_RATIO} of the bytes below that overlap it; otherwise they wait
 * for more groups, up to {@code l0MaxGroups}, where they are due whatever L1 holds (so flushes do not
 * reach the slowdown limit). While L1 is small the merge runs at {@code l0MergeGroups} as before.
 * When that forced merge would still take a thin batch against L1 (groups much smaller than L1, as
 * a tree with a small write-memory share makes them), the groups are merged into one L0 group
 * instead ({@link L0IntraMerge}), so that L0 can grow until its merge into L1 pays.
 * While an L0 merge runs, a second one (the scheduler runs two per tree) takes only a slice whose
 * own overlap ratio is at most {@link #L0_OVERLAP_RATIO}: what the first merge left are thin slices
 * beside it, each overlapping whole L1 tables.
 * The level with the highest score {@code >= 1} that has a pickable table merges:
 * <ul>
 *   <li>From L0, the smallest group (fewest tables) goes first. Its table that minimizes
 *       (overlapping bytes in L1) / (bytes taken from L0) is chosen, together with every L0 table
 *       of any group that overlaps the growing key range (an older L0 table left behind would
 *       otherwise shadow the newer data once it reached L1).</li>
 *   <li>From L0 due by volume only (group score below 1), all of L0 ({@code LevelMerges.allOfL0}):
 *       flushes that overlap nothing in L0 never form groups, and a slice would be the one table.</li>
 *   <li>From level {@code i >= 1}, the table that minimizes (overlapping bytes in {@code L_i+1}) /
 *       (its bytes).</li>
 * </ul>
 * Tombstones are dropped when the output is the last level.
 *
 * <h2>Levels (paper 000, section 4.1.3)</h2>
 * The number of levels follows the write memory {@code M} the tree holds. When L1 outgrows it
 * ({@code |L1| > M·T}), an empty L1 is inserted (levels are added at the top, so the last level is
 * never rewritten for it). When the write memory has grown so that L1 is redundant ({@code M·T > f·|L2|}, f = 1.5 so
 * the decision does not oscillate), L1 is retired: L0 merges go straight into L2, taking the
 * overlapping L1 tables along; L1 tables merge into L2 when nothing else is due; once L1 is empty it
 * is removed.
 *
 * <h2>Batched L0 ({@link #batched()})</h2>
 * Under random keys every L0 group spans the whole key space (a group is one round-robin pass of
 * partial flushes over the last memory level, about the write memory {@code M}), so any L0 merge
 * overlaps, and rewrites, the whole of L1: its cost per byte taken from L0 is {@code |L1| / |L0|},
 * whatever the closure or slicing. The only levers are how much L0 a merge takes and how large the
 * level it lands in is. The batched variant merges L0 at {@code l0MergeGroups} groups set close to
 * the flush slowdown (the caller's choice) and sizes the levels from that batch
 * {@code B = l0MergeGroups·M} instead of from {@code M}: equation 1 of paper 000 with {@code B} in
 * place of {@code a·M_w}, since {@code B} is what one L0 merge moves. Levels: add an empty L1 when
 * {@code |L1| > B·T}; targets as above with {@code B} for {@code M}; retire L1 when
 * {@code B·T > f·|L2|}. With the default grouped variant {@code B = M}.
 *
 * <p>Thread safety: stateless (the variant is fixed at construction); safe.
 */
public final class LevelingPicker implements MergePicker {

    /**
     * An L0 merge between {@code l0MergeGroups} and {@code l0MaxGroups} groups is due once the bytes
     * it would rewrite below are at most this many times the bytes it takes from L0.
     */
    public static final double L0_OVERLAP_RATIO = 2.0;

    /** Retire L1 only once the write memory exceeds what would add it by this factor. */
    static final double RETIRE_FACTOR = 1.5;

    private final boolean batched;

    /** The grouped-L0 leveling of paper 000 (levels sized from the write memory). */
    public LevelingPicker() {
        this(false);
    }

    /** @param batched true for the batched-L0 variant (levels sized from {@code l0MergeGroups·M}) */
    public LevelingPicker(boolean batched) {
        this.batched = batched;
    }

    /** True for the batched-L0 variant. */
    public boolean batched() {
        return batched;
    }

    /** The bytes one L0 merge is expected to move, from which level sizes follow: {@code M}, or {@code l0MergeGroups·M} when batched. */
    long baseBytes(MergeSettings s) {
        return batched ? s.writeMemoryBytes() * s.l0MergeGroups() : s.writeMemoryBytes();
    }

    /** True if L1 should be retired: at least two levels and {@code B·T > f·|L2|}. */
    boolean retiringL1(Version v, MergeSettings s) {
        return v.levelCount() - 1 >= 2 && (double) baseBytes(s) * s.sizeRatio() > RETIRE_FACTOR * v.levelBytes(2);
    }

    @Override
    public Optional<MergeTask> pick(Version v, Set<Long> busy, MergeSettings s) {
        int last = v.levelCount() - 1;
        boolean retiring = retiringL1(v, s);
        List<double[]> scored = new ArrayList<>(); // {level, score}
        double groupScore = groupScore(v, s, retiring ? 2 : 1);
        double l0Score = Math.max(groupScore, volumeScore(v, s));
        scored.add(new double[] {0, l0Score});
        for (int i = retiring ? 2 : 1; i < last; i++) {
            scored.add(new double[] {i, v.levelBytes(i) / (double) target(v, i, s)});
        }
        scored.sort(Comparator.comparingDouble((double[] a) -> a[1]).reversed());
        for (double[] ls : scored) {
            if (ls[1] < 1.0) {
                break;
            }
            int level = (int) ls[0];
            Optional<MergeTask> t;
            if (level != 0) {
                t = LevelMerges.fromLevel(v, level, busy, ls[1], "");
            } else if (groupScore >= 1.0) {
                // Forced by the group count alone while L0 is thin against L1: merge within L0.
                t = batched ? Optional.empty() : L0IntraMerge.pick(v, busy, s, retiring ? 2 : 1, ls[1]);
                if (t.isEmpty()) {
                    // While an L0 merge runs, what it left are slices beside it; under random keys such a
                    // slice is thin against whole L1 tables (measured: 2 MB of L0 with 25 MB of L1).
                    t = LevelMerges.fromL0(v, busy, ls[1], retiring ? 2 : 1, retiring ? " (retiring L1)" : "",
                            anyL0Busy(v, busy) ? L0_OVERLAP_RATIO : Double.MAX_VALUE);
                }
            } else {
                t = LevelMerges.allOfL0(v, busy, ls[1], retiring ? 2 : 1, tableScore(v, s) >= 1.0 ? "table-count" : "bytes");
            }
            if (t.isPresent()) {
                return t;
            }
        }
        if (retiring && !v.level(1).isEmpty()) {
            return LevelMerges.fromLevel(v, 1, busy, 0, ""); // low priority: drain L1 into L2
        }
        return Optional.empty();
    }

    /**
     * L0's score from its group count for a merge into {@code target} (1, or 2 while L1 retires):
     * {@code groups / l0MergeGroups} below {@code l0MergeGroups} groups; from there the larger of
     * {@code groups / l0MaxGroups} and {@code min(groups / l0MergeGroups, r·|L0| / below)}, where
     * {@code below} is the bytes of the target level (and of L1 when the target is L2) that overlap
     * L0's key range and {@code r} is {@link #L0_OVERLAP_RATIO}. It reaches 1 at {@code l0MergeGroups}
     * groups when L0 is large enough against what it rewrites, and at {@code l0MaxGroups} groups in any case.
     */
    static double groupScore(Version v, MergeSettings s, int target) {
        int groups = v.level(0).size();
        double atMin = (double) groups / s.l0MergeGroups();
        if (atMin < 1.0 || s.l0MaxGroups() == s.l0MergeGroups()) {
            return atMin;
        }
        double atMax = (double) groups / s.l0MaxGroups();
        long below = overlappingBelow(v, target);
        double amortized = below == 0 ? Double.POSITIVE_INFINITY : L0_OVERLAP_RATIO * v.levelBytes(0) / below;
        return Math.max(atMax, Math.min(atMin, amortized));
    }

    /** True if a table of L0 is in {@code busy} (an L0 merge is running). */
    static boolean anyL0Busy(Version v, Set<Long> busy) {
        for (Run g : v.level(0)) {
            if (LevelMerges.anyBusyTable(g.tables(), busy)) {
                return true;
            }
        }
        return false;
    }

    /** Bytes of levels {@code 1..target} (those that exist) overlapping the key range of all of L0. */
    static long overlappingBelow(Version v, int target) {
        byte[] lo = null;
        byte[] hi = null;
        for (Run g : v.level(0)) {
            for (TableMeta t : g.tables()) {
                lo = lo == null || Arrays.compareUnsigned(t.smallest(), lo) < 0 ? t.smallest() : lo;
                hi = hi == null || Arrays.compareUnsigned(t.largest(), hi) > 0 ? t.largest() : hi;
            }
        }
        long bytes = 0;
        for (int level = 1; lo != null && level <= target && level < v.levelCount(); level++) {
            for (Run r : v.level(level)) {
                bytes += LevelMerges.bytes(r.overlapping(lo, hi));
            }
        }
        return bytes;
    }

    /**
     * L0's score from its volume rather than its groups: the larger of {@link #tableScore} and
     * {@code |L0| / (l0MergeGroups·M)}. Under random keys a group holds about {@code M} or less (one
     * pass of partial flushes), so the byte term reaches 1 no earlier than the group count does
     * and changes nothing there; when flushes overlap nothing in L0 (increasing keys, sequential
     * overwrites) they all join one or two groups and only these terms ever make L0 due. While the
     * share is a guess the byte term's threshold is at least what L0 held then
     * ({@link MergeSettings#l0VolumeFloor}): the guess alone does not make an L0 due that has not grown.
     */
    static double volumeScore(Version v, MergeSettings s) {
        double bytes = (double) v.levelBytes(0) / volumeThreshold(s);
        return Math.max(bytes, tableScore(v, s));
    }

    /**
     * L0's byte trigger: {@code l0MergeGroups·M}, or more while the share is a guess
     * ({@link MergeSettings#l0VolumeFloor}). An L0 that holds this much merges into the level below
     * (all of it, unless the group count made it due first), whatever that level holds.
     */
    static double volumeThreshold(MergeSettings s) {
        return Math.max((double) s.l0MergeGroups() * s.writeMemoryBytes(), s.l0VolumeFloor());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here: the L0 batch its merge into the level below waits for, {@code min(byte trigger,
     * below / r)} ({@link #volumeThreshold}; {@code r} = {@link #L0_OVERLAP_RATIO}, {@code below}
     * the bytes of L1, and of L2 while L1 retires), over {@code l0MaxGroups − 1}: with flushes at
     * least this large L0 reaches its batch before the group count forces it to merge. Smaller
     * flushes make L0 merge while thin, into L1 or, more often, into itself ({@link L0IntraMerge}),
     * rewriting L0 every few flushes (paper 000 Figure 10 at 16 MiB: the cold trees' 450 KB flushes
     * against an 8 MB batch, 1.5–1.9 bytes of intra-L0 merge per byte flushed). 0 while the level
     * below is empty (L0 then merges at {@code l0MergeGroups} groups whatever it holds), for the
     * batched variant, and without the amortized trigger ({@code l0MaxGroups <= l0MergeGroups}).
     */
    @Override
    public long smallestUsefulFlushBytes(Version v, MergeSettings s) {
        if (batched || s.l0MaxGroups() <= s.l0MergeGroups() || v.levelCount() < 2) {
            return 0;
        }
        int target = retiringL1(v, s) ? 2 : 1;
        long below = 0;
        for (int level = 1; level <= target && level < v.levelCount(); level++) {
            below += v.levelBytes(level);
        }
        if (below == 0) {
            return 0;
        }
        double batch = Math.min(volumeThreshold(s), below / L0_OVERLAP_RATIO);
        return (long) (batch / (s.l0MaxGroups() - 1));
    }

    /** {@code L0 tables / l0MergeTables}, or 0 without a table-count trigger. */
    static double tableScore(Version v, MergeSettings s) {
        return s.l0MergeTables() == 0 ? 0 : (double) v.levelTables(0) / s.l0MergeTables();
    }

    @Override
    public Optional<LevelChange> levelChange(Version v, MergeSettings s) {
        int n = v.levelCount() - 1;
        if (retiringL1(v, s)) {
            return v.level(1).isEmpty()
                    ? Optional.of(new LevelChange(1, true, String.format("B*T = %d B exceeds %.1f*|L2| = %.0f B and L1 is empty: remove L1",
                            baseBytes(s) * s.sizeRatio(), RETIRE_FACTOR, RETIRE_FACTOR * v.levelBytes(2))))
                    : Optional.empty();
        }
        long l1 = v.levelBytes(1);
        if (l1 > baseBytes(s) * s.sizeRatio()) {
            return Optional.of(new LevelChange(1, false, String.format(
                    "|L1| = %d B exceeds B*T = %d B: add an empty L1", l1, baseBytes(s) * s.sizeRatio())));
        }
        return Optional.empty();
    }

    /**
     * Target size of level {@code i} in {@code 1..N-1}. With {@code r = (|L_N| / B)^(1/N)}, the ratio
     * that would make every level the same factor larger than the one above, from the batch {@code B}
     * an L0 merge moves to the last level: {@code B·r^i} while {@code r <= T}, else the paper's
     * {@code max(B·T^i, |L_N| / T^(N-i))} (which is {@code |L_N| / T^(N-i)} then).
     *
     * <p>Why not the paper's rule throughout: when {@code r < T}, it sizes L1 at {@code B·T}, so the
     * level ratios are {@code T} above and {@code |L_N| / (B·T^(N-1)) < T} at the bottom. Leveling
     * writes each byte about once per unit of each ratio (an L0 batch rewrites L1, an L1 table the
     * overlapping L2, ...), so the sum of the ratios is what a byte costs, and for a given product
     * ({@code |L_N| / B}) that sum is smallest when they are equal. Measured (issue 12, sixth
     * session): TPC-C stock at 32 MiB, B about 6 MB and |L2| 115 MB, held L1 at 40-60 MB (one table),
     * and every 4-6 MB L0 merge rewrote all of it; {@code B·r} is about 26 MB. The two rules agree
     * when {@code r = T}, so the level count rules ({@link #levelChange}) are unchanged.
     */
    long target(Version v, int i, MergeSettings s) {
        return Math.max(computedTarget(v, i, s), s.levelTargetFloor(i, v.levelCount()));
    }

    /** {@link #target} from the share alone, without the held shape's floor ({@link MergeSettings#levelTargetFloor}). */
    private long computedTarget(Version v, int i, MergeSettings s) {
        int n = v.levelCount() - 1;
        double base = baseBytes(s);
        double last = v.levelBytes(n);
        double r = last > base ? Math.pow(last / base, 1.0 / n) : 1.0;
        if (r <= s.sizeRatio()) {
            return (long) (base * Math.pow(r, i));
        }
        double byMemory = base * Math.pow(s.sizeRatio(), i);
        double byLast = last / Math.pow(s.sizeRatio(), n - i);
        return (long) Math.max(byMemory, byLast);
    }
}
