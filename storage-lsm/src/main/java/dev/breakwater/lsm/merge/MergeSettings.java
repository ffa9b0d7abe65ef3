package dev.breakwater.lsm.merge;

import java.util.Arrays;
import java.util.Objects;

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
 * @param heldLevelBytes     the shape a tree's levels are held at while its write-memory share is a
 *                           guess (just registered, see {@link #levelTargetFloor}): element {@code i}
 *                           is what level {@code i} held then, over all levels {@code 0..N} of that
 *                           version; empty (the usual case) when nothing is held. Of L0's
 *                           triggers only the byte term reads it ({@link #l0VolumeFloor}); the group
 *                           and table counts never do.
 */
public record MergeSettings(int sizeRatio, int l0MergeGroups, long writeMemoryBytes, long targetTableBytes, int l0MergeTables,
                            int l0MaxGroups, long[] heldLevelBytes) {

    private static final long[] NONE = new long[0];

    /** Settings holding no level shape (see {@link #heldLevelBytes}). */
    public MergeSettings(int sizeRatio, int l0MergeGroups, long writeMemoryBytes, long targetTableBytes, int l0MergeTables,
                         int l0MaxGroups) {
        this(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, l0MaxGroups, NONE);
    }

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
        heldLevelBytes = heldLevelBytes == null || heldLevelBytes.length == 0 ? NONE : heldLevelBytes.clone();
    }

    /** A copy of the held shape (see {@link #heldLevelBytes}); empty when nothing is held. */
    @Override
    public long[] heldLevelBytes() {
        return heldLevelBytes.clone();
    }

    /**
     * The least target level {@code level >= 1} of a tree with {@code levelCount} levels (L0
     * included) may have under these settings: one byte more than the level held when its shape was
     * held ({@link #withHeldLevels}), so a level that has not grown since scores below 1 and does
     * not merge; 0 (no floor) for L0, when nothing is held, or when the level count is no longer the
     * held one (levels were renumbered, so the held sizes describe other levels).
     *
     * <p>Why: right after a reopen a tree's write-memory share is the registration guess, usually
     * far smaller than the share its levels were sized with, and targets computed from the guess
     * put levels that fitted before over target: a read-only YCSB phase merged 0.8–1.4 GB
     * (issue 13, ninth session). The shape on disk is what the tree's real share made; it stays the
     * least target until the share is an average of writes again. A level that grows past it (an L0
     * merge landed in it) merges until it is back at that size or under its computed target,
     * whichever is larger.
     */
    public long levelTargetFloor(int level, int levelCount) {
        if (level < 1 || heldLevelBytes.length != levelCount || level >= levelCount || heldLevelBytes[level] == 0) {
            return 0;
        }
        return heldLevelBytes[level] + 1;
    }

    /**
     * The least bytes L0 must exceed to be due by volume ({@code l0MergeGroups·M}): one byte more
     * than L0 held when the shape was held, 0 when nothing is held or L0 was empty. An L0 that
     * has not grown since the share became a guess is not due by bytes on the guess alone (measured,
     * tenth session: a 39 MB L0 left by a write phase's settle, not due at the real share of about
     * 22 MB, was due at the 4 MB guess after the reopen, and its merge grew L1 past its held size,
     * whose merge into L2 then wrote 606 MB in a read-only phase). The first flush after the reopen
     * grows L0, and from then on the byte term is the share's, guess or not. The group-count
     * triggers, which keep flushes from reaching the slowdown, never read the held shape.
     */
    public long l0VolumeFloor() {
        return heldLevelBytes.length == 0 || heldLevelBytes[0] == 0 ? 0 : heldLevelBytes[0] + 1;
    }

    /** A copy holding levels at {@code levelBytes} ({@link #heldLevelBytes}; null or empty: none held). */
    public MergeSettings withHeldLevels(long[] levelBytes) {
        return new MergeSettings(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, l0MaxGroups, levelBytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MergeSettings m && sizeRatio == m.sizeRatio && l0MergeGroups == m.l0MergeGroups
                && writeMemoryBytes == m.writeMemoryBytes && targetTableBytes == m.targetTableBytes
                && l0MergeTables == m.l0MergeTables && l0MaxGroups == m.l0MaxGroups && Arrays.equals(heldLevelBytes, m.heldLevelBytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, l0MaxGroups)
                * 31 + Arrays.hashCode(heldLevelBytes);
    }

    @Override
    public String toString() {
        return "MergeSettings[sizeRatio=" + sizeRatio + ", l0MergeGroups=" + l0MergeGroups + ", writeMemoryBytes=" + writeMemoryBytes
                + ", targetTableBytes=" + targetTableBytes + ", l0MergeTables=" + l0MergeTables + ", l0MaxGroups=" + l0MaxGroups
                + ", heldLevelBytes=" + Arrays.toString(heldLevelBytes) + "]";
    }

    /** A copy with a different write-memory size (the memory manager moves it at run time). */
    public MergeSettings withWriteMemory(long bytes) {
        return new MergeSettings(sizeRatio, l0MergeGroups, bytes, targetTableBytes, l0MergeTables, l0MaxGroups, heldLevelBytes);
    }

    /** A copy whose L0 merges wait for up to {@code groups} groups (see {@link #l0MaxGroups()}). */
    public MergeSettings withL0MaxGroups(int groups) {
        return new MergeSettings(sizeRatio, l0MergeGroups, writeMemoryBytes, targetTableBytes, l0MergeTables, groups, heldLevelBytes);
    }
}
