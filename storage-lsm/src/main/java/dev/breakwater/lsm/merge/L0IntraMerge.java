package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An L0 merge that stays in L0: every L0 group merged into one group at the oldest end of L0,
 * instead of an L0 merge into L1 that L0 is still too small to pay for (leveling, grouped L0).
 *
 * <h2>Why</h2>
 * Under random keys every L0 group spans the key space, so an L0 merge rewrites all of L1 below
 * it: it costs {@code (|L0| + below) / |L0|} bytes per byte taken from L0. {@link LevelingPicker}
 * waits until L0 holds at least half of {@code below} ({@link LevelingPicker#L0_OVERLAP_RATIO}),
 * but only up to {@code l0MaxGroups} groups, where the merge is forced whatever L0 holds (more
 * groups would reach the flush slowdown). When groups are small against L1 (a tree with a small
 * write-memory share, whose memory-triggered partial flushes make groups of 1-4 MB over an L1 of
 * tens of MB: TPC-C at 24 MiB of write memory, issue 12) every forced merge takes a thin batch and
 * rewrites all of L1 for it. Merging the groups into one costs only {@code |L0|} and brings the
 * group count back to one, so L0 can keep growing until the L0 merge pays for itself.
 *
 * <h2>When ({@link #due})</h2>
 * All of: L0 holds at least {@code l0MaxGroups} groups and {@code l0MaxGroups > l0MergeGroups}
 * (the amortized trigger is on); the L0 merge would be forced by the group count alone
 * ({@code L0_OVERLAP_RATIO·|L0| < below}); no L0 table is in a running merge; and
 * {@code |L0| < sqrt(2·G·below)}, where {@code G} is the growth the merge buys ({@link #growth}):
 * normally {@code (l0MaxGroups − 1)·g}, with {@code g} the mean size of the groups newer than the
 * oldest one (what flushes add per group), but never more than L0 can take before its byte trigger
 * or its amortized trigger sends it below anyway. The bound comes from the cost of
 * repeating this: each merge in L0 rewrites all of L0, which grows by about
 * {@code G} between them, so merging in L0 until L0 holds {@code L} costs about
 * {@code L² / (2·G)} bytes, or {@code L / (2·G)} per byte, and the
 * final merge into L1 {@code 1 + below / L} per byte; the sum is smallest at that {@code L}. Past it
 * the forced merge into L1 is cheaper, and it runs as before. Close to the byte trigger {@code G}
 * is small: rewriting an L0 of 7 MB to take one more 450 KB flush before all of it goes below
 * costs more than sending it below now.
 *
 * <h2>Correctness</h2>
 * The inputs are all L0 groups (so the oldest ones) and the output run is placed at the oldest
 * end ({@link MergeTask#OLDEST_RUN}): nothing in L0 is older than it. A flush that installs while
 * the merge runs puts its table into a group that overlaps none of the newer groups
 * ({@link dev.breakwater.lsm.version.L0Groups}); if that group is an input, the table stays in it
 * (it is not an input), and that group, newer than the oldest-end output, keeps shadowing it as a
 * newer table must. Tombstones are kept (levels below may hold older versions).
 *
 * <p>Thread safety: stateless; safe.
 */
public final class L0IntraMerge {

    private L0IntraMerge() {
    }

    /**
     * The merge of every L0 group into one oldest group if {@link L0IntraMerge it is due}, for an
     * L0 merge into {@code target} (1, or 2 while L1 retires).
     */
    public static Optional<MergeTask> pick(Version v, Set<Long> busy, MergeSettings s, int target, double score) {
        long below = belowIfDue(v, busy, s, target);
        if (below < 0) {
            return Optional.empty();
        }
        List<MergeTask.Input> inputs = new ArrayList<>();
        int tables = 0;
        for (Run g : v.level(0)) { // newest first, as merge inputs must be
            if (!g.tables().isEmpty()) {
                inputs.add(new MergeTask.Input(0, g.id(), g.tables()));
                tables += g.tables().size();
            }
        }
        return Optional.of(new MergeTask(inputs, 0, MergeTask.OLDEST_RUN, false, score, String.format(
                "L0 intra-merge: %d groups (%d tables, %d B) into one oldest group; %d B below would make an L0 merge cost %.1f B per B",
                inputs.size(), tables, v.levelBytes(0), below, 1.0 + (double) below / Math.max(1, v.levelBytes(0)))));
    }

    /** True if all of L0 should merge into one L0 group now (the rule in the class comment). */
    static boolean due(Version v, Set<Long> busy, MergeSettings s, int target) {
        return belowIfDue(v, busy, s, target) >= 0;
    }

    /** The bytes below that overlap L0 if the intra-merge is {@link #due}, else -1. */
    private static long belowIfDue(Version v, Set<Long> busy, MergeSettings s, int target) {
        List<Run> l0 = v.level(0);
        int groups = l0.size();
        if (s.l0MaxGroups() <= s.l0MergeGroups() || groups < s.l0MaxGroups() || groups < 2) {
            return -1;
        }
        long l0Bytes = v.levelBytes(0);
        long below = LevelingPicker.overlappingBelow(v, target);
        if (below == 0 || LevelingPicker.L0_OVERLAP_RATIO * l0Bytes >= below || LevelingPicker.anyL0Busy(v, busy)) {
            return -1;
        }
        double newGroup = (double) (l0Bytes - LevelMerges.bytes(l0.get(groups - 1).tables())) / (groups - 1);
        double growth = growth(l0Bytes, newGroup, below, s);
        return growth > 0 && l0Bytes < Math.sqrt(2.0 * growth * below) ? below : -1;
    }

    /**
     * How many bytes L0 can take after an intra-merge before its next merge into the level below
     * is due: the least of {@code (l0MaxGroups − 1)·g} (the group count forces a merge again), the
     * byte trigger less what L0 holds ({@link LevelingPicker#volumeThreshold}: from there all of L0
     * goes below), and {@code max(below / r − |L0|, (l0MergeGroups − 1)·g)} (the amortized trigger,
     * {@code r} = {@link LevelingPicker#L0_OVERLAP_RATIO}). An intra-merge costs all of L0 and buys
     * only this growth; with the group count's growth alone, an L0 a little under the byte trigger
     * was rewritten whole and merged into L1 one flush later (paper 000 Figure 10 at 16 MiB: the cold
     * trees' groups of about 450 KB, a byte trigger of 8 MB over 18 MB of L1, intra-merges of 7 MB).
     */
    static double growth(long l0Bytes, double newGroup, long below, MergeSettings s) {
        double byGroups = (s.l0MaxGroups() - 1) * newGroup;
        double byBytes = LevelingPicker.volumeThreshold(s) - l0Bytes;
        double byAmortized = Math.max(below / LevelingPicker.L0_OVERLAP_RATIO - l0Bytes, (s.l0MergeGroups() - 1) * newGroup);
        return Math.min(byGroups, Math.min(byBytes, byAmortized));
    }
}
