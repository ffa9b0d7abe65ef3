package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.version.L0Groups;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionEdit;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Flushes a tree's sealed memory tables, oldest first, one at a time, on the shared flush pool:
 * writes each into SSTables, syncs them, places them in L0 groups and installs the version edit,
 * then drops the memory table from the snapshot so its pages can return to the pool.
 *
 * <p>L0 back-pressure: at {@code l0SlowdownGroups} groups a flush is delayed a little per extra group;
 * at {@code l0StopGroups} it waits until merges bring L0 below the limit. Both are counted.
 *
 * <p>Thread safety: safe; at most one flush job per tree runs at a time (guarded by this monitor).
 */
final class Flusher {

    private final LsmTree tree;
    /** Guarded by this. */
    private boolean running;
    private volatile boolean shutdown;

    Flusher(LsmTree tree) {
        this.tree = tree;
    }

    /** Starts a flush job unless one is running (it will pick up new sealed tables itself). */
    void schedule() {
        synchronized (this) {
            if (running || shutdown) {
                return;
            }
            running = true;
        }
        tree.resources.flushExecutor().execute(this::run);
    }

    private void run() {
        try {
            while (!shutdown && tree.backgroundError == null) {
                MemoryTable oldest;
                synchronized (tree.stateLock) {
                    if (tree.immutables.isEmpty()) {
                        break;
                    }
                    oldest = tree.immutables.get(tree.immutables.size() - 1);
                }
                flushOne(oldest);
            }
        } catch (Throwable e) {
            tree.backgroundFailure("flush", e);
        } finally {
            synchronized (this) {
                running = false;
                notifyAll();
            }
        }
        // A table sealed after the loop saw an empty list, but before running was cleared, found a
        // job running and did not start one: look again.
        boolean more;
        synchronized (tree.stateLock) {
            more = !tree.immutables.isEmpty();
        }
        if (more && tree.backgroundError == null) {
            schedule();
        }
    }

    private void flushOne(MemoryTable t) throws IOException {
        waitForL0();
        long minLsn = t.minLogLsn() == Long.MAX_VALUE ? 0 : t.minLogLsn();
        long maxLsn = t.maxLogLsn() == Long.MIN_VALUE ? 0 : t.maxLogLsn();
        List<TableMeta> tables;
        try (EntryCursor c = t.component.flushCursor()) {
            tables = TableOutput.write(c, tree.resources.fs(), tree.dir, tree.options.tableOptions(0), tree.resources.io(),
                    IoPurpose.FLUSH, tree.versions::newFileNumber, tree.options.targetTableBytes(), minLsn, maxLsn);
        }
        tree.awaitLogDurable(maxLsn);
        long durable = durableLsnAfter(t, maxLsn);
        tree.versions.logAndApply(v -> placementEdit(v, tables, durable));
        synchronized (tree.stateLock) {
            tree.immutables.remove(t);
            tree.flushedSeq = Math.max(tree.flushedSeq, t.component.maxLsn());
            tree.installSuperVersion();
        }
        long bytes = 0;
        for (TableMeta m : tables) {
            bytes += m.sizeBytes();
        }
        tree.stats.flushes.increment();
        tree.stats.bytesFlushed.add(bytes);
        tree.stats.bytesFlushedBy[t.cause.ordinal()].add(bytes);
        tree.merges.maybeSchedule();
    }

    /**
     * The LSN below which every write is on disk once {@code t} is: one below the oldest LSN still
     * only in memory (other memory tables, or writes the owner has not applied yet).
     */
    private long durableLsnAfter(MemoryTable t, long maxLsn) {
        long oldest = tree.oldestUnappliedLsn();
        synchronized (tree.stateLock) {
            for (MemoryTable other : tree.memoryTablesLocked()) {
                if (other != t) {
                    oldest = Math.min(oldest, other.minLogLsn());
                }
            }
        }
        return oldest == Long.MAX_VALUE ? maxLsn : oldest - 1;
    }

    /** The flushed tables join L0 groups (one new group shared by those that need it). */
    private VersionEdit placementEdit(Version v, List<TableMeta> tables, long durable) {
        VersionEdit edit = new VersionEdit().setLastFlushedLsn(durable);
        long newGroup = -1;
        for (TableMeta m : tables) {
            long group = L0Groups.groupFor(v.level(0), m);
            if (group == L0Groups.NEW_GROUP) {
                if (newGroup < 0) {
                    newGroup = tree.versions.newRunId();
                    edit.newRun(0, newGroup, true);
                }
                group = newGroup;
            }
            edit.addTable(0, group, m);
        }
        return edit;
    }

    private void waitForL0() throws IOException {
        LsmTreeOptions o = tree.options;
        int groups = tree.versions.current().level(0).size();
        if (groups >= o.l0StopGroups()) {
            tree.stats.flushStops.increment();
            long start = System.nanoTime();
            tree.merges.awaitL0Below(o.l0StopGroups());
            tree.stats.flushStallNanos.add(System.nanoTime() - start);
        } else if (groups >= o.l0SlowdownGroups()) {
            tree.stats.flushSlowdowns.increment();
            long start = System.nanoTime();
            try {
                TimeUnit.MILLISECONDS.sleep(groups - o.l0SlowdownGroups() + 1L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("flush of tree " + tree.name + " interrupted");
            }
            tree.stats.flushStallNanos.add(System.nanoTime() - start);
        }
    }

    /** Waits until no flush runs and no sealed table waits (or a background failure). */
    void awaitIdle() throws IOException {
        while (true) {
            synchronized (tree.stateLock) {
                if (tree.immutables.isEmpty()) {
                    break;
                }
            }
            if (tree.backgroundError != null || shutdown) {
                break;
            }
            synchronized (this) {
                if (!running) {
                    schedule0();
                }
                try {
                    wait(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("waiting for flush of tree " + tree.name);
                }
            }
        }
        synchronized (this) {
            while (running) {
                try {
                    wait(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("waiting for flush of tree " + tree.name);
                }
            }
        }
    }

    /** Requires: this monitor held and no job running. */
    private void schedule0() {
        if (!shutdown) {
            running = true;
            tree.resources.flushExecutor().execute(this::run);
        }
    }

    /** Stops scheduling and waits for the running job. */
    void shutdown() {
        shutdown = true;
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
}
