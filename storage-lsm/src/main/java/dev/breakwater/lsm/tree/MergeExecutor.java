package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import dev.breakwater.lsm.merge.MergeTask;
import dev.breakwater.lsm.merge.TrivialMove;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes one picked merge: merge-sorts the input tables (newest run first, so the newest version
 * of each key wins; tombstones dropped when the task allows), writes the output SSTables with
 * purpose MERGE, then installs one version edit that removes the inputs and adds the outputs to the
 * output run. The inputs stay readable until no snapshot refers to them. The bytes written are added
 * to the tree's merge counters (total and output level) batch by batch as they reach the files, so
 * a tuning cycle shorter than a merge sees the merge's work in the cycle that did it; merges and
 * bytes read are counted when the merge installs. A task that is a {@link TrivialMove} is done by
 * one version edit instead, counted as a move, not a merge. Inputs are read with read-ahead, not
 * through the buffer cache ({@code SSTableReader.sequentialCursor}): each input's leaves in chunks
 * of up to {@link #READ_AHEAD_MAX_BYTES}, {@link #READ_AHEAD_BUDGET_BYTES} of off-heap memory per
 * merge in all, freed when the merge's cursors close.
 *
 * <p>Thread safety: stateless apart from the tree; each call runs one task on a merge thread.
 */
final class MergeExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(MergeExecutor.class);
    /**
     * Off-heap read-ahead one merge may hold over all its inputs. Measured (issue 13, disk-bound YCSB
     * load with direct I/O): one 16 KiB page per read kept the merge thread in single-page reads 85%
     * of its time, and the load waited on merges; RocksDB's compactions read ahead 2 MiB per input.
     */
    static final long READ_AHEAD_BUDGET_BYTES = 8L << 20;
    /** The most read-ahead one input gets (512 KiB: 32 pages of 16 KiB in one read). */
    static final long READ_AHEAD_MAX_BYTES = 512L << 10;

    private final LsmTree tree;

    MergeExecutor(LsmTree tree) {
        this.tree = tree;
    }

    /**
     * Pages each input's read-ahead reads at once: {@link #READ_AHEAD_BUDGET_BYTES} shared by the
     * merge's {@code inputs} tables, at most {@link #READ_AHEAD_MAX_BYTES} each, at least one page.
     */
    static int readAheadPages(int inputs, int pageSize) {
        long each = Math.min(READ_AHEAD_MAX_BYTES, READ_AHEAD_BUDGET_BYTES / Math.max(1, inputs));
        return (int) Math.max(1, each / pageSize);
    }

    void execute(MergeTask task) throws IOException {
        if (TrivialMove.applies(task)) {
            move(task);
            return;
        }
        List<EntryCursor> sources = new ArrayList<>();
        long minLsn = Long.MAX_VALUE;
        long maxLsn = Long.MIN_VALUE;
        long entries = 0;
        int readAhead = readAheadPages(task.allTables().size(), tree.options.pageSize());
        MergingCursor merged;
        try {
            for (MergeTask.Input in : task.inputs()) {
                for (TableMeta t : in.tables()) {
                    entries += t.entries();
                    sources.add(tree.versions.reader(t.fileNumber()).sequentialCursor(IoPurpose.MERGE, readAhead));
                    minLsn = Math.min(minLsn, t.minLsn());
                    maxLsn = Math.max(maxLsn, t.maxLsn());
                }
            }
            merged = new MergingCursor(sources, task.dropTombstones());
        } catch (IOException | RuntimeException e) {
            try {
                EntryCursor.closeAll(sources.toArray(EntryCursor[]::new)); // each holds its read-ahead memory
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        List<TableMeta> outputs;
        LongAdder levelBytes = tree.stats.mergeBytesWrittenTo(task.outputLevel());
        LongConsumer written = bytes -> {
            tree.stats.mergeBytesWritten.add(bytes);
            levelBytes.add(bytes);
        };
        try (merged) {
            outputs = TableOutput.write(merged, tree.resources.fs(), tree.dir, tree.tableOptions(task.outputLevel(), entries, task.inputs()), tree.resources.io(),
                    IoPurpose.MERGE, written, tree.versions::newFileNumber, tree.options.targetTableBytes(), minLsn, maxLsn);
        }
        tree.versions.logAndApply(v -> installEdit(v, task, outputs), IoPurpose.MERGE);
        synchronized (tree.stateLock) {
            tree.installSuperVersion();
        }
        tree.stats.merges.increment();
        tree.stats.mergeBytesRead.add(task.inputBytes());
        if (LOG.isDebugEnabled()) {
            long out = 0;
            for (TableMeta t : outputs) {
                out += t.sizeBytes();
            }
            LOG.debug("tree {}: merged {} B into L{} ({} B written; share {} B; levels {}): {}", tree.name, task.inputBytes(),
                    task.outputLevel(), out, tree.mergeSettings().writeMemoryBytes(), levelSizes(tree.versions.current()), task.reason());
        }
    }

    /** Each level's bytes, for the debug line above. */
    private static String levelSizes(Version v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.levelCount(); i++) {
            b.append(i == 0 ? "" : " ").append(v.levelBytes(i));
        }
        return b.append(']').toString();
    }

    /**
     * A trivial move: one version edit re-parents the table into the output run; nothing is read or
     * written but the manifest record, so the edit is the whole operation and a crash leaves the
     * table either where it was or where it went.
     */
    private void move(MergeTask task) throws IOException {
        TableMeta t = TrivialMove.table(task);
        tree.versions.logAndApply(v -> installEdit(v, task, List.of(t)), IoPurpose.MERGE);
        synchronized (tree.stateLock) {
            tree.installSuperVersion();
        }
        tree.stats.trivialMoves.increment();
        LOG.debug("tree {}: moved table #{} ({} B) from L{} to L{} without rewriting it", tree.name, t.fileNumber(), t.sizeBytes(),
                task.inputs().get(0).level(), task.outputLevel());
    }

    private VersionEdit installEdit(Version v, MergeTask task, List<TableMeta> outputs) {
        VersionEdit edit = new VersionEdit();
        for (MergeTask.Input in : task.inputs()) {
            for (TableMeta t : in.tables()) {
                edit.removeTable(in.level(), in.runId(), t);
            }
        }
        int out = task.outputLevel();
        if (out >= v.levelCount()) {
            edit.insertLevel(v.levelCount());
        }
        long runId;
        if (task.outputRunId() == MergeTask.LEVEL_RUN && out < v.levelCount() && !v.level(out).isEmpty()) {
            runId = v.level(out).get(0).id();
        } else {
            runId = tree.versions.newRunId();
            edit.newRun(out, runId, task.outputRunId() != MergeTask.OLDEST_RUN);
        }
        for (TableMeta m : outputs) {
            edit.addTable(out, runId, m);
        }
        return edit;
    }

}
