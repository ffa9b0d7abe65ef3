package dev.breakwater.lsm.merge;

/**
 * The knobs a merge picker reads.
 *
 * @param sizeRatio          T: each level is T times larger than the one above (leveling), or holds
 *                           T runs before they merge into the next level (tiering)
 * @param l0MergeGroups      L0 groups at which L0 merges into L1 become due (score 1.0); for leveling,
 *                           the shallowest L0 that may merge (see {@code l0MaxGroups})
 * @param writeMemoryBytes   the write memory this tree currently holds ({@code a·M_w}); level sizes
 *                           are derived from it (paper 000, section 4.1.3)
 * @param targetTableBytes   merge outputs are cut into SSTables of about this size
 * @param l0MergeTables      L0 tables (over all groups) at which an L0 merge becomes due whatever the
 *                           group count (leveling; 0: no table-count trigger)
 * @param l0MaxGroups        leveling: the deepest L0 (in groups) an L0 merge waits for so that it
 *                           takes a batch large enough to pay for the rewrite of the level below; at
 *                           {@code l0MergeGroups} groups the merge is due only once L0 holds at least
 *                           {@link LevelingPicker#L0_OVERLAP_RATIO its share} of the bytes it would
 *                           rewrite below, at {@code l0MaxGroups} it is due whatever they are. Equal to
 *                           {@code l0MergeGroups}: merge at {@code l0MergeGroups} groups, as before.
 */
public record MergeSettings(int sizeRatio, int l0MergeGroups, long writeMemoryBytes, long targetTableBytes, int l0MergeTables,
                            int l0MaxGroups) {

    /** Settings without a table-count trigger, merging L0 at {@code l0MergeGroups} groups. */
    public MergeSettings(int sizeRatio, int l0MergeGroups, long writeMemoryBytes, long targetTableBytes) {
        this(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, 0);
    }

    /** Settings merging L0 at {@code l0MergeGroups} groups whatever the level below holds. */
    public MergeSettings(int sizeRatio, int l0MergeGroups, long writeMemoryBytes, long targetTableBytes, int l0MergeTables) {
        this(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, l0MergeGroups);
    }

    public MergeSettings {
        if (sizeRatio < 2) {
            throw new IllegalArgumentException("size ratio must be >= 2, got " + sizeRatio);
        }
        if (l0MergeGroups < 1) {
            throw new IllegalArgumentException("L0 merge trigger must be >= 1 group, got " + l0MergeGroups);
        }
        if (writeMemoryBytes <= 0 || targetTableBytes <= 0) {
            throw new IllegalArgumentException("write memory and target table size must be positive");
        }
        if (l0MergeTables < 0) {
            throw new IllegalArgumentException("L0 table trigger must be >= 0 (0: off), got " + l0MergeTables);
        }
        if (l0MaxGroups < l0MergeGroups) {
            throw new IllegalArgumentException("l0MaxGroups (" + l0MaxGroups + ") must be >= l0MergeGroups (" + l0MergeGroups + ")");
        }
    }

    /** A copy with a different write-memory size (the memory manager moves it at run time). */
    public MergeSettings withWriteMemory(long bytes) {
        return new MergeSettings(sizeRatio, l0MergeGroups, bytes, targetTableBytes, l0MergeTables, l0MaxGroups);
    }

    /** A copy whose L0 merges wait for up to {@code groups} groups (see {@link #l0MaxGroups()}). */
    public MergeSettings withL0MaxGroups(int groups) {
        return new MergeSettings(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, groups);
    }
}
