package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.TableMeta;

/**
 * Recognizes a picked merge that needs no rewrite (LevelDB's trivial move): one input table and
 * nothing else, going to a deeper level. Pickers include in a merge every table of the levels
 * between the input and the output (output level included) that overlaps it, and every older L0
 * table that overlaps it; a task with a single table therefore overlaps nothing there, and the
 * table can be re-parented into the output run by one version edit (remove it from its run, add the
 * same table to the output run) without reading or writing it.
 *
 * <p>What a move keeps that a rewrite would drop: tombstones of a table moved into the last level
 * stay (they shadow nothing there, so reads are unaffected; a later merge drops them), and the
 * table keeps the Bloom filter sized for the level it was written to.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class TrivialMove {

    private TrivialMove() {
    }

    /** True if {@code task} can be done by re-parenting its only table into the output level. */
    public static boolean applies(MergeTask task) {
        if (task.inputs().size() != 1) {
            return false;
        }
        MergeTask.Input in = task.inputs().get(0);
        return in.tables().size() == 1 && in.level() < task.outputLevel();
    }

    /** The table a move re-parents. Requires: {@link #applies} is true. */
    public static TableMeta table(MergeTask task) {
        return task.inputs().get(0).tables().get(0);
    }
}
