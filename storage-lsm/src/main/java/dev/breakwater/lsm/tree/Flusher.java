package dev.breakwater.lsm.tree;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.memory.FlushPicker;
import dev.breakwater.lsm.memory.MemoryFlushTask;
import dev.breakwater.lsm.memory.MemoryMergePicker;
import dev.breakwater.lsm.memory.MemorySealTask;
import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.MemorySSTableMeta;
import dev.breakwater.lsm.memory.RecordCursor;
import dev.breakwater.lsm.memory.RecordMerger;
import dev.breakwater.lsm.version.L0Groups;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionEdit;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tree's memory worker, one job at a time per tree on the shared flush pool. It does, in order of
 * priority:
 * <ol>
 *   <li>a sealed memory table: written to disk (monolithic component, or when no memory level holds
 *       data) or, with a partitioned component, merged with the overlapping M1 tables into new
 *       compact memory SSTables in M1 ("sealing" M0, paper 000 section 4.1.1);</li>
 *   <li>a full flush (explicit flushes, shutdown): every memory SSTable merge-sorted to disk;</li>
 *   <li>a log-triggered flush: the memory SSTable with the minimum LSN plus the overlapping older
 *       ones, or a full flush when less than β of write memory was flushed partially within the
 *       last log window (section 4.1.4);</li>
 *   <li>a memory-triggered flush: the next tables of the last memory level, round-robin by key,
 *       until the bytes the write-memory manager asked for are flushed;</li>
 * </ol>
 * Memory merges between memory levels run on their own pool ({@link MemoryMerger}); the tables a
 * merge reads are busy, and a seal or flush that needs one waits until the merge wakes this worker.
 * Everything that reaches disk goes through SSTables, a log barrier (the log must be durable up to
 * the data's highest LSN), L0 group placement and one version edit, as LevelDB's flush does.
 *
 * <p>L0 back-pressure: at {@code l0SlowdownGroups} groups a disk flush is delayed a little per extra
 * group; at {@code l0StopGroups} it waits until merges bring L0 below the limit. Both are counted.
 *
 * <p>Thread safety: safe; at most one job per tree runs at a time (guarded by this monitor). The
 * memory levels change under the tree's state lock, by this worker or the memory merger, each
 * replacing only tables it marked busy.
 */
final class Flusher {

    /** β: below this share of write memory flushed partially within a log window, log flushes are full. */
    static final double BETA = 0.5;
    /** Units of work one job does before it yields its flush thread. */
    static final int STEPS_PER_JOB = 2;
    /** A memory-triggered flush writes at most this many M0 sizes at once. */
    static final int MAX_MEMORY_FLUSH_M0S = 4;
    /**
     * How long a seal waits for the flush policy to free the pool room its compact copy needs before
     * it tries anyway (and, if the pool runs dry, frees room by flushing its own last memory level).
     */
    static final long ROOM_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * The wait in effect: {@link #ROOM_WAIT_NANOS}; a test raises it so that a loaded machine's slow
     * flush of another tree cannot end the wait before the room is free.
     */
    static volatile long roomWaitNanos = ROOM_WAIT_NANOS;
    /** How often a seal waiting for room looks again. */
    static final long ROOM_RETRY_MILLIS = 1;

    private final LsmTree tree;
    /** Guarded by this. */
    private boolean running;
    private volatile boolean shutdown;
    private volatile boolean fullRequested;
    private volatile boolean logRequested;
    /** Bytes of memory-triggered partial flushes asked for and not yet flushed. */
    private final AtomicLong memoryRequestedBytes = new AtomicLong();
    private volatile FlushCause memoryCause = FlushCause.MEMORY;
    /** The last step found the tables it needs busy in a memory merge; the merge wakes it. */
    private volatile boolean waitingForMemoryMerge;
    /** A seal waits for pool room the flush policy is freeing; a timer wakes it ({@link #ROOM_RETRY_MILLIS}). */
    private volatile boolean waitingForRoom;
    /** When the current seal started waiting for room (System.nanoTime), 0 if it is not waiting. Job thread only. */
    private long roomWaitStart;
    /** Round-robin position of memory-triggered flushes: the largest key flushed last. Job thread only. */
    private byte[] lastFlushedLargest;
    /** (log position, bytes) of recent partial flushes, for the β rule. Job thread only. */
    private final ArrayDeque<long[]> partialFlushes = new ArrayDeque<>();
    /**
     * Test hook, null in production: runs in every step right after it read the sealed tables and
     * before it looks at the flush requests, so a test can make a request land in that window.
     */
    volatile Runnable afterStepReadSealedTables;

    Flusher(LsmTree tree) {
        this.tree = tree;
    }

    /** Starts a job unless one is running (it will pick up new work itself). */
    void schedule() {
        synchronized (this) {
            if (running || shutdown) {
                return;
            }
            running = true;
        }
        tree.resources.flushExecutor().execute(this::run);
    }

    /** Bytes of memory-triggered partial flushes asked for and not flushed yet. */
    long pendingMemoryFlushBytes() {
        return memoryRequestedBytes.get();
    }

    /** True while a full flush is asked for and not yet picked. */
    boolean fullFlushRequested() {
        return fullRequested;
    }

    void requestFullFlush() {
        fullRequested = true;
        schedule();
    }

    /**
     * A partial flush of the memory levels: log-triggered for {@link FlushCause#LOG}, else
     * memory-triggered, of about {@code bytes} more (at least one table).
     */
    void requestMemoryFlush(FlushCause cause, long bytes) {
        if (cause == FlushCause.LOG) {
            logRequested = true;
        } else {
            memoryCause = cause;
            memoryRequestedBytes.addAndGet(Math.max(1, bytes));
        }
        schedule();
    }

    private void run() {
        try {
            // A few units of work, then back to the end of the pool's queue: trees share the flush
            // threads fairly, and one busy tree's seals cannot starve another tree's flush request.
            for (int i = 0; i < STEPS_PER_JOB && !shutdown && tree.backgroundError == null && step(); i++) {
                // one unit of work per step
            }
        } catch (Throwable e) {
            tree.backgroundFailure("flush", e);
        } finally {
            synchronized (this) {
                running = false;
                notifyAll();
            }
        }
        // Work that arrived after the last step looked, but before running was cleared, found a job
        // running and did not start one: look again.
        if (hasWork() && tree.backgroundError == null) {
            schedule();
        }
    }

    private boolean hasWork() {
        if (waitingForMemoryMerge || waitingForRoom) {
            return false; // the memory merge wakes this worker when it releases its tables
        }
        synchronized (tree.stateLock) {
            if (!tree.immutables.isEmpty()) {
                return true;
            }
        }
        return fullRequested || logRequested || memoryRequestedBytes.get() > 0;
    }

    /** Does one unit of work; false when there is none, or when it waits for a memory merge to release tables. */
    private boolean step() throws IOException {
        MemoryTable oldest;
        MemoryLevels levels;
        synchronized (tree.stateLock) {
            oldest = tree.immutables.isEmpty() ? null : tree.immutables.get(tree.immutables.size() - 1);
            levels = tree.memoryLevels;
        }
        Runnable hook = afterStepReadSealedTables;
        if (hook != null) {
            hook.run();
        }
        if (oldest != null) {
            if (!tree.options.partitioned() || (oldest.directToDisk && levels.isEmpty())) {
                flushOne(oldest);
                return true;
            }
            return sealIntoMemory(oldest);
        }
        if (!tree.options.partitioned()) {
            fullRequested = logRequested = false;
            memoryRequestedBytes.set(0);
            return false;
        }
        if (fullRequested) {
            // Cleared before the pick: a request made from here on (a flush() that seals a new M0)
            // asks for another full flush rather than being absorbed by this one.
            fullRequested = false;
            MemoryFlushTask task = pickAndMark(busy -> FlushPicker.pickFull(tree.memoryLevels.metas(), busy), true);
            if (task == BLOCKED || task == SEAL_FIRST) {
                fullRequested = true;
                return task == SEAL_FIRST; // a sealed table joins the memory levels first, on the next step
            }
            if (task != null) {
                flushMemoryTables(task, FlushCause.EXPLICIT, false);
            }
            return true;
        }
        if (logRequested) {
            boolean full = preferFull();
            MemoryFlushTask task = pickAndMark(busy -> full ? FlushPicker.pickFull(tree.memoryLevels.metas(), busy)
                    : FlushPicker.pickLogTriggered(tree.memoryLevels.metas(), busy));
            if (task == BLOCKED) {
                return false;
            }
            logRequested = false;
            if (task != null) {
                long flushedBefore = tree.stats.bytesFlushed.sum();
                flushMemoryTables(task, tree.logFlushCause(), task.kind() != MemoryFlushTask.Kind.FULL);
                tree.stats.bytesFlushedForLogRequest.add(tree.stats.bytesFlushed.sum() - flushedBefore);
            }
            return true;
        }
        if (memoryRequestedBytes.get() > 0) {
            return flushRequested();
        }
        return false;
    }

    /**
     * A memory-triggered flush of the bytes the write-memory manager asked for: the next tables of the
     * last memory level, round-robin. False if the tables are busy in a memory merge.
     */
    private boolean flushRequested() throws IOException {
        long requested = memoryRequestedBytes.get();
        // One flush takes at most a few M0s' worth, so seals (which free M0 for the writers) wait
        // at most that long; the rest of the request follows in the next steps.
        long target = Math.min(requested, MAX_MEMORY_FLUSH_M0S * tree.activeComponentBytes());
        MemoryFlushTask task = pickAndMark(busy -> FlushPicker.pickMemoryTriggered(tree.memoryLevels.metas(), lastFlushedLargest,
                busy, target));
        if (task == BLOCKED) {
            return false;
        }
        if (task == null) {
            memoryRequestedBytes.set(0); // nothing left in the memory levels
            return true;
        }
        flushMemoryTables(task, memoryCause, true);
        List<MemorySSTableMeta> flushed = task.allTables();
        lastFlushedLargest = flushed.get(flushed.size() - 1).largest();
        memoryRequestedBytes.accumulateAndGet(task.bytes(), (left, done) -> Math.max(0, left - done));
        return true;
    }

    /** True if the pool has {@code bytes} free. */
    private boolean hasRoom(long bytes) {
        var pool = tree.resources.pool();
        return pool.capacityBytes() - pool.usedBytes() >= bytes;
    }

    /**
     * Whether a seal needing {@code need} bytes of pool room should wait for it instead of building
     * now. Without the room, the seal asks the write-memory manager for it
     * ({@link LsmTree#askForRoom}): the flush policy picks which trees free it, usually ones holding
     * more than their share of the writes, where flushing the sealing tree's own last memory level (what
     * a seal that finds the pool dry does) throws out the newest data of the tree that is written
     * most. Waits at most {@link #roomWaitNanos}, retrying every {@link #ROOM_RETRY_MILLIS} on a
     * timer, holding no flush thread. Never waits for a full flush or at shutdown, nor when the policy
     * picked this tree (its own flush makes the room), nor without a manager to ask.
     */
    private boolean waitForRoom(long need) {
        if (fullRequested || shutdown || memoryRequestedBytes.get() > 0 || hasRoom(need)) {
            roomWaitStart = 0;
            return false;
        }
        long now = System.nanoTime();
        if (roomWaitStart != 0 && now - roomWaitStart > roomWaitNanos) {
            roomWaitStart = 0;
            return false; // waited long enough: build, and free room itself if the pool runs dry
        }
        if (!tree.askForRoom(need)) {
            return false;
        }
        if (roomWaitStart == 0) {
            roomWaitStart = now;
            tree.stats.sealRoomWaits.increment();
        }
        if (memoryRequestedBytes.get() > 0) {
            return false; // the policy picked this tree itself
        }
        waitingForRoom = true;
        CompletableFuture.delayedExecutor(ROOM_RETRY_MILLIS, TimeUnit.MILLISECONDS).execute(() -> {
            waitingForRoom = false;
            schedule();
        });
        return true;
    }

    /** What {@link #pickAndMark} returns when the only tables to take are busy in a memory merge. */
    private static final MemoryFlushTask BLOCKED = new MemoryFlushTask(MemoryFlushTask.Kind.FULL, List.of(), "blocked by a memory merge");
    /** What {@link #pickAndMark} returns to a full flush while a sealed table still waits to join the memory levels. */
    private static final MemoryFlushTask SEAL_FIRST = new MemoryFlushTask(MemoryFlushTask.Kind.FULL, List.of(), "a sealed table waits");

    /** {@link #pickAndMark(java.util.function.Function, boolean)} for a pick that may leave sealed tables waiting. */
    private MemoryFlushTask pickAndMark(java.util.function.Function<Set<Long>, Optional<MemoryFlushTask>> picker) {
        return pickAndMark(picker, false);
    }

    /**
     * Picks under the state lock, skipping tables a memory merge is reading, and marks the pick's
     * tables busy. Returns null if there is nothing to flush, or {@link #BLOCKED} (and remembers to
     * wait for {@link #memoryTablesReleased}) if only busy tables stand in the way.
     *
     * @param noSealedTable for a full flush: return {@link #SEAL_FIRST} if a sealed table waits. The
     *                      check is made under the same lock as the pick, because the flush() that
     *                      asked for this full flush may have sealed M0 after this step last looked
     *                      at the sealed tables; flushing the memory levels without that M0 would let
     *                      flush() return (and close() drop memory) with its writes still in memory.
     */
    private MemoryFlushTask pickAndMark(java.util.function.Function<Set<Long>, Optional<MemoryFlushTask>> picker, boolean noSealedTable) {
        synchronized (tree.stateLock) {
            if (noSealedTable && !tree.immutables.isEmpty()) {
                return SEAL_FIRST;
            }
            Optional<MemoryFlushTask> task = picker.apply(tree.busyMemoryTables);
            if (task.isPresent()) {
                for (MemorySSTableMeta m : task.get().allTables()) {
                    tree.busyMemoryTables.add(m.id());
                }
                return task.get();
            }
            if (tree.busyMemoryTables.isEmpty() || picker.apply(Set.of()).isEmpty()) {
                return null;
            }
            waitingForMemoryMerge = true;
            return BLOCKED;
        }
    }

    /** A memory merge installed or gave up: tables it held are free again, so look for work. */
    void memoryTablesReleased() {
        if (waitingForMemoryMerge) {
            waitingForMemoryMerge = false;
            schedule();
        }
    }

    // ------------------------------------------------------------------ monolithic: memory table to disk

    private void flushOne(MemoryTable t) throws IOException {
        waitForL0();
        long minLsn = t.minLogLsn() == Long.MAX_VALUE ? 0 : t.minLogLsn();
        long maxLsn = t.maxLogLsn() == Long.MIN_VALUE ? 0 : t.maxLogLsn();
        List<TableMeta> tables;
        try (EntryCursor c = t.component.flushCursor()) {
            tables = TableOutput.write(c, tree.resources.fs(), tree.dir, tree.tableOptions(0, t.component.entryCount(), List.of()), tree.resources.io(),
                    IoPurpose.FLUSH, TableOutput.UNCOUNTED, tree.versions::newFileNumber, tree.options.targetTableBytes(), minLsn, maxLsn);
        }
        tree.awaitLogDurable(maxLsn);
        long durable = durableLsnAfter(List.of(t), List.of(), maxLsn);
        tree.versions.logAndApply(v -> placementEdit(v, tables, durable), IoPurpose.FLUSH);
        synchronized (tree.stateLock) {
            tree.immutables.remove(t);
            tree.flushedSeq = Math.max(tree.flushedSeq, t.component.maxLsn());
            tree.installSuperVersion();
        }
        countFlush(tables, t.cause);
    }

    // ------------------------------------------------------------------ partitioned: memory levels

    /**
     * Merges sealed M0 with the overlapping M1 tables into new M1 tables. Without pool pages for the
     * compact copy, frees some with a partial flush of the last memory level instead (or, with no
     * memory level to flush, writes M0 itself to disk). False if an overlapping M1 table is busy in
     * a memory merge: the seal waits for it.
     */
    private boolean sealIntoMemory(MemoryTable t) throws IOException {
        byte[][] range = keyRange(t);
        if (range == null) { // nothing in it
            synchronized (tree.stateLock) {
                tree.immutables.remove(t);
                tree.installSuperVersion();
            }
            return true;
        }
        List<MemorySSTable> lower = new ArrayList<>();
        List<List<MemorySSTable>> lowerRuns = new ArrayList<>(); // lower by run, newest run first
        boolean newRun;
        synchronized (tree.stateLock) {
            MemoryLevels levels = tree.memoryLevels;
            Optional<MemorySealTask> task = MemoryMergePicker.pickSeal(t.component.bytesUsed(), range[0], range[1], levels.metas(),
                    levels.firstLevelRuns(), tree.busyMemoryTables, tree.memoryMergeSettings().firstLevelRuns());
            if (task.isEmpty()) {
                waitingForMemoryMerge = true;
                return false;
            }
            newRun = task.get().newRun();
            Set<Long> ids = new HashSet<>();
            task.get().lower().forEach(m -> ids.add(m.id()));
            for (int r = 0; r < levels.firstLevelRuns() && !ids.isEmpty(); r++) {
                List<MemorySSTable> inRun = new ArrayList<>();
                for (MemorySSTable m : levels.run(r)) {
                    if (ids.contains(m.id())) {
                        inRun.add(m);
                    }
                }
                if (!inRun.isEmpty()) {
                    lowerRuns.add(inRun);
                    lower.addAll(inRun);
                }
            }
            lower.forEach(m -> tree.busyMemoryTables.add(m.id()));
        }
        // Room for the copy (at most M0 and the tables it merges with), asked for outside the state
        // lock: the manager's policy calls into trees, which take their state locks.
        long need = t.component.bytesUsed() + MemorySSTables.bytes(lower);
        boolean waiting = waitForRoom(need);
        // Without room, and picked by the flush policy to free memory: its flush makes the room first.
        boolean flushFirst = !waiting && memoryRequestedBytes.get() > 0 && !hasRoom(need);
        if (waiting || flushFirst) {
            synchronized (tree.stateLock) {
                lower.forEach(m -> tree.busyMemoryTables.remove(m.id()));
            }
            return !waiting && flushRequested();
        }
        List<MemorySSTable> outputs;
        try {
            long minLsn = Math.min(t.minLogLsn(), MemorySSTables.minLogLsn(lower));
            long maxLsn = Math.max(t.maxLogLsn(), MemorySSTables.maxLogLsn(lower));
            long sealInput = t.component.bytesUsed() + MemorySSTables.bytes(lower); // before anything is released
            List<RecordCursor> sources = new ArrayList<>();
            sources.add(t.component.sealedRecords());
            for (List<MemorySSTable> run : lowerRuns) {
                sources.add(MemorySSTable.records(run));
            }
            // M0's records carry no log LSN of their own: its memory table's minimum is their floor.
            // The M1 tables' cursors report their own, so each output takes the log range of the
            // tables its records come from, not the oldest of the whole seal.
            long[] floors = new long[sources.size()];
            Arrays.fill(floors, RecordCursor.UNKNOWN_LOG_LSN);
            floors[0] = t.minLogLsn();
            outputs = MemorySSTables.build(tree, sources.size() == 1 ? sources.get(0) : new RecordMerger(sources, floors), minLsn, maxLsn);
            if (outputs != null) {
                synchronized (tree.stateLock) {
                    tree.immutables.remove(t);
                    tree.flushedSeq = Math.max(tree.flushedSeq, t.component.maxLsn());
                    tree.memoryLevels = newRun ? tree.memoryLevels.withNewFirstRun(outputs) : tree.memoryLevels.replace(lower, 1, outputs);
                    tree.installSuperVersion();
                }
                tree.stats.memorySealBytes.add(sealInput);
                lower.forEach(MemorySSTable::unref);
                tree.stats.memorySeals.increment();
            }
        } finally {
            synchronized (tree.stateLock) {
                lower.forEach(m -> tree.busyMemoryTables.remove(m.id()));
            }
        }
        if (outputs != null) {
            tree.memoryMerger.schedule(); // M1 grew: a memory merge may be due
            return true;
        }
        // No pool pages for the compact copy. Free some with a partial flush of the last memory
        // level and try again on the next step; with no memory level to flush, write M0 itself to
        // disk (correct then: nothing in memory is older than it).
        tree.stats.sealsWithoutRoom.increment();
        long flushedBefore = tree.stats.bytesFlushed.sum();
        MemoryFlushTask partial = pickAndMark(busy -> FlushPicker.pickMemoryTriggered(tree.memoryLevels.metas(), lastFlushedLargest, busy));
        if (partial == BLOCKED) {
            return false;
        }
        if (partial != null) {
            List<MemorySSTableMeta> flushed = partial.allTables();
            flushMemoryTables(partial, FlushCause.MEMORY, true);
            lastFlushedLargest = flushed.get(flushed.size() - 1).largest();
        } else {
            flushOne(t);
        }
        tree.stats.bytesFlushedForSealRoom.add(tree.stats.bytesFlushed.sum() - flushedBefore);
        return true;
    }

    /**
     * Writes memory SSTables (newest level first), picked and marked busy by {@link #pickAndMark},
     * to disk as one flush and drops them from memory.
     */
    private void flushMemoryTables(MemoryFlushTask task, FlushCause cause, boolean partial) throws IOException {
        List<MemorySSTable> tables;
        synchronized (tree.stateLock) {
            tables = MemorySSTables.tables(tree.memoryLevels, task.allTables());
        }
        try {
            List<EntryCursor> sources = new ArrayList<>();
            for (MemorySSTable m : tables) {
                sources.add(m.cursor(null, 0));
            }
            writeToDisk(new MergingCursor(sources, false), List.of(), tables, cause);
        } finally {
            synchronized (tree.stateLock) {
                tables.forEach(m -> tree.busyMemoryTables.remove(m.id()));
            }
        }
        if (partial) {
            partialFlushes.addLast(new long[] {tree.logPosition(), task.bytes()});
        }
    }

    /** Entries a flush of these sealed tables and memory SSTables writes at most (for Bloom sizing). */
    private static long flushEntries(List<MemoryTable> sealed, List<MemorySSTable> tables) {
        long n = 0;
        for (MemoryTable t : sealed) {
            n += t.component.entryCount();
        }
        for (MemorySSTable m : tables) {
            n += m.entryCount();
        }
        return n;
    }

    /**
     * The common end of every disk flush: SSTables, log barrier, L0 placement, version edit, then
     * the flushed memory leaves the snapshot (its pages return once the last reader is gone).
     */
    private void writeToDisk(MergingCursor merged, List<MemoryTable> sealed, List<MemorySSTable> tables, FlushCause cause)
            throws IOException {
        waitForL0();
        long minLsn = MemorySSTables.minLogLsn(tables);
        long maxLsn = MemorySSTables.maxLogLsn(tables);
        long maxSeq = Long.MIN_VALUE;
        for (MemorySSTable m : tables) {
            maxSeq = Math.max(maxSeq, m.maxSeq());
        }
        for (MemoryTable t : sealed) {
            minLsn = Math.min(minLsn, t.minLogLsn());
            maxLsn = Math.max(maxLsn, t.maxLogLsn());
            maxSeq = Math.max(maxSeq, t.component.maxLsn());
        }
        minLsn = minLsn == Long.MAX_VALUE ? 0 : minLsn;
        maxLsn = maxLsn == Long.MIN_VALUE ? 0 : maxLsn;
        List<TableMeta> written;
        try (merged) {
            written = TableOutput.write(merged, tree.resources.fs(), tree.dir, tree.tableOptions(0, flushEntries(sealed, tables), List.of()), tree.resources.io(),
                    IoPurpose.FLUSH, TableOutput.UNCOUNTED, tree.versions::newFileNumber, tree.options.targetTableBytes(), minLsn, maxLsn);
        }
        tree.awaitLogDurable(maxLsn);
        long durable = durableLsnAfter(sealed, tables, maxLsn);
        tree.versions.logAndApply(v -> placementEdit(v, written, durable), IoPurpose.FLUSH);
        synchronized (tree.stateLock) {
            tree.immutables.removeAll(sealed);
            tree.flushedSeq = Math.max(tree.flushedSeq, maxSeq);
            tree.memoryLevels = tree.memoryLevels.replace(tables, 1, List.of());
            tree.installSuperVersion();
        }
        tables.forEach(MemorySSTable::unref);
        tree.memoryMerger.wakeAfterFlush();
        countFlush(written, cause);
    }

    private void countFlush(List<TableMeta> tables, FlushCause cause) {
        long bytes = 0;
        for (TableMeta m : tables) {
            bytes += m.sizeBytes();
        }
        tree.stats.flushes.increment();
        tree.stats.bytesFlushed.add(bytes);
        tree.stats.bytesFlushedBy[cause.ordinal()].add(bytes);
        tree.stats.flushesBy[cause.ordinal()].increment();
        tree.merges.maybeSchedule();
    }

    /** β rule: full flush unless enough write memory was flushed partially within the last log window. */
    private boolean preferFull() {
        long now = tree.logPosition();
        long window = tree.logWindowBytes();
        while (!partialFlushes.isEmpty() && now - partialFlushes.peekFirst()[0] > window) {
            partialFlushes.removeFirst();
        }
        long partial = 0;
        for (long[] p : partialFlushes) {
            partial += p[1];
        }
        return FlushPicker.preferFullFlush(partial, Math.max(1, tree.memoryBytes()), BETA);
    }

    /**
     * First and last key of a sealed table, or null if it is empty, as the component reports them
     * ({@link dev.breakwater.lsm.memory.MemoryComponent#firstKey()}: O(log n) or better, where a pass
     * over every record was 21% of the flush thread in the issue-13 profile).
     */
    private static byte[][] keyRange(MemoryTable t) {
        byte[] first = t.component.firstKey();
        return first == null ? null : new byte[][] {first, t.component.lastKey()};
    }

    // ------------------------------------------------------------------ shared

    /**
     * The LSN below which every write is on disk once {@code leaving} are: one below the oldest LSN
     * still only in memory elsewhere (other memory tables, memory SSTables that stay, or writes the
     * owner has not applied yet).
     */
    private long durableLsnAfter(List<MemoryTable> leaving, List<MemorySSTable> leavingTables, long maxLsn) {
        long oldest = tree.oldestUnappliedLsn();
        synchronized (tree.stateLock) {
            for (MemoryTable other : tree.memoryTablesLocked()) {
                if (!leaving.contains(other)) {
                    oldest = Math.min(oldest, other.minLogLsn());
                }
            }
            for (MemorySSTable m : tree.memoryLevels.all()) {
                if (!leavingTables.contains(m)) {
                    oldest = Math.min(oldest, m.minLogLsn());
                }
            }
        }
        return oldest == Long.MAX_VALUE ? maxLsn : oldest - 1;
    }

    /** The flushed tables join L0 groups (one new group shared by those that need it). */
    private VersionEdit placementEdit(Version v, List<TableMeta> tables, long durable) {
        VersionEdit edit = new VersionEdit().setLastFlushedLsn(durable);
        long newGroup = -1;
        for (TableMeta m : tables) {
            long group = L0Groups.groupFor(v.level(0), m);
            if (group == L0Groups.NEW_GROUP) {
                if (newGroup < 0) {
                    newGroup = tree.versions.newRunId();
                    edit.newRun(0, newGroup, true);
                }
                group = newGroup;
            }
            edit.addTable(0, group, m);
        }
        return edit;
    }

    private void waitForL0() throws IOException {
        LsmTreeOptions o = tree.options;
        int groups = tree.versions.current().level(0).size();
        if (groups >= o.l0StopGroups()) {
            tree.stats.flushStops.increment();
            long start = System.nanoTime();
            tree.merges.awaitL0Below(o.l0StopGroups());
            tree.stats.flushStallNanos.add(System.nanoTime() - start);
        } else if (groups >= o.l0SlowdownGroups()) {
            tree.stats.flushSlowdowns.increment();
            long start = System.nanoTime();
            try {
                TimeUnit.MILLISECONDS.sleep(groups - o.l0SlowdownGroups() + 1L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("flush of tree " + tree.name + " interrupted");
            }
            tree.stats.flushStallNanos.add(System.nanoTime() - start);
        }
    }

    /** Waits until no job runs and no work is pending (or a background failure). */
    void awaitIdle() throws IOException {
        while (tree.backgroundError == null && !shutdown) {
            synchronized (this) {
                if (!running && !hasWork() && !waitingForMemoryMerge && !waitingForRoom) {
                    return;
                }
                if (!running && !waitingForMemoryMerge && !waitingForRoom) {
                    running = true;
                    tree.resources.flushExecutor().execute(this::run);
                }
                try {
                    wait(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("waiting for flush of tree " + tree.name);
                }
            }
        }
    }

    /** Stops scheduling and waits for the running job. */
    void shutdown() {
        shutdown = true;
        synchronized (this) {
            while (running) {
                try {
                    wait(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
