package dev.breakwater.lsm.version;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies {@link VersionEdit}s to a version and produces the next one. Empty runs disappear after
 * each edit; empty levels stay until an edit removes them.
 *
 * <p>Thread safety: none; used under the version set's lock or during recovery.
 */
public final class VersionBuilder {

    private final List<List<Run>> levels = new ArrayList<>();
    private long lastFlushedLsn;
    private long nextFileNumber;
    private long nextRunId;

    public VersionBuilder(Version base) {
        for (List<Run> level : base.levels()) {
            levels.add(new ArrayList<>(level));
        }
        lastFlushedLsn = base.lastFlushedLsn();
        nextFileNumber = base.nextFileNumber();
        nextRunId = base.nextRunId();
    }

    /**
     * Applies one edit.
     *
     * @throws IllegalStateException if the edit does not fit the version (names a missing run or
     *                               table, or removes a non-empty level): a corrupt manifest or a bug
     */
    public VersionBuilder apply(VersionEdit edit) {
        for (VersionEdit.Op op : edit.ops()) {
            switch (op.kind()) {
                case NEW_RUN -> {
                    List<Run> level = level(op.level(), op);
                    if (op.newest()) {
                        level.add(0, Run.empty(op.runId()));
                    } else {
                        level.add(Run.empty(op.runId()));
                    }
                }
                case ADD_TABLE -> replaceRun(op, List.of(), List.of(op.table()));
                case REMOVE_TABLE -> replaceRun(op, List.of(op.table()), List.of());
                case INSERT_LEVEL -> {
                    if (op.level() < 1 || op.level() > levels.size()) {
                        throw new IllegalStateException("cannot insert level " + op.level() + " into " + levels.size() + " levels");
                    }
                    levels.add(op.level(), new ArrayList<>());
                }
                case REMOVE_LEVEL -> {
                    List<Run> level = level(op.level(), op);
                    if (level.stream().anyMatch(r -> !r.isEmpty())) {
                        throw new IllegalStateException("cannot remove non-empty level " + op.level() + ": " + level);
                    }
                    levels.remove(op.level());
                }
                default -> throw new IllegalStateException("unknown op " + op);
            }
        }
        for (List<Run> level : levels) {
            level.removeIf(Run::isEmpty);
        }
        if (edit.lastFlushedLsn() >= 0) {
            lastFlushedLsn = Math.max(lastFlushedLsn, edit.lastFlushedLsn());
        }
        if (edit.nextFileNumber() >= 0) {
            nextFileNumber = Math.max(nextFileNumber, edit.nextFileNumber());
        }
        if (edit.nextRunId() >= 0) {
            nextRunId = Math.max(nextRunId, edit.nextRunId());
        }
        for (VersionEdit.Op op : edit.ops()) {
            if (op.kind() == VersionEdit.Kind.ADD_TABLE) {
                nextFileNumber = Math.max(nextFileNumber, op.table().fileNumber() + 1);
            }
            if (op.kind() == VersionEdit.Kind.NEW_RUN) {
                nextRunId = Math.max(nextRunId, op.runId() + 1);
            }
        }
        return this;
    }

    public Version build() {
        return new Version(levels, lastFlushedLsn, nextFileNumber, nextRunId);
    }

    private List<Run> level(int index, VersionEdit.Op op) {
        if (index < 0 || index >= levels.size()) {
            throw new IllegalStateException("edit " + op + " names level " + index + " but the tree has " + levels.size());
        }
        return levels.get(index);
    }

    private void replaceRun(VersionEdit.Op op, List<TableMeta> removed, List<TableMeta> added) {
        List<Run> level = level(op.level(), op);
        for (int i = 0; i < level.size(); i++) {
            Run r = level.get(i);
            if (r.id() == op.runId()) {
                if (!removed.isEmpty() && !r.tables().contains(removed.get(0))) {
                    throw new IllegalStateException("edit " + op + ": run " + r.id() + " has no table #" + removed.get(0).fileNumber());
                }
                level.set(i, r.with(removed, added));
                return;
            }
        }
        throw new IllegalStateException("edit " + op + " names run " + op.runId() + " missing from level " + op.level());
    }
}
