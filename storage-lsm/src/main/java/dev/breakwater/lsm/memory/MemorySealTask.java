package dev.breakwater.lsm.memory;

import java.util.List;

/**
 * How a seal puts the active component M0 into M1, as {@link MemoryMergePicker#pickSeal} chose it. A
 * pure description; the flusher runs it.
 *
 * @param newRun       true: M0's records alone become a new sorted run, the newest of M1, and no M1
 *                     table is read ({@code lower} is empty). False: M0 is merged with {@code lower}
 *                     (M0 newest) and the output replaces {@code lower} in M1's newest run; an empty
 *                     {@code lower} means M0 overlaps no M1 table and its tables join that run as
 *                     they are
 * @param lower        the M1 tables merged with M0, newest run first and in key order within a run
 * @param overlapRatio bytes of {@code lower} over M0's bytes
 * @param reason       short human-readable explanation, for logs and tests
 */
public record MemorySealTask(boolean newRun, List<MemorySSTableMeta> lower, double overlapRatio, String reason) {

    public MemorySealTask {
        lower = List.copyOf(lower);
        if (newRun && !lower.isEmpty()) {
            throw new IllegalArgumentException("a seal into a new run reads no M1 table");
        }
    }
}
