package dev.breakwater.lsm.version;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies {@link VersionEdit}s to a version and produces the next one. Empty runs disappear after
 * each edit; empty levels stay until an edit removes them.
 *
 * <p>Thread safety: none; used under the version set's lock or during recovery.
 */
public final class VersionBuilder {

    /**
     * A run being edited: the base run until an edit touches it, then its tables in a map by
     * smallest key, so that adding or removing a table costs O(log n) and a snapshot of n tables
     * builds in O(n log n) (with a copy-and-sort per table, replaying a manifest was quadratic in
     * the number of tables).
     */
    private static final class RunState {
        final long id;
        Run base;
        TreeMap<byte[], TableMeta> tables;

        RunState(Run base) {
            this.id = base.id();
            this.base = base;
        }

        RunState(long id) {
            this.id = id;
            this.base = Run.empty(id);
        }

        TreeMap<byte[], TableMeta> tables() {
            if (tables == null) {
                tables = new TreeMap<>(Arrays::compareUnsigned);
                for (TableMeta t : base.tables()) {
                    tables.put(t.smallest(), t);
                }
            }
            return tables;
        }

        boolean isEmpty() {
            return tables == null ? base.isEmpty() : tables.isEmpty();
        }

        Run build() {
            if (tables != null) {
                base = Run.ofSortedDisjoint(id, new ArrayList<>(tables.values()));
                tables = null;
            }
            return base;
        }
    }

    private final List<List<RunState>> levels = new ArrayList<>();
    private long lastFlushedLsn;
    private long nextFileNumber;
    private long nextRunId;

    public VersionBuilder(Version base) {
        for (List<Run> level : base.levels()) {
            List<RunState> runs = new ArrayList<>(level.size());
            for (Run r : level) {
                runs.add(new RunState(r));
            }
            levels.add(runs);
        }
        lastFlushedLsn = base.lastFlushedLsn();
        nextFileNumber = base.nextFileNumber();
        nextRunId = base.nextRunId();
    }

    /**
     * Applies one edit.
     *
     * @throws IllegalStateException if the edit does not fit the version (names a missing run or
     *                               table, adds a table overlapping another of its run, or removes a
     *                               non-empty level): a corrupt manifest or a bug
     */
    public VersionBuilder apply(VersionEdit edit) {
        for (VersionEdit.Op op : edit.ops()) {
            switch (op.kind()) {
                case NEW_RUN -> {
                    List<RunState> level = level(op.level(), op);
                    if (op.newest()) {
                        level.add(0, new RunState(op.runId()));
                    } else {
                        level.add(new RunState(op.runId()));
                    }
                }
                case ADD_TABLE -> add(run(op), op.table(), op);
                case REMOVE_TABLE -> remove(run(op), op.table(), op);
                case INSERT_LEVEL -> {
                    if (op.level() < 1 || op.level() > levels.size()) {
                        throw new IllegalStateException("cannot insert level " + op.level() + " into " + levels.size() + " levels");
                    }
                    levels.add(op.level(), new ArrayList<>());
                }
                case REMOVE_LEVEL -> {
                    List<RunState> level = level(op.level(), op);
                    if (level.stream().anyMatch(r -> !r.isEmpty())) {
                        throw new IllegalStateException("cannot remove non-empty level " + op.level() + ": "
                                + level.stream().map(RunState::build).toList());
                    }
                    levels.remove(op.level());
                }
                default -> throw new IllegalStateException("unknown op " + op);
            }
        }
        for (List<RunState> level : levels) {
            level.removeIf(RunState::isEmpty);
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
        List<List<Run>> out = new ArrayList<>(levels.size());
        for (List<RunState> level : levels) {
            List<Run> runs = new ArrayList<>(level.size());
            for (RunState r : level) {
                runs.add(r.build());
            }
            out.add(runs);
        }
        return new Version(out, lastFlushedLsn, nextFileNumber, nextRunId);
    }

    private List<RunState> level(int index, VersionEdit.Op op) {
        if (index < 0 || index >= levels.size()) {
            throw new IllegalStateException("edit " + op + " names level " + index + " but the tree has " + levels.size());
        }
        return levels.get(index);
    }

    private RunState run(VersionEdit.Op op) {
        for (RunState r : level(op.level(), op)) {
            if (r.id == op.runId()) {
                return r;
            }
        }
        throw new IllegalStateException("edit " + op + " names run " + op.runId() + " missing from level " + op.level());
    }

    private static void add(RunState r, TableMeta t, VersionEdit.Op op) {
        TreeMap<byte[], TableMeta> tables = r.tables();
        Map.Entry<byte[], TableMeta> below = tables.floorEntry(t.smallest());
        Map.Entry<byte[], TableMeta> above = tables.higherEntry(t.smallest());
        if (below != null && Arrays.compareUnsigned(below.getValue().largest(), t.smallest()) >= 0) {
            throw new IllegalStateException("edit " + op + ": tables " + below.getValue() + " and " + t + " overlap within one run");
        }
        if (above != null && Arrays.compareUnsigned(t.largest(), above.getKey()) >= 0) {
            throw new IllegalStateException("edit " + op + ": tables " + t + " and " + above.getValue() + " overlap within one run");
        }
        tables.put(t.smallest(), t);
    }

    private static void remove(RunState r, TableMeta t, VersionEdit.Op op) {
        TreeMap<byte[], TableMeta> tables = r.tables();
        TableMeta present = tables.get(t.smallest());
        if (present == null || present.fileNumber() != t.fileNumber()) {
            // The edit names the table by file number; look it up by number in case its keys differ.
            Map.Entry<byte[], TableMeta> byNumber = null;
            for (Map.Entry<byte[], TableMeta> e : tables.entrySet()) {
                if (e.getValue().fileNumber() == t.fileNumber()) {
                    byNumber = e;
                    break;
                }
            }
            if (byNumber == null) {
                throw new IllegalStateException("edit " + op + ": run " + r.id + " has no table #" + t.fileNumber());
            }
            tables.remove(byNumber.getKey());
            return;
        }
        tables.remove(t.smallest());
    }
}
