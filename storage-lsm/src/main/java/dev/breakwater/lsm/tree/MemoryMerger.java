package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.memory.MemoryMergePicker;
import dev.breakwater.lsm.memory.MemoryMergeSettings;
import dev.breakwater.lsm.memory.MemoryMergeTask;
import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.RecordCursor;
import dev.breakwater.lsm.memory.RecordMerger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A partitioned tree's memory-merge worker (paper 000 §4.1.1): runs the due merges between memory
 * levels M{@code i} → M{@code i+1} ({@code i ≥ 1}; greedy minimum overlap ratio, size ratio {@link MemoryMergeSettings#DEFAULT_SIZE_RATIO}, see
 * {@link MemoryMergePicker}) on the shared memory-merge pool, so they neither hold up the tree's
 * seals and flushes nor take the flush threads from other trees.
 *
 * <p>Coordination with the {@link Flusher}: every memory SSTable a merge or a flush reads is listed
 * in {@link LsmTree#busyMemoryTables} (under the tree's state lock) from the pick until the result is
 * installed; pickers skip busy tables, so no table is taken by two jobs, and the memory levels are
 * only ever changed by replacing the tables a job took. When a merge ends it wakes the flusher, which
 * may have been waiting for one of its tables.
 *
 * <p>A merge that finds the write-memory pool empty gives up (nothing leaks) and waits for the next
 * disk flush of the tree ({@link #wakeAfterFlush}) before trying again.
 *
 * <p>Thread safety: safe; at most one job per tree runs at a time (guarded by this monitor).
 */
final class MemoryMerger {

    /** Merges one job does before it yields its thread to other trees. */
    private static final int MERGES_PER_JOB = 2;

    private final LsmTree tree;
    /** Guarded by this. */
    private boolean running;
    private volatile boolean shutdown;
    /** The last merge ran out of pool pages: wait for a flush. */
    private volatile boolean blockedByMemory;

    MemoryMerger(LsmTree tree) {
        this.tree = tree;
    }

    /** Starts a job unless one is running or merges wait for memory; the job looks for due merges itself. */
    void schedule() {
        if (blockedByMemory || !tree.options.partitioned()) {
            return;
        }
        synchronized (this) {
            if (running || shutdown) {
                return;
            }
            running = true;
        }
        tree.resources.memoryMergeExecutor().execute(this::run);
    }

    /** A disk flush freed pool pages: merges may try again. */
    void wakeAfterFlush() {
        blockedByMemory = false;
        schedule();
    }

    private void run() {
        boolean more = false;
        try {
            for (int i = 0; i < MERGES_PER_JOB && !shutdown && tree.backgroundError == null; i++) {
                more = mergeOnce();
                if (!more) {
                    break;
                }
            }
        } catch (Throwable e) {
            more = false;
            tree.backgroundFailure("memory merge", e);
        } finally {
            synchronized (this) {
                running = false;
                notifyAll();
            }
        }
        if (more) {
            schedule(); // back to the end of the pool's queue
        }
    }

    /** Runs the due merge, if any; false when none is due (or it could not get memory). */
    private boolean mergeOnce() throws IOException {
        List<MemorySSTable> inputs = new ArrayList<>();
        MemoryMergeTask task;
        synchronized (tree.stateLock) {
            MemoryLevels levels = tree.memoryLevels;
            Optional<MemoryMergeTask> picked = MemoryMergePicker.pick(levels.metas(), levels.firstLevelRuns(), tree.busyMemoryTables,
                    tree.memoryMergeSettings());
            if (picked.isEmpty()) {
                return false;
            }
            task = picked.get();
            for (var m : task.allTables()) {
                inputs.add(levels.byId(m.id()));
                tree.busyMemoryTables.add(m.id());
            }
        }
        try {
            // The upper table (newer; from M1, its oldest run) and the overlapping lower ones (older, disjoint): two runs.
            int upper = task.upper().size();
            RecordCursor merged = new RecordMerger(List.of(MemorySSTable.records(inputs.subList(0, upper)),
                    MemorySSTable.records(inputs.subList(upper, inputs.size()))));
            List<MemorySSTable> outputs = MemorySSTables.build(tree, merged, MemorySSTables.minLogLsn(inputs),
                    MemorySSTables.maxLogLsn(inputs));
            if (outputs == null) {
                blockedByMemory = true;
                return false;
            }
            synchronized (tree.stateLock) {
                tree.memoryLevels = tree.memoryLevels.replace(inputs, task.outputLevel(), outputs);
                tree.installSuperVersion();
            }
            inputs.forEach(MemorySSTable::unref);
            tree.stats.memoryMerges.increment();
            tree.stats.memoryMergeBytes.add(task.inputBytes());
            return true;
        } finally {
            synchronized (tree.stateLock) {
                for (MemorySSTable m : inputs) {
                    tree.busyMemoryTables.remove(m.id());
                }
            }
            tree.flusher.memoryTablesReleased();
        }
    }

    /** Waits until no merge job runs. */
    void awaitIdle() {
        synchronized (this) {
            while (running) {
                try {
                    wait(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Stops scheduling and waits for the running job. */
    void shutdown() {
        shutdown = true;
        awaitIdle();
    }
}
