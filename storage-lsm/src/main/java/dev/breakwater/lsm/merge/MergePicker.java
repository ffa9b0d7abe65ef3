package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Version;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the next merge, if any, as a pure function of a snapshot of the tree (Pebble's
 * {@code compactionPicker}), so it can be tested from small scenario descriptions.
 *
 * <p>Implementations must never pick a table in {@code busy} (being merged already) and must pick
 * inputs such that the result preserves the tree's shadowing order.
 */
public interface MergePicker {

    /**
     * @param version  the current version
     * @param busy     file numbers of tables taking part in running merges
     * @param settings the current knobs
     */
    Optional<MergeTask> pick(Version version, Set<Long> busy, MergeSettings settings);

    /**
     * A structural change the policy wants (such as adding an empty L1 when the tree outgrew its
     * write memory), applied only while no merge runs because it renumbers levels; empty if none.
     */
    default Optional<LevelChange> levelChange(Version version, MergeSettings settings) {
        return Optional.empty();
    }

    /**
     * True if the scheduler should start no new merge, so that the running ones end and it can apply
     * the due {@link #levelChange} (which it applies only while no merge runs): a change is due and L0
     * has fewer than {@code l0MaxGroups} groups. Without the hold, under a steady load L0 is due again
     * each time a merge ends, the change waits for the load to stop, and every L0 merge meanwhile
     * rewrites an ever larger level (measured, issue 18: one 81 MB level, write amplification 8.6
     * against 5.1, in 5 of 17 leveling runs). The bound keeps merges going when the change cannot be
     * applied: from {@code l0MaxGroups} groups L0 merges again, below the flush slowdown, so flushes
     * never wait for a level change.
     */
    default boolean levelChangeHoldsMerges(Version version, MergeSettings settings) {
        return version.level(0).size() < settings.l0MaxGroups() && levelChange(version, settings).isPresent();
    }

    /**
     * The smallest flush worth making into this tree now: a flush smaller than this becomes an L0
     * group that makes L0 merge before it holds the batch its merge into the level below should take.
     * A flush policy choosing between trees treats memory below it as not yet worth flushing
     * ({@code WriteMemoryManager}'s optimal policy). 0 (the default): any flush is fine.
     */
    default long smallestUsefulFlushBytes(Version version, MergeSettings settings) {
        return 0;
    }

    /**
     * Insert an empty level at {@code index} (all levels from there move down by one), or, with
     * {@code remove}, remove the empty level at {@code index} (those below move up).
     */
    record LevelChange(int index, boolean remove, String reason) {
    }
}
