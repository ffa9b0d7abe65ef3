package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.TableMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A merge chosen by a {@link MergePicker} (Pebble's {@code pickedCompaction}): which tables of which
 * runs to merge, and where the output goes. A pure description; executing it is another class's job.
 *
 * @param inputs         the tables to merge, grouped by run, newest run first (this order decides
 *                       which version of a key wins)
 * @param outputLevel    the level that receives the output
 * @param outputRunId    {@link #NEW_RUN}: a new run at the newest end of the output level (tiering);
 *                       {@link #LEVEL_RUN}: the output level's single run, created if the level is
 *                       empty when the merge installs (leveling); {@link #OLDEST_RUN}: a new run at
 *                       the oldest end of the output level (an L0 merge of the oldest L0 groups into
 *                       one, {@link L0IntraMerge})
 * @param dropTombstones true if no older data can exist below the output, so tombstones can go
 * @param score          how overdue the merge was (>= 1 means due)
 * @param reason         a short human-readable explanation, for logs and tests
 */
public record MergeTask(List<Input> inputs, int outputLevel, long outputRunId, boolean dropTombstones,
                        double score, String reason) {

    /** Output goes to a new run, the newest of the output level. */
    public static final long NEW_RUN = -1;
    /** Output goes to the output level's only run (leveling), created when absent. */
    public static final long LEVEL_RUN = -2;
    /**
     * Output goes to a new run, the oldest of the output level. Only correct when the inputs are
     * the oldest runs of that level: then nothing in the level is older than the output.
     */
    public static final long OLDEST_RUN = -3;

    /** True if the output makes a run of its own ({@link #NEW_RUN} or {@link #OLDEST_RUN}). */
    public boolean outputIsOwnRun() {
        return outputRunId == NEW_RUN || outputRunId == OLDEST_RUN;
    }

    /** The tables taken from one run. */
    public record Input(int level, long runId, List<TableMeta> tables) {
    }

    /** Every input table. */
    public List<TableMeta> allTables() {
        List<TableMeta> all = new ArrayList<>();
        for (Input in : inputs) {
            all.addAll(in.tables());
        }
        return all;
    }

    /**
     * True if this merge and {@code other} may not run at once because their outputs could overlap
     * within one run: both write into the same run of the same level (not {@link #NEW_RUN} or
     * {@link #OLDEST_RUN}, which make a run of their own) and the key hulls of their inputs, which bound their outputs,
     * intersect. Disjoint input tables are not enough: a merge whose inputs have a gap between them
     * writes across that gap.
     */
    public boolean outputCollidesWith(MergeTask other) {
        if (outputIsOwnRun() || other.outputRunId != outputRunId || other.outputLevel != outputLevel) {
            return false;
        }
        byte[][] a = keyHull();
        byte[][] b = other.keyHull();
        return a[0] != null && b[0] != null
                && Arrays.compareUnsigned(a[0], b[1]) <= 0 && Arrays.compareUnsigned(b[0], a[1]) <= 0;
    }

    /** The smallest and largest key of the input tables ({@code null}s if there are none). */
    public byte[][] keyHull() {
        byte[] lo = null;
        byte[] hi = null;
        for (TableMeta m : allTables()) {
            if (lo == null || Arrays.compareUnsigned(m.smallest(), lo) < 0) {
                lo = m.smallest();
            }
            if (hi == null || Arrays.compareUnsigned(m.largest(), hi) > 0) {
                hi = m.largest();
            }
        }
        return new byte[][] {lo, hi};
    }

    public long inputBytes() {
        long s = 0;
        for (TableMeta t : allTables()) {
            s += t.sizeBytes();
        }
        return s;
    }
}
