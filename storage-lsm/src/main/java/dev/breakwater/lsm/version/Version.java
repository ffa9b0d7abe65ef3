package dev.breakwater.lsm.version;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An immutable list of a tree's disk components, as installed by the last applied
 * {@link VersionEdit}: levels {@code 0..N}, each a list of {@link Run}s ordered newest first. Level 0
 * holds the flush groups; with the leveling policy every level {@code >= 1} has at most one run,
 * with tiering it may have several.
 *
 * <p>Readers acquire a version ({@link #ref()}) for the duration of a lookup or a scan and release
 * it ({@link #unref()}); when the last reference to a version that is no longer current goes, the
 * tree is told which files only that version referenced, so they can be deleted (LevelDB's
 * obsolete-file logic).
 *
 * <p>Invariants: (1) immutable after construction; (2) within a level, newer runs shadow older ones
 * and level {@code i} shadows level {@code i+1}; (3) the reference count is positive while the
 * version is current or any reader holds it.
 *
 * <p>Thread safety: safe; reference counting is atomic.
 */
public final class Version {

    private final List<List<Run>> levels;
    private final long lastFlushedLsn;
    private final long nextFileNumber;
    private final long nextRunId;
    private final AtomicInteger refs = new AtomicInteger(1);
    private volatile Consumer<Version> onRelease;

    public Version(List<List<Run>> levels, long lastFlushedLsn, long nextFileNumber, long nextRunId) {
        List<List<Run>> copy = new ArrayList<>(levels.size());
        for (List<Run> l : levels) {
            copy.add(Collections.unmodifiableList(new ArrayList<>(l)));
        }
        this.levels = Collections.unmodifiableList(copy);
        this.lastFlushedLsn = lastFlushedLsn;
        this.nextFileNumber = nextFileNumber;
        this.nextRunId = nextRunId;
    }

    /** The empty version of a new tree: an empty L0 and one empty level; nothing flushed (LSN -1). */
    public static Version empty() {
        return new Version(List.of(List.of(), List.of()), -1, 1, 1);
    }

    /** Levels 0..N; each a list of runs, newest first. */
    public List<List<Run>> levels() {
        return levels;
    }

    public int levelCount() {
        return levels.size();
    }

    public List<Run> level(int level) {
        return levels.get(level);
    }

    /** Total bytes of the tables in {@code level}. */
    public long levelBytes(int level) {
        long s = 0;
        for (Run r : levels.get(level)) {
            s += r.sizeBytes();
        }
        return s;
    }

    /** Number of tables in {@code level}. */
    public int levelTables(int level) {
        int n = 0;
        for (Run r : levels.get(level)) {
            n += r.size();
        }
        return n;
    }

    /** Every table of every level. */
    public List<TableMeta> allTables() {
        List<TableMeta> all = new ArrayList<>();
        for (List<Run> level : levels) {
            for (Run r : level) {
                all.addAll(r.tables());
            }
        }
        return all;
    }

    /** The highest LSN whose writes are all in disk components of this version. */
    public long lastFlushedLsn() {
        return lastFlushedLsn;
    }

    public long nextFileNumber() {
        return nextFileNumber;
    }

    public long nextRunId() {
        return nextRunId;
    }

    /** Adds a reader's reference. Requires: the version is still referenced. */
    public void ref() {
        int before = refs.getAndIncrement();
        if (before <= 0) {
            refs.getAndDecrement();
            throw new IllegalStateException("version already released");
        }
    }

    /**
     * Adds a reference unless the version was already released; never resurrects one. For callers
     * that read the current version without the lock that replaces it: a false answer means a newer
     * version is current already (the tree installs the new one before releasing the old).
     */
    public boolean tryRef() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one runs the release callback set by the tree. */
    public void unref() {
        int after = refs.decrementAndGet();
        if (after == 0) {
            Consumer<Version> callback = onRelease;
            if (callback != null) {
                callback.accept(this);
            }
        } else if (after < 0) {
            throw new IllegalStateException("version released more often than acquired");
        }
    }

    /** Sets what happens when the last reference goes. */
    public void onRelease(Consumer<Version> callback) {
        this.onRelease = callback;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Version{");
        for (int i = 0; i < levels.size(); i++) {
            b.append(" L").append(i).append('=').append(levels.get(i));
        }
        return b.append(" flushedLsn=").append(lastFlushedLsn).append('}').toString();
    }
}
