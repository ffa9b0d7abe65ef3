package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Up to K sorted runs per level, for any K in [1, T − 1] (the "runs per level" K_i of paper 003's
 * design space, Dostoevsky's and Kapacity's continuum between leveling and tiering). K = 1 is
 * full-merge leveling; K = T − 1 behaves like tiering.
 *
 * <h2>Shape</h2>
 * L0 holds groups of disjoint SSTables as in the other policies. Level {@code i >= 1} has capacity
 * {@code C_i = M·(T − 1)·T^(i−1)} ({@code M} the tree's write memory, as in the cost model's level
 * sizes) and holds up to K runs of about {@code C_i / K} each, newest first.
 *
 * <h2>Scores and choice</h2>
 * L0's score is {@code groups / l0MergeGroups}; level {@code i}'s is the larger of
 * {@code bytes_i / C_i} and {@code runs_i / K} when it holds more than K runs (else
 * {@code bytes_i / C_i}). The level with the highest score {@code >= 1} whose runs are all idle
 * merges, all of its runs at once, into level {@code i + 1}:
 * <ul>
 *   <li>If the newest run of level {@code i + 1} is idle and would stay within its share
 *       ({@code newest + input <= C_(i+1) / K}), it joins the merge as the oldest input and the
 *       output replaces it (it was the newest run of its level, so the output, placed newest, takes
 *       its place in the shadowing order).</li>
 *   <li>Otherwise the output starts a new run, the newest of level {@code i + 1}.</li>
 * </ul>
 * With K = 1 a level's run absorbs incoming merges until it holds {@code C_i}, then moves down whole;
 * with K = T − 1 each incoming merge (about {@code C_(i+1)/T} bytes) starts a run of its own, since
 * two of them exceed {@code C_(i+1)/(T − 1)}. A merge out of the last level creates a new last level.
 * Tombstones are dropped only when the output level is the last and holds no run outside the merge.
 *
 * <h2>Invariants</h2>
 * (1) Inputs are whole runs, newest first, and never include a busy table. (2) Within a level, runs
 * stay ordered newest first: an output goes to the newest end, replacing at most the run that was
 * newest there. (3) A pure function of the version, the busy set and the settings.
 *
 * <p>Thread safety: immutable; safe.
 */
public final class RunsPerLevelPicker implements MergePicker {

    private final int runsPerLevel;

    /** @param runsPerLevel K &gt;= 1; it is capped at T − 1 of the settings a pick sees */
    public RunsPerLevelPicker(int runsPerLevel) {
        if (runsPerLevel < 1) {
            throw new IllegalArgumentException("runs per level K must be >= 1, got " + runsPerLevel);
        }
        this.runsPerLevel = runsPerLevel;
    }

    /** K under {@code s}: at most T − 1. */
    public int runs(MergeSettings s) {
        return Math.min(runsPerLevel, s.sizeRatio() - 1);
    }

    /** C_i = M·(T − 1)·T^(i−1) for level {@code i >= 1}, saturating at {@code Long.MAX_VALUE}. */
    public static long capacity(MergeSettings s, int level) {
        double c = (double) s.writeMemoryBytes() * (s.sizeRatio() - 1) * Math.pow(s.sizeRatio(), level - 1);
        return c >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) c;
    }

    @Override
    public Optional<MergeTask> pick(Version v, Set<Long> busy, MergeSettings s) {
        int k = runs(s);
        List<double[]> scored = new ArrayList<>(); // {level, score}
        scored.add(new double[] {0, (double) v.level(0).size() / s.l0MergeGroups()});
        for (int i = 1; i < v.levelCount(); i++) {
            // While the share is a guess, a level's capacity is at least what it held then (MergeSettings.levelTargetFloor).
            double score = (double) v.levelBytes(i) / Math.max(capacity(s, i), s.levelTargetFloor(i, v.levelCount()));
            int runs = v.level(i).size();
            if (runs > k) {
                score = Math.max(score, (double) runs / k);
            }
            scored.add(new double[] {i, score});
        }
        scored.sort(Comparator.comparingDouble((double[] a) -> a[1]).reversed());
        for (double[] ls : scored) {
            if (ls[1] < 1.0) {
                break;
            }
            Optional<MergeTask> t = pickLevel(v, (int) ls[0], busy, s, k, ls[1]);
            if (t.isPresent()) {
                return t;
            }
        }
        return Optional.empty();
    }

    private static Optional<MergeTask> pickLevel(Version v, int level, Set<Long> busy, MergeSettings s, int k, double score) {
        List<Run> runs = v.level(level);
        if (runs.isEmpty() || anyBusy(runs, busy)) {
            return Optional.empty();
        }
        List<MergeTask.Input> inputs = new ArrayList<>();
        long inputBytes = 0;
        for (Run r : runs) {
            inputs.add(new MergeTask.Input(level, r.id(), r.tables()));
            inputBytes += r.sizeBytes();
        }
        int out = level + 1;
        List<Run> below = out < v.levelCount() ? v.level(out) : List.of();
        boolean joined = false;
        if (!below.isEmpty()) {
            Run newest = below.get(0);
            long share = capacity(s, out) / k;
            if (!anyBusy(List.of(newest), busy) && newest.sizeBytes() + inputBytes <= share) {
                inputs.add(new MergeTask.Input(out, newest.id(), newest.tables()));
                joined = true;
            }
        }
        boolean outIsLast = out >= v.levelCount() - 1;
        boolean nothingOlder = below.isEmpty() || (joined && below.size() == 1);
        String reason = String.format("L%d score %.2f (%d runs, %d bytes; K=%d): %s L%d", level, score, runs.size(),
                v.levelBytes(level), k, joined ? "merge into the newest run of" : "merge into a new run of", out);
        return Optional.of(new MergeTask(inputs, out, MergeTask.NEW_RUN, outIsLast && nothingOlder, score, reason));
    }

    private static boolean anyBusy(List<Run> runs, Set<Long> busy) {
        for (Run r : runs) {
            for (TableMeta t : r.tables()) {
                if (busy.contains(t.fileNumber())) {
                    return true;
                }
            }
        }
        return false;
    }
}
