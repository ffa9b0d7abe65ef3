package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.TableMeta;
import java.util.ArrayList;
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
 *                       empty when the merge installs (leveling)
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

    public long inputBytes() {
        long s = 0;
        for (TableMeta t : allTables()) {
            s += t.sizeBytes();
        }
        return s;
    }
}
