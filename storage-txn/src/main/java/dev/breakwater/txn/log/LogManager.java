package dev.breakwater.txn.log;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's transaction log (DESIGN.md §5): assigns each record an LSN (its byte position in the
 * log), buffers it, and has it written and fsynced by a dedicated flusher thread, one write and one
 * fsync per batch of however many records accumulated meanwhile (group commit). Record layout:
 * {@link LogRecordFormat}; recovery: {@link LogReader}.
 *
 * <h2>Group commit</h2>
 * Appenders copy their record into the <em>active</em> {@link LogBuffer} under {@link #lock}, held
 * only for the copy (the payload's CRC is computed before taking it). The flusher swaps the active
 * buffer with its empty spare under the same lock, then, without the lock, writes the whole batch
 * with one positional write per segment it touches and fsyncs once, publishes {@link #durableLsn()}
 * and wakes exactly the committers whose records it covered ({@link DurabilityWaiters}). While it
 * does I/O the next batch fills up; with SYNC durability it starts on it right away, so a batch is
 * whatever arrived during the previous fsync.
 *
 * <p>Why this is safe: (1) LSNs are assigned and bytes copied under the same lock, so LSN order =
 * buffer order = file order, and a buffer holds a gap-free LSN range of whole records. (2) Batches
 * are written by one thread, in LSN order, and each is fsynced before {@code durableLsn} moves past
 * it, so {@code durableLsn} only ever covers bytes that were fsynced. (3) A committer is released
 * only by a durable LSN above its record or by a failure (which it rethrows), never by anything else.
 * (4) After a failed write or fsync the log stops: no retry (see {@link LogFailedException}), and
 * {@code durableLsn} never moves again.
 *
 * <h2>Durability modes</h2>
 * SYNC: {@link #commit} = {@link #append} + {@link #awaitDurable}; the flusher flushes whenever the
 * buffer is non-empty. ASYNC: {@link #commit} returns after {@link #append}; the flusher flushes a
 * buffer at the latest {@code asyncSyncInterval} after its first record arrived (or sooner if it
 * fills, or someone calls {@link #awaitDurable}), so a crash loses at most that much.
 *
 * <p>Write-ahead rule for callers: before a disk component that contains LSN {@code x} becomes
 * durable, {@code awaitDurable(x)} must have returned (with ASYNC durability this is not implied by
 * the commit having returned).
 *
 * <h2>Invariants</h2>
 * (1) {@code durableLsn <= start of the batch being flushed <= active.startLsn() <= endLsn}, and
 * {@code active.endLsn() == endLsn}. (2) No record spans segments: a record that does not fit in
 * the rest of the active segment starts a new one. (3) Once {@link #failure} is set it never changes
 * and nothing is appended, written or synced again.
 *
 * <h2>Thread safety</h2>
 * {@link #append}, {@link #commit}, {@link #awaitDurable}, {@link #truncateBefore} and the
 * accessors are safe from any number of threads. {@link #close} may be called from any thread,
 * more than once; appends racing with it fail with {@link IllegalStateException}.
 */
public final class LogManager implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);
    /** Each appender thread checksums its payload with its own CRC object, outside the lock. */
    private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

    private final FileSystem fs;
    private final Path dir;
    private final LogOptions options;
    private final boolean syncDurability;
    private final long asyncIntervalNanos;
    private final SegmentList segments;
    private final LogWriter writer;
    private final DurabilityWaiters waiters = new DurabilityWaiters();
    private final Thread flusher;
    /** Serializes segment deletion (truncation) with segment replacement (packing). */
    private final Object swapLock = new Object();

    private final ReentrantLock lock = new ReentrantLock();
    /** The flusher waits here for work. */
    private final Condition flushWanted = lock.newCondition();
    /** Appenders wait here for room in the active buffer. */
    private final Condition spaceAvailable = lock.newCondition();

    @GuardedBy("lock")
    private LogBuffer active;
    /** First LSN of the segment new records go into (may be ahead of the flusher's segment). */
    @GuardedBy("lock")
    private long appendSegmentFirstLsn;
    /** When the first record of the active buffer arrived; drives the ASYNC deadline. */
    @GuardedBy("lock")
    private long firstPendingNanos;
    @GuardedBy("lock")
    private boolean flushRequested;
    @GuardedBy("lock")
    private boolean flusherIdle;
    @GuardedBy("lock")
    private boolean closing;
    @GuardedBy("lock")
    private long appendedRecords;
    @GuardedBy("lock")
    private long appendedBytes;
    @GuardedBy("lock")
    private long bufferFullWaits;

    /** The buffer the flusher fills the active slot with next. Confined to the flusher thread. */
    private LogBuffer spare;

    /** Next LSN to assign. Written under {@link #lock}. */
    private volatile long endLsn;
    /** Every record below this LSN is fsynced. Written only by the flusher. */
    private volatile long durableLsn;
    /** Set once, under {@link #lock}, when a write or fsync fails. */
    private volatile LogFailedException failure;
    /** Set by the first {@link #close}. Guarded by {@code this}. */
    private boolean closed;

    private LogManager(FileSystem fs, Path dir, LogOptions options, SegmentList segments, LogWriter writer,
                       long activeSegmentFirstLsn, long endLsn) {
        this.fs = fs;
        this.dir = dir;
        this.options = options;
        this.syncDurability = options.durability() == Durability.SYNC;
        this.asyncIntervalNanos = TimeUnit.MILLISECONDS.toNanos(options.asyncSyncIntervalMillis());
        this.segments = segments;
        this.writer = writer;
        this.active = new LogBuffer(options.bufferSize());
        this.active.reset(endLsn);
        this.spare = new LogBuffer(options.bufferSize());
        this.appendSegmentFirstLsn = activeSegmentFirstLsn;
        this.endLsn = endLsn;
        this.durableLsn = endLsn;
        this.flusher = new Thread(this::runFlusher, "breakwater-log-flusher");
        this.flusher.setDaemon(true);
    }

    /**
     * Opens the log in {@code dir} (creating the directory and a first segment if there is none) and
     * starts its flusher. An existing log continues right after its last good record: a torn tail
     * of the last segment (see {@link LogReader}) is truncated away and the truncation fsynced, so
     * that stale bytes can never reappear after records written later.
     *
     * @throws LogCorruptedException if a segment other than the last does not end where the next
     *     begins, or the last segment holds a bad record followed by an intact one; no file is changed
     */
    public static LogManager open(FileSystem fs, Path dir, LogOptions options, IoStatistics io) throws IOException {
        fs.createDirectories(dir);
        long[] firstLsns = SegmentFiles.list(fs, dir);
        StorageFile file;
        long[] stored = new long[Math.max(1, firstLsns.length)];
        boolean[] packed = new boolean[stored.length];
        long activeFirstLsn;
        long end;
        if (firstLsns.length == 0) {
            activeFirstLsn = 0;
            end = 0;
            file = fs.open(SegmentFiles.path(dir, 0), OpenOption.CREATE_NEW, OpenOption.WRITE);
            fs.syncDirectory(dir);
            firstLsns = new long[] {0};
        } else {
            checkContiguous(fs, dir, firstLsns, stored, packed);
            activeFirstLsn = firstLsns[firstLsns.length - 1];
            file = fs.open(SegmentFiles.path(dir, activeFirstLsn), OpenOption.WRITE);
            try {
                if (PackedSegment.isPacked(file)) {
                    throw new LogCorruptedException(file.path(), 0, activeFirstLsn, "the newest segment is packed; only "
                            + "sealed segments are packed, so the active segment after it is missing");
                }
                end = recoverTail(file, activeFirstLsn, options.maxRecordSize());
                // Only once nothing can refuse the open: a packing interrupted by a crash left these.
                SegmentFiles.deleteLeftoverTemporaries(fs, dir);
            } catch (IOException | RuntimeException e) {
                file.close();
                throw e;
            }
        }
        SegmentList segments = new SegmentList(firstLsns, stored, packed);
        LogWriter writer = new LogWriter(fs, dir, io, segments, file, activeFirstLsn, end);
        LogManager log = new LogManager(fs, dir, options, segments, writer, activeFirstLsn, end);
        log.flusher.start();
        LOG.info("opened transaction log {}: LSN {} to {} in {} segments, {} durability", dir, segments.firstLsn(), end,
                firstLsns.length, options.durability());
        return log;
    }

    /**
     * Scans the active segment, cuts off a torn tail, and returns the LSN after the last good record.
     * A bad record that an intact one follows is corruption ({@link TornTailRule}): then nothing is
     * truncated and the file is left exactly as it was.
     */
    private static long recoverTail(StorageFile file, long firstLsn, int maxRecordSize) throws IOException {
        long size = file.size();
        SegmentScanner scanner = new SegmentScanner(file, firstLsn, size, maxRecordSize);
        LogStopReason stop;
        while ((stop = scanner.next()) == null) {
            // Only the end position matters here.
        }
        long end = scanner.positionLsn();
        if (stop != LogStopReason.END_OF_LOG) {
            TornTailRule.requireTornTail(file, file.path(), firstLsn, size, end - firstLsn, scanner.stopDetail(),
                    maxRecordSize);
            LOG.warn("transaction log has a torn tail: {}; nothing intact follows it, so truncating {} bytes and the "
                    + "log continues at LSN {}", scanner.stopDetail(), size - (end - firstLsn), end);
            file.truncate(end - firstLsn);
        }
        // The records just scanned may have come from the page cache of a process that died before
        // its fsync; the log reports them durable from now on, so make them so.
        file.sync();
        return end;
    }

    /**
     * Checks that each sealed segment stands for exactly the LSNs up to the next one (a plain one by
     * its size, a packed one by its header) and fills in the bytes each stores and whether it is packed.
     */
    private static void checkContiguous(FileSystem fs, Path dir, long[] firstLsns, long[] stored, boolean[] packed)
            throws IOException {
        for (int i = 0; i < firstLsns.length - 1; i++) {
            Path path = SegmentFiles.path(dir, firstLsns[i]);
            long size = fs.size(path);
            long expected = firstLsns[i + 1] - firstLsns[i];
            stored[i] = size;
            if (PackedSegment.isPacked(fs, path)) {
                packed[i] = true;
                PackedSegmentFormat.Header h = PackedSegment.readHeader(fs, path, firstLsns[i]);
                if (h.endLsn() != firstLsns[i + 1]) {
                    throw new LogCorruptedException(path, 0, firstLsns[i], "packed segment ends at LSN " + h.endLsn()
                            + " but the next segment starts at LSN " + firstLsns[i + 1]);
                }
            } else if (size != expected) {
                throw new LogCorruptedException(path, Math.min(size, expected), firstLsns[i] + Math.min(size, expected),
                        "segment holds " + size + " bytes but the next segment starts at LSN " + firstLsns[i + 1]);
            }
        }
    }

    // ---- appending --------------------------------------------------------------------------------

    /**
     * Appends a record holding {@code payload}'s bytes between its position and limit (left
     * unchanged) and returns its LSN. The record is in memory only; see {@link #awaitDurable}.
     * Allocates nothing; blocks only while the log buffer is full.
     *
     * @throws IllegalArgumentException if the payload is larger than the maximum record size
     * @throws LogFailedException if the log has failed
     * @throws IllegalStateException if the log is closed
     */
    public long append(ByteBuffer payload) throws IOException {
        int length = payload.remaining();
        if (length > options.maxRecordSize()) {
            throw new IllegalArgumentException("log record payload of " + length + " bytes exceeds the maximum of "
                    + options.maxRecordSize());
        }
        int recordLength = LogRecordFormat.recordLength(length);
        CRC32C crc = CRC.get();
        LogRecordFormat.startChecksum(crc, payload);
        lock.lock();
        try {
            checkAppendableLocked();
            if (active.remaining() < recordLength) {
                bufferFullWaits++;
                do {
                    awaitSpaceLocked();
                } while (active.remaining() < recordLength);
            }
            long lsn = endLsn;
            if (lsn - appendSegmentFirstLsn + recordLength > options.segmentSize()) {
                appendSegmentFirstLsn = lsn;
                active.markSegmentStart(lsn);
            }
            boolean wasEmpty = active.isEmpty();
            if (wasEmpty) {
                firstPendingNanos = System.nanoTime();
            }
            active.append(payload, LogRecordFormat.finishChecksum(crc, lsn));
            endLsn = lsn + recordLength;
            appendedRecords++;
            appendedBytes += recordLength;
            if (flusherIdle && (syncDurability || wasEmpty)) {
                flushWanted.signal();
            }
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #append(ByteBuffer)} of a whole array. */
    public long append(byte[] payload) throws IOException {
        return append(ByteBuffer.wrap(payload));
    }

    /**
     * Appends a record and, with SYNC durability, waits until it is durable; returns its LSN. With
     * ASYNC durability it returns at once; the record becomes durable within the async sync interval.
     */
    public long commit(ByteBuffer payload) throws IOException {
        long lsn = append(payload);
        if (syncDurability) {
            awaitDurable(lsn);
        }
        return lsn;
    }

    /** {@link #commit(ByteBuffer)} of a whole array. */
    public long commit(byte[] payload) throws IOException {
        return commit(ByteBuffer.wrap(payload));
    }

    @GuardedBy("lock")
    private void checkAppendableLocked() throws LogFailedException {
        LogFailedException f = failure;
        if (f != null) {
            throw f.rethrowable();
        }
        if (closing) {
            throw new IllegalStateException("transaction log " + dir + " is closed");
        }
    }

    @GuardedBy("lock")
    private void awaitSpaceLocked() throws IOException {
        flushRequested = true;
        if (flusherIdle) {
            flushWanted.signal();
        }
        try {
            spaceAvailable.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room in the log buffer");
        }
        checkAppendableLocked();
    }

    // ---- durability -------------------------------------------------------------------------------

    /**
     * Blocks until the record at {@code lsn} (and so every record before it) is fsynced. Returns at
     * once if it already is, even if the log failed since.
     *
     * @throws LogFailedException if the log failed before the record was durable
     * @throws InterruptedIOException if interrupted (the record may still become durable later)
     * @throws IllegalArgumentException if no record at {@code lsn} was appended
     */
    public void awaitDurable(long lsn) throws IOException {
        if (lsn >= 0 && lsn < durableLsn) {
            return;
        }
        if (lsn < 0 || lsn >= endLsn) {
            throw new IllegalArgumentException("no record at LSN " + lsn + " was appended; the log ends at " + endLsn);
        }
        if (!syncDurability) {
            requestFlush();
        }
        DurabilityWaiters.Waiter waiter = waiters.add(lsn);
        try {
            while (true) {
                if (lsn < durableLsn) {
                    return;
                }
                LogFailedException f = failure;
                if (f != null) {
                    throw f.rethrowable();
                }
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for LSN " + lsn + " to become durable");
                }
            }
        } finally {
            waiters.remove(waiter);
        }
    }

    private void requestFlush() {
        lock.lock();
        try {
            flushRequested = true;
            if (flusherIdle) {
                flushWanted.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- the flusher ------------------------------------------------------------------------------

    private void runFlusher() {
        while (true) {
            LogBuffer batch;
            lock.lock();
            try {
                batch = awaitBatchLocked();
            } finally {
                lock.unlock();
            }
            if (batch == null) {
                return;
            }
            try {
                writer.write(batch);
            } catch (LogFailedException e) {
                fail(e);
                return;
            } catch (RuntimeException | Error e) {
                fail(LogFailedException.of("flush of", dir, new IOException("unexpected error in the log flusher", e),
                        durableLsn));
                throw e;
            }
            durableLsn = batch.endLsn();
            waiters.releaseBelow(batch.endLsn());
            spare = batch;
        }
    }

    /**
     * Waits until the active buffer should be flushed, swaps in the spare and returns the full
     * buffer; returns null when the flusher should stop (closed and drained, or failed).
     */
    @GuardedBy("lock")
    private LogBuffer awaitBatchLocked() {
        while (true) {
            if (failure != null) {
                return null;
            }
            long waitNanos = -1;
            if (!active.isEmpty()) {
                if (syncDurability || flushRequested || closing) {
                    return swapLocked();
                }
                waitNanos = firstPendingNanos + asyncIntervalNanos - System.nanoTime();
                if (waitNanos <= 0) {
                    return swapLocked();
                }
            } else if (closing) {
                return null;
            }
            flusherIdle = true;
            try {
                if (waitNanos < 0) {
                    flushWanted.await();
                } else {
                    flushWanted.awaitNanos(waitNanos);
                }
            } catch (InterruptedException e) {
                // Nobody interrupts the flusher; close() signals instead. Keep going.
            } finally {
                flusherIdle = false;
            }
        }
    }

    @GuardedBy("lock")
    private LogBuffer swapLocked() {
        LogBuffer full = active;
        spare.reset(full.endLsn());
        active = spare;
        spare = null;
        flushRequested = false;
        spaceAvailable.signalAll();
        return full;
    }

    private void fail(LogFailedException e) {
        lock.lock();
        try {
            if (failure == null) {
                failure = e;
            }
            spaceAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        waiters.releaseAll();
        LOG.error("{}", e.getMessage(), e.getCause());
    }

    // ---- truncation and accessors -----------------------------------------------------------------

    /** True if {@link #truncateBefore} with this {@code lsn} would delete a segment. */
    public boolean wouldTruncate(long lsn) {
        return segments.anyBefore(lsn);
    }

    /**
     * Deletes every segment all of whose records lie below {@code lsn} (typically the minimum, over
     * all trees, of the oldest LSN still only in memory). The active segment is never deleted.
     *
     * @return the number of segments deleted
     */
    public int truncateBefore(long lsn) throws IOException {
        synchronized (swapLock) {
            long[] doomed = segments.removeBefore(lsn);
            for (long firstLsn : doomed) {
                fs.delete(SegmentFiles.path(dir, firstLsn));
            }
            if (doomed.length > 0) {
                fs.syncDirectory(dir);
                LOG.debug("truncated transaction log {} before LSN {}: deleted {} segments, now starts at LSN {}", dir,
                        lsn, doomed.length, segments.firstLsn());
            }
            return doomed.length;
        }
    }

    // ---- packed segments (paper 002), for the SegmentPacker ---------------------------------------

    /** The sealed segments, oldest first. */
    List<SegmentList.Sealed> sealedSegments() {
        return segments.sealed();
    }

    /**
     * Replaces the sealed segment {@code firstLsn} with the complete, synced packed file {@code temp}:
     * renames it over the segment (atomic: a crash leaves the old or the new file, both replayable)
     * and syncs the directory before returning, so replacements become durable in the order made.
     * If truncation removed the segment meanwhile, deletes {@code temp} instead and returns false.
     */
    boolean replaceSealed(long firstLsn, Path temp, long storedBytes) throws IOException {
        synchronized (swapLock) {
            if (!segments.isSealed(firstLsn)) {
                fs.delete(temp);
                return false;
            }
            fs.rename(temp, SegmentFiles.path(dir, firstLsn));
            fs.syncDirectory(dir);
            segments.packed(firstLsn, storedBytes);
            return true;
        }
    }

    /** Bytes the sealed segments take on disk. */
    long sealedSegmentsStoredBytes() {
        return segments.sealedStoredBytes();
    }

    FileSystem fileSystem() {
        return fs;
    }

    Path directory() {
        return dir;
    }

    /**
     * Bytes the log takes on disk: the sealed segments as stored (packed ones smaller than their
     * span) plus the active segment's span. Equals {@link #sizeBytes()} while nothing is packed.
     */
    public long diskBytes() {
        return segments.sealedStoredBytes() + (endLsn - segments.activeFirstLsn());
    }

    /** Every record below this LSN is fsynced: the record at {@code x} is durable iff {@code x < durableLsn()}. */
    public long durableLsn() {
        return durableLsn;
    }

    /** The LSN the next record will get (the log's end, including records not yet durable). */
    public long endLsn() {
        return endLsn;
    }

    /** First LSN of the oldest segment kept. */
    public long firstLsn() {
        return segments.firstLsn();
    }

    /** Bytes of log kept: {@code endLsn() - firstLsn()}; compare with max-log-size to trigger flushes. */
    public long sizeBytes() {
        return endLsn - segments.firstLsn();
    }

    /** Number of segment files kept. */
    public int segmentCount() {
        return segments.count();
    }

    /** The failure that stopped the log, or null while it works. */
    public LogFailedException failure() {
        return failure;
    }

    public LogOptions options() {
        return options;
    }

    /** A copy of the log's counters. */
    public LogStatistics statistics() {
        long records;
        long bytes;
        long fullWaits;
        lock.lock();
        try {
            records = appendedRecords;
            bytes = appendedBytes;
            fullWaits = bufferFullWaits;
        } finally {
            lock.unlock();
        }
        LogWriter w = writer;
        return new LogStatistics(records, bytes, w.batches, w.writtenRecords, w.writtenBytes, w.fsyncs,
                w.directorySyncs, w.segmentsCreated, w.fsyncNanos, fullWaits);
    }

    /**
     * Writes and fsyncs every record appended so far, stops the flusher and closes the active
     * segment. Idempotent. Throws only if making the pending records durable fails now; a log that
     * failed earlier closes quietly (its committers were told).
     */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        LogFailedException failedBefore = failure;
        lock.lock();
        try {
            closing = true;
            flushWanted.signal();
            spaceAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        while (flusher.isAlive()) {
            try {
                flusher.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        writer.close();
        LogFailedException f = failure;
        if (f != null && failedBefore == null) {
            throw f.rethrowable();
        }
        LOG.info("closed transaction log {} at LSN {}", dir, endLsn);
    }
}
