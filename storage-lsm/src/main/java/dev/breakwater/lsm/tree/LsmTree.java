package dev.breakwater.lsm.tree;

import dev.breakwater.common.util.Backoff;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.manager.ManagedTree;
import dev.breakwater.lsm.merge.MergeSettings;
import dev.breakwater.lsm.merge.MergeTask;
import dev.breakwater.lsm.sstable.SSTableOptions;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.cursor.MergingCursor;
import dev.breakwater.lsm.memory.MemoryComponent;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryMergeSettings;
import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.PagePool;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One LSM B+-tree: a mutable memory table drawing pages from the shared write-memory pool, sealed
 * memory tables waiting for flush, and immutable disk components in a grouped L0 and levels below,
 * read through the shared buffer cache (DESIGN.md section 4).
 *
 * <h2>Writes</h2>
 * {@link #put} and {@link #delete} insert into the active memory table, lock-free, from any number of
 * threads. Each write gets an internal sequence number; a {@link VisibilityTracker} publishes the
 * highest number below which every write finished. A read takes the last number issued as its
 * snapshot and waits until everything up to it has finished, so it sees every write that completed
 * before it started (read-your-writes) and nothing half-done. When the
 * active table reaches {@link #activeComponentBytes()} (initially {@link LsmTreeOptions#memoryTableBytes()}) it is sealed and queued for flush;
 * when the pool has no page left, writers wait (a counted stall) for a flush to free memory, up to
 * {@link LsmTreeOptions#stallTimeout()}. The caller passes the log LSN of each write; the tree keeps
 * the LSN range of every memory table and records in each flush the LSN below which all writes are
 * on disk.
 *
 * <h2>Reads</h2>
 * A read takes a snapshot ({@link SuperVersion}: memory tables plus disk version, reference counted)
 * lock-free. Point lookups search memory tables newest first, then disk runs newest first, skipping
 * tables by key range and Bloom filter; range scans merge cursors over all of them.
 *
 * <h2>Background work</h2>
 * Flushes ({@link Flusher}) run on the flush pool, one at a time per tree so L0 keeps recency order;
 * merges ({@link MergeScheduler}) run on the merge pool. Both change the disk components only through
 * {@link VersionSet#logAndApply}. A background failure is kept and makes later writes fail with it as
 * the cause; reads keep working.
 *
 * <p>Invariants: (1) every write with a sequence number {@code <=} a snapshot's is in that snapshot's
 * memory tables or disk version, and no disk table of the snapshot holds a later one; (2) memory
 * tables are flushed oldest first; (3) a memory table's pages return to the pool only after its flush
 * is installed and its last reader left.
 *
 * <p>Thread safety: all public methods are safe from any thread. {@link #close} must not race with
 * other calls.
 */
public final class LsmTree implements AutoCloseable, ManagedTree {

    private static final Logger LOG = LoggerFactory.getLogger(LsmTree.class);

    final String name;
    final Path dir;
    final LsmTreeOptions options;
    final TreeResources resources;
    final VersionSet versions;
    final TreeStatistics stats = new TreeStatistics();
    final VisibilityTracker tracker;
    final Flusher flusher;
    final MemoryMerger memoryMerger;
    final MergeScheduler merges;
    private final AtomicLong memoryTableIds = new AtomicLong();
    /** The data structure of every new active memory component. */
    private final MemoryComponentSpec memorySpec;
    private volatile LongSupplier oldestUnappliedLsn = () -> Long.MAX_VALUE;
    private volatile LogBarrier logBarrier = lsn -> { };
    private volatile LongSupplier logPosition = () -> 0;
    private volatile long logWindowBytes = Long.MAX_VALUE;
    /** The write memory this tree holds on average, {@code a_i·M_w}, as the manager hands it (its slow level-sizing share): sizes its levels. */
    private volatile long writeMemoryShare;
    /** See {@link #setLevelCountSettled}; true for a tree no write-memory manager sizes. */
    private volatile boolean levelCountSettled = true;
    /**
     * The bytes of each level (L0..LN) when the share last became unsettled, which level targets
     * do not fall below while it stays so ({@link MergeSettings#levelTargetFloor}); null while settled.
     */
    private volatile long[] heldLevelBytes;
    /** Size at which the active table is sealed: {@link LsmTreeOptions#memoryTableBytes()} until {@link #setActiveComponentBytes} moves it. */
    private volatile long activeComponentBytes;
    /** Pool fraction in use from which writers are slowed; above 1: never (standalone trees). */
    private volatile double writeSlowdownFrom = 2;
    /** Pool fraction at which memory forces flushes (the manager's threshold; a full pool without one). */
    private volatile double memoryFlushThreshold = 1;
    /** The longest delay one write gets for a nearly full pool. */
    static final long MAX_WRITE_SLOWDOWN_NANOS = 1_000_000;
    /** Called when a writer finds the pool empty; by default the tree frees its own memory. */
    private volatile Runnable memoryPressureHandler;
    /** Asked for pool room a seal needs (the flush policy frees it); null: the seal frees its own. */
    private volatile java.util.function.LongConsumer roomHandler;

    /** Waits until the log is durable up to an LSN; see {@link #setLogBarrier}. */
    @FunctionalInterface
    public interface LogBarrier {
        void awaitDurable(long lsn) throws IOException;
    }

    /** Guards swapping the super version and the list of sealed tables. */
    final Object stateLock = new Object();
    /** Sealed tables, newest first. Guarded by stateLock. */
    final List<MemoryTable> immutables = new ArrayList<>();
    /** Highest sequence number in any flushed (installed) memory table. Guarded by stateLock. */
    long flushedSeq;
    /** The partitioned memory component's levels M1..Mk, each table holding one reference for the tree. Guarded by stateLock. */
    MemoryLevels memoryLevels;
    /** Ids of memory SSTables a flush or memory merge is reading (none takes a table another holds). Guarded by stateLock. */
    final Set<Long> busyMemoryTables = new HashSet<>();
    private volatile SuperVersion current;
    volatile Throwable backgroundError;
    private volatile boolean closed;

    private LsmTree(String name, Path dir, LsmTreeOptions options, TreeResources resources, VersionSet versions,
                    MemoryComponentSpec memorySpec) {
        this.name = name;
        this.memorySpec = memorySpec;
        this.dir = dir;
        this.options = options;
        this.resources = resources;
        this.versions = versions;
        this.tracker = new VisibilityTracker(0);
        this.writeMemoryShare = options.mergeSettings().writeMemoryBytes();
        this.activeComponentBytes = options.memoryTableBytes();
        this.flusher = new Flusher(this);
        this.memoryMerger = new MemoryMerger(this);
        this.merges = new MergeScheduler(this, options.picker());
        this.memoryLevels = MemoryLevels.empty(options.memoryLevels());
        MemoryTable active = newMemoryTable();
        this.current = new SuperVersion(active, List.of(), memoryLevels, versions.acquireCurrent(), 0);
        active.unref(); // the super version holds it now
    }

    /**
     * Opens the tree stored in {@code dir}, creating it if empty. The tree comes back exactly as its
     * last installed version; files no version refers to are deleted and due merges scheduled.
     */
    public static LsmTree open(String name, Path dir, LsmTreeOptions options, TreeResources resources) throws IOException {
        return open(name, dir, options, resources, true);
    }

    /**
     * Opens the tree stored in {@code dir}, creating it if empty. With {@code start} false the open
     * only reads the tree's files (an empty directory still gets its first manifest): orphan files
     * stay and no merge is scheduled until {@link #start()}. For a caller that opens several trees
     * and more besides, and must change no file if any part of its open fails.
     */
    public static LsmTree open(String name, Path dir, LsmTreeOptions options, TreeResources resources, boolean start)
            throws IOException {
        return open(name, dir, options, resources, start, MemoryComponentSpec.SKIP_LIST);
    }

    /** As {@link #open(String, Path, LsmTreeOptions, TreeResources, boolean)}, with active memory components of {@code memorySpec}'s kind. */
    public static LsmTree open(String name, Path dir, LsmTreeOptions options, TreeResources resources, boolean start,
                               MemoryComponentSpec memorySpec) throws IOException {
        if (resources.cache().pageSize() != options.pageSize()) {
            throw new IllegalArgumentException("tree " + name + ": page size " + options.pageSize()
                    + " differs from the buffer cache's " + resources.cache().pageSize());
        }
        VersionSet versions = VersionSet.open(name, resources.fs(), dir, resources.cache(), resources.io(),
                options.directIo(), options.manifestRotateBytes(), start);
        LsmTree tree = new LsmTree(name, dir, options, resources, versions, memorySpec);
        if (start) {
            tree.merges.maybeSchedule();
        }
        return tree;
    }

    /**
     * What {@link #open(String, Path, LsmTreeOptions, TreeResources, boolean) open} deferred: deletes
     * the files no version refers to (a failure is logged, the files stay) and schedules due merges.
     */
    public void start() {
        try {
            versions.removeOrphans();
        } catch (IOException e) {
            LOG.warn("tree {}: could not remove orphan files: {}", name, e.toString());
        }
        merges.maybeSchedule();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long entriesWritten() {
        return stats.entriesWritten.sum();
    }

    @Override
    public void setMemoryPressureHandler(Runnable handler) {
        this.memoryPressureHandler = handler;
    }

    @Override
    public void setRoomHandler(java.util.function.LongConsumer handler) {
        this.roomHandler = handler;
    }

    /**
     * Asks the write-memory manager to free {@code bytes} of pool room for a seal; false if there is
     * no manager to ask (a standalone tree then frees its own memory).
     */
    boolean askForRoom(long bytes) {
        java.util.function.LongConsumer h = roomHandler;
        if (h == null) {
            return false;
        }
        h.accept(bytes);
        return true;
    }

    /**
     * {@inheritDoc} An active component without entries counts nothing, even when it holds pages: a
     * hash kind's bucket array or a pre-sized vector's index is drawn at the first write, before the
     * entry, and stays if the entry then finds the pool empty. Nothing can be flushed to free those
     * pages, so a flush policy that picked this tree for them would free nothing, and pick it again.
     */
    @Override
    public long flushableBytes() {
        SuperVersion s = current;
        long active = s.active.component.isEmpty() ? 0 : s.active.component.bytesUsed();
        if (options.partitioned() && !s.memory.isEmpty()) {
            // The memory levels, and M0, which a request seals into them when they do not suffice.
            return Math.max(0, s.memory.bytes() - flusher.pendingMemoryFlushBytes()) + active;
        }
        return active;
    }

    /** {@inheritDoc} From the merge policy, over the current version and merge settings. */
    @Override
    public long smallestUsefulFlushBytes() {
        return options.picker().smallestUsefulFlushBytes(versions.current(), mergeSettings());
    }

    @Override
    public long flushingBytes() {
        SuperVersion s = current;
        long bytes = 0;
        for (MemoryTable t : s.immutables) {
            bytes += t.component.bytesUsed();
        }
        if (options.partitioned()) {
            bytes += Math.min(s.memory.bytes(), flusher.pendingMemoryFlushBytes());
        }
        return bytes;
    }

    @Override
    public void setWriteMemoryShare(long bytes) {
        this.writeMemoryShare = Math.max(1, bytes);
    }

    /**
     * {@inheritDoc}
     *
     * <p>When the share becomes unsettled (registration right after an open) the tree also holds
     * its levels at the shape it has now: no level's target falls below what it holds
     * ({@link MergeSettings#levelTargetFloor}) until the share settles, so a guess smaller than the
     * share the levels were written with merges nothing down (issue 13: 0.8–1.4 GB of merges in a
     * read-only YCSB phase after a reopen); nor is L0 due by bytes on the guess until it has grown
     * ({@link MergeSettings#l0VolumeFloor}). L0's group-count triggers do not read the held shape.
     * Called by one thread at a time (the manager's register and tick).
     */
    @Override
    public void setLevelCountSettled(boolean settled) {
        if (settled) {
            heldLevelBytes = null;
        } else if (heldLevelBytes == null) { // it was settled until now
            Version v = versions.current();
            long[] held = new long[v.levelCount()];
            for (int i = 0; i < held.length; i++) {
                held[i] = v.levelBytes(i);
            }
            heldLevelBytes = held;
        }
        this.levelCountSettled = settled;
    }

    /** False while the write-memory share is not yet an average of writes: no level is added or retired. */
    boolean levelCountSettled() {
        return levelCountSettled;
    }

    /**
     * Moves the size at which a partitioned memory component seals its active table M0 (a
     * monolithic component has no size of its own: the flush policy decides, and this is ignored).
     * The engine calls it when write memory is resized, so that M0 stays the fraction of write memory
     * a tree opened there would have: a tree opened at a small split and grown by the tuner would
     * otherwise keep flushing small M0s (docs/benchmarks-tuner.md, seventh session). Takes effect at
     * the next write; the memory levels' targets ({@code M0·T^i}) follow at the next memory merge and
     * a memory-triggered flush's batch at the next flush. The number of memory levels stays what
     * the tree opened with.
     *
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public void setActiveComponentBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("tree " + name + ": active component size must be > 0, got " + bytes);
        }
        if (options.partitioned()) {
            this.activeComponentBytes = bytes;
        }
    }

    /** The size at which the active table M0 is sealed now (see {@link #setActiveComponentBytes}). */
    public long activeComponentBytes() {
        return activeComponentBytes;
    }

    /** Target size of one memory SSTable: a quarter of M0 now, at least 16 pages' worth of 4 KiB. */
    long memorySSTableBytes() {
        return Math.max(64 * 1024, activeComponentBytes / 4);
    }

    /** Options for SSTables a flush or merge writes into {@code level}, with Bloom bits per {@link BloomBits}. */
    SSTableOptions tableOptions(int level, long writingEntries, List<MergeTask.Input> inputs) {
        return options.tableOptions(BloomBits.forLevel(options, versions.current(), level, writingEntries, inputs));
    }

    /** Memory-merge settings over the current M0 size. */
    MemoryMergeSettings memoryMergeSettings() {
        return MemoryMergeSettings.withBase(activeComponentBytes);
    }

    /** Merge settings with the current write-memory share and, while it is unsettled, the held level shape. */
    MergeSettings mergeSettings() {
        return options.mergeSettings().withWriteMemory(writeMemoryShare).withHeldLevels(heldLevelBytes);
    }

    /**
     * Sets how the tree learns the smallest log LSN that was assigned to a write not yet applied to
     * it (the transaction layer knows; standalone trees have none). Flushes never record a durable
     * LSN at or above it.
     */
    public void setOldestUnappliedLsn(LongSupplier supplier) {
        this.oldestUnappliedLsn = supplier;
    }

    /**
     * Sets what a flush waits for before it makes a disk component durable: the log must be durable
     * up to the component's highest LSN, or a crash could leave a transaction's effects in one tree's
     * disk component while its log record (and its effects on other trees) are lost. With SYNC
     * commits this never waits; with ASYNC it may.
     */
    public void setLogBarrier(LogBarrier barrier) {
        this.logBarrier = barrier;
    }

    /**
     * Tells a partitioned tree where the log is and how long a log window is: the β rule compares
     * what was partially flushed within the last window with the tree's write memory.
     */
    public void setLogWindow(LongSupplier position, long windowBytes) {
        this.logPosition = position;
        this.logWindowBytes = windowBytes;
    }

    long logPosition() {
        return logPosition.getAsLong();
    }

    long logWindowBytes() {
        return logWindowBytes;
    }

    void awaitLogDurable(long lsn) throws IOException {
        logBarrier.awaitDurable(lsn);
    }

    MemoryTable newMemoryTable() {
        return new MemoryTable(memorySpec.create(resources.pool()), memoryTableIds.incrementAndGet());
    }

    // ---------------------------------------------------------------- writes

    /** Inserts or replaces {@code key}'s value. {@code logLsn} is the write's log position (0 if none). */
    public void put(byte[] key, byte[] value, long logLsn) throws IOException {
        write(key, key.length, value, value.length, false, logLsn);
    }

    /** Deletes {@code key} (writes a tombstone). */
    public void delete(byte[] key, long logLsn) throws IOException {
        write(key, key.length, null, 0, true, logLsn);
    }

    /**
     * Applies one write. Allocation-free unless it stalls.
     *
     * @throws IOException if a background flush or merge failed earlier, or the write stalled for
     *                     longer than the stall timeout
     */
    public void write(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long logLsn) throws IOException {
        checkWritable();
        long stallStart = 0;
        for (int sealedRetries = 0; ; ) {
            MemoryTable t = current.active;
            if (!t.enterWriter()) {
                Backoff.pause(sealedRetries++); // sealed: the new active table is being installed
                continue;
            }
            boolean inserted;
            long seq = tracker.begin();
            try {
                t.noteLogLsn(logLsn);
                inserted = t.component.put(key, keyLen, value, valueLen, tombstone, seq);
            } finally {
                tracker.complete(seq);
                t.exitWriter();
            }
            if (inserted) {
                stats.entriesWritten.increment();
                if (stallStart != 0) {
                    stats.writeStallNanos.add(System.nanoTime() - stallStart);
                }
                if (t.component.bytesUsed() >= activeComponentBytes) {
                    rotate(t, false);
                }
                slowDownIfPoolNearlyFull();
                return;
            }
            // The pool has no page: seal what we hold so a flush can free it, then wait.
            if (stallStart == 0) {
                stallStart = System.nanoTime();
                stats.writeStalls.increment();
                relabelLogFlushesAsMemory();
            } else if (System.nanoTime() - stallStart > options.stallTimeout().toNanos()) {
                stats.writeStallNanos.add(System.nanoTime() - stallStart);
                throw new IOException("tree " + name + ": write stalled for " + options.stallTimeout().toMillis()
                        + " ms waiting for write memory (pool exhausted and flushes did not free enough)");
            }
            checkWritable();
            Runnable handler = memoryPressureHandler;
            if (handler != null) {
                handler.run(); // the flush policy decides which trees give memory back
            } else if (options.partitioned() && !current.memory.isEmpty()) {
                if (flusher.pendingMemoryFlushBytes() == 0) {
                    flusher.requestMemoryFlush(FlushCause.MEMORY, 1); // one table at a time, not one per retry
                }
            } else if (!t.component.isEmpty()) {
                rotate(t, true, FlushCause.MEMORY, true);
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
    }

    /**
     * Delays the writer when the pool is past {@link #writeSlowdownFrom}: by up to
     * {@link #MAX_WRITE_SLOWDOWN_NANOS}, in proportion to how far between that mark and a full pool
     * usage is. Flushes get time to free memory before writers block on an empty pool; a steady
     * writer stream sees a slower rate rather than sudden stalls. Counted as a slowdown.
     */
    private void slowDownIfPoolNearlyFull() {
        PagePool pool = resources.pool();
        long capacity = pool.capacityBytes();
        double used = (double) pool.usedBytes() / Math.max(1, capacity);
        double from = writeSlowdownFrom;
        if (used <= from || from >= 1) {
            return;
        }
        long delay = (long) (MAX_WRITE_SLOWDOWN_NANOS * Math.min(1, (used - from) / (1 - from)));
        long start = System.nanoTime();
        LockSupport.parkNanos(delay);
        stats.writeSlowdowns.increment();
        stats.writeStallNanos.add(System.nanoTime() - start);
    }

    @Override
    public void setWriteSlowdownFrom(double poolFraction) {
        this.writeSlowdownFrom = poolFraction;
    }

    @Override
    public void setMemoryFlushThreshold(double poolFraction) {
        this.memoryFlushThreshold = poolFraction;
    }

    /**
     * The cause to record for a flush the log asks for now: MEMORY if write memory is at or above
     * the flush threshold (memory would force this flush anyway), else LOG. See {@link FlushCause#LOG}.
     */
    FlushCause logFlushCause() {
        PagePool pool = resources.pool();
        return pool.usedBytes() >= memoryFlushThreshold * pool.capacityBytes() ? FlushCause.MEMORY : FlushCause.LOG;
    }

    /** A writer waits for memory: sealed tables waiting to flush because of the log are memory-triggered now. */
    private void relabelLogFlushesAsMemory() {
        for (MemoryTable t : current.immutables) {
            if (t.cause == FlushCause.LOG) {
                t.cause = FlushCause.MEMORY;
            }
        }
    }

    /**
     * Seals {@code t} if it is still the active table and queues it for flush. Unless {@code force},
     * does nothing while {@code maxImmutables} tables already wait (writers keep filling the active
     * table until memory runs out, which then stalls them).
     */
    void rotate(MemoryTable t, boolean force) {
        rotate(t, force, FlushCause.MEMORY, false);
    }

    /**
     * @param toDisk with a partitioned component, write the table straight to disk if no memory level
     *               holds data (a flush asked for by the policy must free memory; sealing M0 into M1
     *               would not)
     */
    void rotate(MemoryTable t, boolean force, FlushCause cause, boolean toDisk) {
        synchronized (stateLock) {
            if (current.active != t || t.isSealed()) {
                return;
            }
            if (!force && immutables.size() >= options.maxImmutables()) {
                return;
            }
            t.cause = cause;
            t.directToDisk = toDisk && options.partitioned() && memoryLevels.isEmpty();
            t.sealAndDrain();
            immutables.add(0, t);
            MemoryTable fresh = newMemoryTable();
            installSuperVersion(fresh);
            fresh.unref();
        }
        flusher.schedule();
    }

    /** Requires: stateLock held. Publishes a new snapshot of the memory tables and the current version. */
    void installSuperVersion(MemoryTable active) {
        SuperVersion old = current;
        current = new SuperVersion(active, immutables, memoryLevels, versions.acquireCurrent(), flushedSeq);
        old.unref();
    }

    /** Requires: stateLock held. The active table and the sealed ones. */
    List<MemoryTable> memoryTablesLocked() {
        List<MemoryTable> all = new ArrayList<>(immutables.size() + 1);
        all.add(current.active);
        all.addAll(immutables);
        return all;
    }

    /** Requires: stateLock held. */
    void installSuperVersion() {
        installSuperVersion(current.active);
    }

    /**
     * Throws what {@link #write} would throw now because the tree refuses writes: for a caller that
     * must know before it logs a write that the tree will take it (the engine's commit).
     *
     * @throws IllegalStateException if the tree is closed
     * @throws IOException           if a background flush or merge failed
     */
    public void checkWritable() throws IOException {
        if (closed) {
            throw new IllegalStateException("tree " + name + " is closed");
        }
        Throwable e = backgroundError;
        if (e != null) {
            throw new IOException("tree " + name + " refuses writes after a background failure: " + e, e);
        }
    }

    void backgroundFailure(String what, Throwable e) {
        if (backgroundError == null) {
            backgroundError = e;
        }
        LOG.error("tree {}: {} failed; the tree now refuses writes", name, what, e);
    }

    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- reads

    /**
     * A consistent snapshot that includes every write completed before the call: the snapshot is the
     * last sequence number issued, and the call waits (briefly: a write holds its number only for
     * one in-memory insert, never while stalled) until every write up to it has completed. A super
     * version whose disk components already hold later writes is skipped for a newer snapshot.
     */
    private SuperVersion acquire(long[] snapshotOut) {
        for (int retry = 0; ; retry++) {
            long snap = tracker.lastIssued();
            for (int attempt = 0; tracker.visible() < snap; attempt++) {
                Backoff.pause(attempt);
            }
            SuperVersion s = current;
            if (!s.tryRef()) {
                Backoff.pause(retry);
                continue;
            }
            if (s.flushedSeq <= snap) {
                snapshotOut[0] = snap;
                return s;
            }
            s.unref();
            Backoff.pause(retry);
        }
    }

    private static final ThreadLocal<long[]> SNAP = ThreadLocal.withInitial(() -> new long[1]);

    /**
     * Looks {@code key} up: {@link LookupResult#FOUND} with the value in {@code out}, or
     * {@link LookupResult#ABSENT} (never stored or deleted).
     */
    public LookupResult get(byte[] key, int keyLen, ValueHolder out) throws IOException {
        long[] snap = SNAP.get();
        SuperVersion s = acquire(snap);
        try {
            LookupResult r = s.active.component.get(key, keyLen, snap[0], out);
            for (int i = 0; r == LookupResult.ABSENT && i < s.immutables.size(); i++) {
                r = s.immutables.get(i).component.get(key, keyLen, snap[0], out);
            }
            for (int run = 0; r == LookupResult.ABSENT && run < s.memory.runCount(); run++) {
                MemorySSTable t = s.memory.findInRun(run, key, keyLen);
                if (t != null) {
                    r = t.get(key, keyLen, out);
                }
            }
            if (r == LookupResult.ABSENT) {
                r = getFromDisk(s.version, key, keyLen, out);
            }
            return r == LookupResult.DELETED ? LookupResult.ABSENT : r;
        } finally {
            s.unref();
        }
    }

    public LookupResult get(byte[] key, ValueHolder out) throws IOException {
        return get(key, key.length, out);
    }

    private LookupResult getFromDisk(Version v, byte[] key, int keyLen, ValueHolder out) throws IOException {
        List<List<Run>> levels = v.levels();
        for (int l = 0; l < levels.size(); l++) {
            List<Run> runs = levels.get(l);
            for (int r = 0; r < runs.size(); r++) {
                TableMeta t = runs.get(r).find(key, keyLen);
                if (t == null) {
                    continue;
                }
                LookupResult res = versions.reader(t.fileNumber()).get(key, keyLen, out, IoPurpose.QUERY, stats.pointQueryPagesRead);
                if (res != LookupResult.ABSENT) {
                    return res;
                }
            }
        }
        return LookupResult.ABSENT;
    }

    /**
     * A cursor over the live entries with {@code from <= key < toExclusive} (null bounds are open), in
     * key order, all from one consistent snapshot that the cursor holds until closed.
     */
    public EntryCursor scan(byte[] from, byte[] toExclusive) throws IOException {
        return scan(from, toExclusive, false);
    }

    /**
     * The entries of {@link #scan} over the same range, in descending key order: a streaming cursor
     * (every source walks backward; nothing of the range is materialised), from one consistent
     * snapshot held until closed, with the same newest-version-wins and tombstone rules.
     */
    public EntryCursor reverseScan(byte[] from, byte[] toExclusive) throws IOException {
        return scan(from, toExclusive, true);
    }

    private EntryCursor scan(byte[] from, byte[] toExclusive, boolean descending) throws IOException {
        long[] snap = new long[1];
        SuperVersion s = acquire(snap);
        List<EntryCursor> sources = new ArrayList<>();
        try {
            // Sources start at the near end of the range; the far end (the merge's limit) keeps level
            // cursors from opening tables past it and drops a source from the merge once it passes it.
            byte[] start = descending ? toExclusive : from;
            byte[] end = descending ? from : toExclusive;
            int startLen = start == null ? 0 : start.length;
            sources.add(memoryCursor(s.active.component, start, startLen, snap[0], descending));
            for (MemoryTable t : s.immutables) {
                sources.add(memoryCursor(t.component, start, startLen, snap[0], descending));
            }
            for (int run = 0; run < s.memory.runCount(); run++) {
                List<MemorySSTable> tables = s.memory.run(run);
                if (!tables.isEmpty()) {
                    sources.add(new MemoryLevelCursor(tables, start, end, descending, stats.scanTablesOpened));
                }
            }
            for (List<Run> level : s.version.levels()) {
                for (Run run : level) {
                    if (!run.isEmpty()) {
                        sources.add(new RunCursor(versions, run, start, end, descending, IoPurpose.QUERY,
                                stats.scanTablesOpened));
                    }
                }
            }
            stats.scans.increment();
            stats.scanSources.add(sources.size());
            return new TreeCursor(new MergingCursor(sources, true, descending, end), s, stats.scanEntriesRead);
        } catch (RuntimeException e) {
            for (EntryCursor c : sources) {
                c.close();
            }
            s.unref();
            throw e;
        }
    }

    private static EntryCursor memoryCursor(MemoryComponent c, byte[] start, int startLen, long snapshot, boolean descending) {
        return descending ? c.reverseCursor(start, startLen, snapshot) : c.cursor(start, startLen, snapshot);
    }

    // ---------------------------------------------------------------- control

    /** Seals the active memory table (if it holds anything) and waits until every sealed table is on disk. */
    public void flush() throws IOException {
        checkWritable();
        MemoryTable t = current.active;
        if (!t.component.isEmpty()) {
            rotate(t, true, FlushCause.EXPLICIT, false);
        }
        if (options.partitioned()) {
            flusher.requestFullFlush();
        }
        flusher.awaitIdle();
        checkWritable();
    }

    /**
     * Starts freeing memory without waiting: what a memory- or log-triggered flush policy calls;
     * {@code cause} is counted in the statistics. A partitioned tree with data in its memory levels
     * flushes part of them (a memory-triggered flush at least one memory SSTable, a log-triggered
     * one the oldest); otherwise the active memory table is sealed and queued for flush. A
     * log-triggered request does nothing while the table holding the tree's oldest LSN is already
     * sealed and queued or flushing, and is recorded as memory-triggered when write memory is at or
     * above the manager's flush threshold ({@link FlushCause#LOG} states the rule).
     */
    @Override
    public void requestFlush(FlushCause cause) {
        requestFlush(cause, 1);
    }

    /**
     * Like {@link #requestFlush(FlushCause)}; a memory-triggered partial flush of a partitioned tree
     * takes tables of its last memory level round-robin until about {@code bytes} are flushed.
     */
    @Override
    public long requestFlush(FlushCause cause, long bytes) {
        SuperVersion s = current;
        if (cause == FlushCause.LOG) {
            if (s.active.minLogLsn() > oldestMemoryLsn() && (!options.partitioned() || s.memory.isEmpty())) {
                // The oldest LSN is in a table already sealed and waiting for (or in) its flush:
                // sealing the active table too would not let the log be truncated any sooner, and
                // a monitor asking on every tick would make one tiny flush per tick.
                return 0;
            }
        }
        if (options.partitioned() && !s.memory.isEmpty()) {
            if (cause == FlushCause.LOG) {
                flusher.requestMemoryFlush(cause, 0);
                return 0;
            }
            long want = Math.max(1, bytes);
            long inLevels = Math.max(0, s.memory.bytes() - flusher.pendingMemoryFlushBytes());
            long take = Math.min(want, inLevels);
            if (want > inLevels && !s.active.component.isEmpty()) {
                // The memory levels cannot give what the policy asks: seal M0 into them as well, so
                // its data is flushed with them. Otherwise a tree that writes rarely would keep up to
                // a whole M0 out of the policy's reach, however small its share of writes.
                take = Math.min(want, inLevels + s.active.component.bytesUsed());
                rotate(s.active, true, cause, false);
            }
            if (take > 0) {
                flusher.requestMemoryFlush(cause, take);
            }
            return take;
        }
        MemoryTable t = s.active;
        long size = t.component.bytesUsed();
        if (!t.component.isEmpty()) {
            rotate(t, true, cause == FlushCause.LOG ? logFlushCause() : cause, true);
            return size;
        }
        return 0;
    }

    /** Bytes in the active memory table (M0). */
    long activeBytes() {
        return current.active.component.bytesUsed();
    }

    /** Write memory this tree holds now (active and sealed memory tables): its share {@code a_i·M_w}. */
    @Override
    public long memoryBytes() {
        SuperVersion s = current;
        long memory = s.active.component.bytesUsed() + s.memory.bytes();
        for (MemoryTable t : s.immutables) {
            memory += t.component.bytesUsed();
        }
        return memory;
    }

    /** The kind and parameters of the active memory components this tree builds. */
    public MemoryComponentSpec memorySpec() {
        return memorySpec;
    }

    /** The largest key plus value length a write may have (it must fit in one write-memory page). */
    public int maxRecordLength() {
        return current.active.component.maxRecordLength();
    }

    /** Waits until no merge is running or due. For tests and benchmarks that compare settled trees. */
    public void awaitMerges() throws IOException {
        merges.awaitQuiescent();
        checkWritable();
    }

    /** The current disk version (for statistics and tests; do not hold it). */
    public Version version() {
        return versions.current();
    }

    /**
     * Scans opened, table cursors (disk and memory SSTables) they opened, source entries their merges
     * read, and sources their merges had: for tests.
     */
    long[] scanCounters() {
        return new long[] {stats.scans.sum(), stats.scanTablesOpened.sum(), stats.scanEntriesRead.sum(), stats.scanSources.sum()};
    }

    /** A copy of the tree's statistics. */
    public TreeStatisticsSnapshot statistics() {
        Version v = versions.current();
        List<Long> levelBytes = new ArrayList<>();
        List<Integer> levelTables = new ArrayList<>();
        int deepest = -1;
        for (int i = 0; i < v.levelCount(); i++) {
            levelBytes.add(v.levelBytes(i));
            levelTables.add(v.levelTables(i));
            if (v.levelBytes(i) > 0) {
                deepest = i;
            }
        }
        long memory = memoryBytes();
        long[] bloom = versions.bloomStatistics();
        long probes = bloom[0];
        long negatives = bloom[1];
        long falsePositives = bloom[2];
        return new TreeStatisticsSnapshot(stats.entriesWritten.sum(), stats.flushes.sum(), stats.bytesFlushed.sum(),
                stats.bytesFlushedBy[FlushCause.MEMORY.ordinal()].sum(), stats.bytesFlushedBy[FlushCause.LOG.ordinal()].sum(),
                stats.merges.sum(), stats.mergeBytesRead.sum(), stats.mergeBytesWritten.sum(), levelBytes, levelTables,
                v.level(0).size(), memory, probes, negatives, falsePositives,
                stats.flushSlowdowns.sum(), stats.flushStops.sum(), stats.flushStallNanos.sum(), stats.writeSlowdowns.sum(), stats.writeStalls.sum(),
                stats.writeStallNanos.sum(), stats.memorySeals.sum(), stats.memoryMerges.sum(), stats.memoryMergeBytes.sum(),
                stats.mergeBytesWrittenByLevel(), deepest, deepest < 0 ? 0 : v.levelBytes(deepest), stats.memorySealBytes.sum(),
                versions.queryPagesRead(), stats.pointQueryPagesRead.sum(), memoryShape());
    }

    /** What the memory holds now, from one super version, and the flush counts by cause. */
    private TreeStatisticsSnapshot.MemoryShape memoryShape() {
        SuperVersion s = current;
        long sealed = 0;
        for (MemoryTable t : s.immutables) {
            sealed += t.component.bytesUsed();
        }
        return new TreeStatisticsSnapshot.MemoryShape(s.active.component.bytesUsed(), s.active.component.entryCount(), sealed,
                s.memory.runBytes(), s.memory.runEntries(), stats.flushesBy[FlushCause.MEMORY.ordinal()].sum(),
                stats.flushesBy[FlushCause.LOG.ordinal()].sum(), stats.sealsWithoutRoom.sum(), stats.bytesFlushedForSealRoom.sum(),
                stats.bytesFlushedForLogRequest.sum(), stats.sealRoomWaits.sum());
    }

    /**
     * The oldest log LSN of the newest memory table holding a version (value or tombstone) of
     * {@code key}, or {@code Long.MAX_VALUE} if no memory table holds one. A logged write of the key
     * below the result is not needed to rebuild this tree's memory: it was flushed, or a newer write
     * of the key, in that table or a newer one, supersedes it (used by the log's trimming, paper 002).
     * Reads one snapshot, lock-free; not a hot path.
     */
    public long memoryVersionFloor(byte[] key, int keyLen) {
        long[] snap = new long[1];
        ValueHolder out = new ValueHolder();
        SuperVersion s = acquire(snap);
        try {
            if (s.active.component.get(key, keyLen, snap[0], out) != LookupResult.ABSENT) {
                return s.active.minLogLsn();
            }
            for (MemoryTable t : s.immutables) {
                if (t.component.get(key, keyLen, snap[0], out) != LookupResult.ABSENT) {
                    return t.minLogLsn();
                }
            }
            for (int run = 0; run < s.memory.runCount(); run++) {
                MemorySSTable t = s.memory.findInRun(run, key, keyLen);
                if (t != null && t.get(key, keyLen, out) != LookupResult.ABSENT) {
                    return t.minLogLsn();
                }
            }
            return Long.MAX_VALUE;
        } finally {
            s.unref();
        }
    }

    /** The LSN below which every write of this tree is on disk, as recorded by the last flush. */
    public long durableLsn() {
        return versions.current().lastFlushedLsn();
    }

    /** The smallest log LSN held only in memory by this tree, or {@code Long.MAX_VALUE}. */
    @Override
    public long oldestMemoryLsn() {
        SuperVersion s = current;
        long min = Math.min(s.active.minLogLsn(), s.memory.minLogLsn());
        for (MemoryTable t : s.immutables) {
            min = Math.min(min, t.minLogLsn());
        }
        return min;
    }

    long oldestUnappliedLsn() {
        return oldestUnappliedLsn.getAsLong();
    }

    /**
     * Closes the tree: with {@code flushFirst}, memory tables are flushed first (a clean shutdown);
     * without, their contents are dropped (the log must hold them). Waits for running flushes and
     * merges. Idempotent.
     *
     * @throws IOException with {@code flushFirst}, if a flush failed or memory still held writes after
     *                     it (the tree is closed all the same; its memory is then only in the log,
     *                     which the caller must not truncate)
     */
    public void close(boolean flushFirst) throws IOException {
        if (closed) {
            return;
        }
        try {
            if (flushFirst && backgroundError == null) {
                flush();
                // flush() covers what was written before it; check, because the engine truncates
                // the log after a clean close: memory left here would be lost for good.
                for (int again = 0; again < 3 && !memoryIsEmpty(); again++) {
                    flush();
                }
                if (!memoryIsEmpty()) {
                    throw new IOException("tree " + name + ": memory still holds writes after flushing at close ("
                            + current.memory + ", " + current.immutables.size() + " sealed tables); they are only in the log");
                }
            }
        } finally {
            closed = true;
            merges.shutdown();
            flusher.shutdown();
            memoryMerger.shutdown();
            synchronized (stateLock) {
                current.unref(); // the super version owns the memory tables' references
                immutables.clear();
                for (MemorySSTable t : memoryLevels.all()) {
                    t.unref(); // the tree's own reference
                }
                memoryLevels = MemoryLevels.empty(options.memoryLevels());
            }
            versions.close();
        }
    }

    /** True if no memory table or memory SSTable holds an entry. */
    private boolean memoryIsEmpty() {
        synchronized (stateLock) {
            return current.active.component.isEmpty() && immutables.isEmpty() && memoryLevels.isEmpty();
        }
    }

    /** Flushes memory and closes. */
    @Override
    public void close() throws IOException {
        close(true);
    }

    @Override
    public String toString() {
        return "LsmTree[" + name + ", " + versions.current() + "]";
    }
}
