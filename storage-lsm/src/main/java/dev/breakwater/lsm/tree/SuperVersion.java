package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.memory.MemorySSTable;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything a reader of the tree needs, as one immutable, reference-counted snapshot: the active
 * memory table, the sealed memory tables awaiting flush (newest first), and the disk version. The
 * tree swaps in a new one whenever any of them changes; a reader acquires the current one lock-free
 * ({@link #tryRef()} fails once the count reached zero, and the reader retries with the newer one).
 *
 * <p>Invariants: (1) while referenced, it holds a reference on each of its memory tables and on its
 * version; (2) releasing the last reference releases those.
 *
 * <p>Thread safety: safe.
 */
final class SuperVersion {

    final MemoryTable active;
    /** Sealed tables, newest first. */
    final List<MemoryTable> immutables;
    final Version version;
    /** The memory levels M1..Mk of a partitioned memory component (empty when monolithic). */
    final MemoryLevels memory;
    /**
     * Highest sequence number of any memory table already flushed into {@link #version} or sealed
     * into {@link #memory}: neither keeps versions a snapshot could need filtered, so a reader whose
     * snapshot is older must take a newer super version.
     */
    final long flushedSeq;
    private final AtomicInteger refs = new AtomicInteger(1);

    /**
     * Takes a new reference on every table; takes over the caller's reference on {@code version}
     * (acquired with {@link VersionSet#acquireCurrent()}: referencing the current version after
     * reading it races with its release by a concurrent {@link VersionSet#logAndApply}).
     */
    SuperVersion(MemoryTable active, List<MemoryTable> immutables, MemoryLevels memory, Version version, long flushedSeq) {
        this.active = active;
        this.memory = memory;
        this.flushedSeq = flushedSeq;
        this.immutables = List.copyOf(immutables);
        this.version = version;
        active.ref();
        for (MemoryTable t : this.immutables) {
            t.ref();
        }
        for (MemorySSTable t : memory.all()) {
            t.ref();
        }
    }

    boolean tryRef() {
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

    void unref() {
        int left = refs.decrementAndGet();
        if (left == 0) {
            active.unref();
            for (MemoryTable t : immutables) {
                t.unref();
            }
            for (MemorySSTable t : memory.all()) {
                t.unref();
            }
            version.unref();
        } else if (left < 0) {
            throw new IllegalStateException("super version released too often");
        }
    }
}
