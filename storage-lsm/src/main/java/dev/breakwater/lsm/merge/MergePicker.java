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
     * Insert an empty level at {@code index} (all levels from there move down by one), or, with
     * {@code remove}, remove the empty level at {@code index} (those below move up).
     */
    record LevelChange(int index, boolean remove, String reason) {
    }
}
