package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.merge.Coalescing;
import dev.breakwater.lsm.merge.LevelingPicker;
import dev.breakwater.lsm.merge.MergePicker;
import dev.breakwater.lsm.merge.MergeSettings;
import dev.breakwater.lsm.merge.MergeTask;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionEdit;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedules a tree's merges on the shared merge pool: asks the picker (a pure function of the
 * version and the set of busy tables) for work whenever the tree changes, marks the chosen tables
 * busy and hands the task to the {@link MergeExecutor}. With leveling, each pick passes through
 * {@link Coalescing}, which grows small tables and coalesces non-overlapping L0 tables. Level changes that renumber levels (adding
 * an empty L1) are applied only while no merge runs; while one is due (and the tree's level count is
 * settled) no new merge starts ({@link MergePicker#levelChangeHoldsMerges}), so it is applied as soon
 * as the running merges end.
 *
 * <p>Thread safety: safe; scheduling state is guarded by this monitor. Lock order: this monitor,
 * then the tree's state lock, then the version set's monitor.
 */
final class MergeScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(MergeScheduler.class);
    /** Merges of one tree that may run at once. */
    private static final int MAX_CONCURRENT = 2;

    private final LsmTree tree;
    private final MergePicker picker;
    private final MergeExecutor executor;
    /** File numbers of tables in running merges. Guarded by this. */
    private final Set<Long> busy = new HashSet<>();
    /** The running merges, whose outputs reserve their key hull in their output run. Guarded by this. */
    private final List<MergeTask> runningTasks = new ArrayList<>();
    /** Guarded by this. */
    private int running;
    private volatile boolean shutdown;

    MergeScheduler(LsmTree tree, MergePicker picker) {
        this.tree = tree;
        this.picker = picker;
        this.executor = new MergeExecutor(tree);
    }

    /** Starts every merge that is due and can run now. */
    synchronized void maybeSchedule() {
        boolean changedLevels = false; // at most one level change per call: never loop on a policy that flips
        while (!shutdown && tree.backgroundError == null && running < MAX_CONCURRENT) {
            Version v = tree.versions.current();
            // one decision reads one share and one held shape (both may move between calls)
            MergeSettings settings = tree.mergeSettings();
            if (!changedLevels && tree.levelCountSettled() && picker.levelChangeHoldsMerges(v, settings)) {
                // A due level change goes before the next merge: wait for the running ones to end.
                if (running > 0) {
                    notifyAll();
                    return;
                }
                if (applyLevelChange(v)) {
                    changedLevels = true;
                    continue;
                }
            }
            Optional<MergeTask> task = picker.pick(v, busy, settings);
            if (picker instanceof LevelingPicker leveling) { // trivial moves and coalescing of non-overlapping tables
                task = Coalescing.refine(leveling, task, v, busy, settings);
            }
            if (task.isEmpty()) {
                if (running == 0 && !changedLevels && applyLevelChange(v)) {
                    changedLevels = true;
                    continue;
                }
                notifyAll();
                return;
            }
            MergeTask t = task.get();
            if (outputCollides(t)) {
                // Its output would land in a key range a running merge is writing into the same run:
                // wait for that merge (it reschedules when it ends) rather than build overlapping tables.
                notifyAll();
                return;
            }
            for (TableMeta m : t.allTables()) {
                busy.add(m.fileNumber());
            }
            runningTasks.add(t);
            running++;
            if (LOG.isDebugEnabled()) {
                LOG.debug("tree {}: merge of {} B into L{} ({} B in L0): {}", tree.name, t.inputBytes(), t.outputLevel(),
                        v.levelBytes(0), t.reason());
            }
            tree.resources.mergeExecutor().execute(() -> execute(t));
        }
        notifyAll();
    }

    /** True if {@code t}'s output could overlap a running merge's ({@link MergeTask#outputCollidesWith}). Requires: this monitor held. */
    private boolean outputCollides(MergeTask t) {
        for (MergeTask r : runningTasks) {
            if (t.outputCollidesWith(r)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds or retires a level if the picker says so and the tree's write-memory share is settled
     * (a just-opened tree's share is a guess; see {@link LsmTree#setLevelCountSettled}).
     * Requires: this monitor held and no merge running.
     */
    private boolean applyLevelChange(Version v) {
        if (!tree.levelCountSettled()) {
            return false;
        }
        Optional<MergePicker.LevelChange> change = picker.levelChange(v, tree.mergeSettings());
        if (change.isEmpty()) {
            return false;
        }
        try {
            MergePicker.LevelChange c = change.get();
            tree.versions.logAndApply(c.remove() ? new VersionEdit().removeLevel(c.index()) : new VersionEdit().insertLevel(c.index()), IoPurpose.MERGE);
            synchronized (tree.stateLock) {
                tree.installSuperVersion();
            }
            LOG.info("tree {}: {}", tree.name, change.get().reason());
            return true;
        } catch (IOException | RuntimeException e) {
            tree.backgroundFailure("level change", e);
            return false;
        }
    }

    private void execute(MergeTask task) {
        try {
            if (!shutdown) {
                executor.execute(task);
            }
        } catch (Throwable e) {
            tree.backgroundFailure("merge (" + task.reason() + ")", e);
        } finally {
            synchronized (this) {
                for (TableMeta m : task.allTables()) {
                    busy.remove(m.fileNumber());
                }
                runningTasks.remove(task);
                running--;
                notifyAll();
            }
        }
        maybeSchedule();
    }

    /** Waits until L0 has fewer than {@code groups} groups, the tree fails, or it shuts down. */
    synchronized void awaitL0Below(int groups) throws IOException {
        while (!shutdown && tree.backgroundError == null && tree.versions.current().level(0).size() >= groups) {
            maybeScheduleLocked();
            try {
                wait(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("flush of tree " + tree.name + " interrupted while L0 is full");
            }
        }
    }

    /** Waits until no merge runs and none is due. */
    synchronized void awaitQuiescent() throws IOException {
        while (!shutdown && tree.backgroundError == null) {
            maybeScheduleLocked();
            if (running == 0) {
                return;
            }
            try {
                wait(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("waiting for merges of tree " + tree.name);
            }
        }
    }

    private void maybeScheduleLocked() {
        maybeSchedule(); // re-entrant: this monitor is already held
    }

    /** Stops scheduling and waits for running merges. */
    synchronized void shutdown() {
        shutdown = true;
        while (running > 0) {
            try {
                wait(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
