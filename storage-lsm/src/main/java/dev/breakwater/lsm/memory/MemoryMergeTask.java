package dev.breakwater.lsm.memory;

import java.util.ArrayList;
import java.util.List;

/**
 * A memory merge chosen by {@link MemoryMergePicker}: tables of memory level
 * {@code outputLevel - 1} merged with the overlapping tables of {@code outputLevel}, the output
 * (cut into range-partitioned tables by {@link MemorySSTable#build}) replacing both in
 * {@code outputLevel}. A pure description; running it is another class's job. Levels are numbered as
 * in the paper: M1 is 1; level 0 is the active component M0, which is not a memory SSTable, so a task
 * from level 0 (sealing M0) has no {@code upper} tables and the caller adds M0 as the newest input.
 * Memory merges never drop tombstones (older data may be on disk).
 *
 * @param outputLevel  the level receiving the output, >= 1
 * @param upper        the tables taken from {@code outputLevel - 1} (newer; one table for a level
 *                     merge), empty when sealing M0
 * @param lower        the tables of {@code outputLevel} overlapping them (older), in key order; may be
 *                     empty
 * @param score        how overdue the source level was (its bytes over its target; >= 1 means due)
 * @param overlapRatio bytes of {@code lower} over bytes of {@code upper}
 * @param reason       short human-readable explanation, for logs and tests
 */
public record MemoryMergeTask(int outputLevel, List<MemorySSTableMeta> upper, List<MemorySSTableMeta> lower,
                              double score, double overlapRatio, String reason) {

    public MemoryMergeTask {
        upper = List.copyOf(upper);
        lower = List.copyOf(lower);
    }

    /** The level the upper tables come from. */
    public int inputLevel() {
        return outputLevel - 1;
    }

    /** Every input table, newest first: what a newest-first merging cursor takes, in order. */
    public List<MemorySSTableMeta> allTables() {
        List<MemorySSTableMeta> all = new ArrayList<>(upper);
        all.addAll(lower);
        return all;
    }

    public long inputBytes() {
        long s = 0;
        for (MemorySSTableMeta t : allTables()) {
            s += t.bytes();
        }
        return s;
    }
}
