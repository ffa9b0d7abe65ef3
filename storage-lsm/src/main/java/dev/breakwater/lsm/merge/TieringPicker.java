package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Tiering (paper 000, section 2.1): each level holds up to T runs; when level {@code i} has T runs
 * (L0: {@code l0MergeGroups}), all of them merge into one new run, the newest of level {@code i+1}.
 * The lowest full level goes first. A merge out of the last level creates a new last level (the
 * version set adds it when the output level does not exist yet). Tombstones are dropped only when
 * the output level is the last and holds no older run.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class TieringPicker implements MergePicker {

    @Override
    public Optional<MergeTask> pick(Version v, Set<Long> busy, MergeSettings s) {
        for (int level = 0; level < v.levelCount(); level++) {
            List<Run> runs = v.level(level);
            int trigger = level == 0 ? s.l0MergeGroups() : s.sizeRatio();
            if (runs.size() < trigger) {
                continue;
            }
            boolean anyBusy = false;
            List<MergeTask.Input> inputs = new ArrayList<>();
            for (Run r : runs) {
                for (TableMeta t : r.tables()) {
                    anyBusy |= busy.contains(t.fileNumber());
                }
                inputs.add(new MergeTask.Input(level, r.id(), r.tables()));
            }
            if (anyBusy) {
                continue;
            }
            int out = level + 1;
            boolean outIsLast = out >= v.levelCount() - 1;
            boolean nothingOlder = out >= v.levelCount() || v.level(out).isEmpty();
            return Optional.of(new MergeTask(inputs, out, MergeTask.NEW_RUN, outIsLast && nothingOlder,
                    (double) runs.size() / trigger, String.format("L%d has %d runs (trigger %d): merge into a new run of L%d",
                    level, runs.size(), trigger, out)));
        }
        return Optional.empty();
    }
}
