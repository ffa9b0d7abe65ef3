package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The I/O half of the {@link LogManager}: writes a {@link LogBuffer} into the segment files with
 * positional writes, creating new segments where the buffer says one starts, and fsyncs.
 *
 * <p>Ordering that recovery relies on: before a segment is created, its predecessor is completely
 * written and fsynced; a new segment's directory entry is fsynced before anything in it is reported
 * durable. So in any crash image, every segment but the last is complete, and only the last can
 * have a torn tail.
 *
 * <p>Invariants: (1) {@code current} is the active segment, the last of the {@link SegmentList};
 * (2) every byte below {@code syncedEnd} is fsynced; (3) after a failure nothing is written or
 * synced again (the caller stops using the writer).
 *
 * <p>Thread safety: confined to the flusher thread (and to the opener before it starts). The
 * counters are volatile, written by that one thread, read by anyone.
 */
final class LogWriter {

    private final FileSystem fs;
    private final Path dir;
    private final IoStatistics io;
    private final SegmentList segments;

    private StorageFile current;
    private long currentFirstLsn;
    private long syncedEnd;
    private long writtenEnd;

    volatile long batches;
    volatile long writtenRecords;
    volatile long writtenBytes;
    volatile long fsyncs;
    volatile long directorySyncs;
    volatile long segmentsCreated;
    volatile long fsyncNanos;

    /** A writer appending at {@code endLsn} to the open segment {@code current}. */
    LogWriter(FileSystem fs, Path dir, IoStatistics io, SegmentList segments, StorageFile current,
              long currentFirstLsn, long endLsn) {
        this.fs = fs;
        this.dir = dir;
        this.io = io;
        this.segments = segments;
        this.current = current;
        this.currentFirstLsn = currentFirstLsn;
        this.syncedEnd = endLsn;
        this.writtenEnd = endLsn;
    }

    /**
     * Writes and fsyncs every record of {@code batch}. On return, everything below {@code
     * batch.endLsn()} is durable. Requires: {@code batch.startLsn()} is where the last batch ended.
     *
     * @throws LogFailedException naming the failed operation and file; the writer is then unusable
     */
    void write(LogBuffer batch) throws LogFailedException {
        long firstNonDurable = syncedEnd;
        long position = batch.startLsn();
        for (int i = 0; i < batch.segmentStartCount(); i++) {
            long segmentStart = batch.segmentStart(i);
            writeRange(batch, position, segmentStart, firstNonDurable);
            roll(segmentStart, firstNonDurable);
            position = segmentStart;
        }
        writeRange(batch, position, batch.endLsn(), firstNonDurable);
        syncCurrent(firstNonDurable);
        batches++;
        writtenRecords += batch.records();
        writtenBytes += batch.usedBytes();
    }

    private void writeRange(LogBuffer batch, long from, long to, long firstNonDurable) throws LogFailedException {
        if (to == from) {
            return;
        }
        long offset = from - currentFirstLsn;
        ByteBuffer bytes = batch.window(from, to);
        try {
            current.write(offset, bytes);
        } catch (IOException e) {
            throw LogFailedException.of("write of " + (to - from) + " bytes at offset " + offset + " of", current.path(),
                    e, firstNonDurable);
        }
        writtenEnd = to;
        io.recordWrite(IoPurpose.LOG, 0, to - from);
    }

    private void syncCurrent(long firstNonDurable) throws LogFailedException {
        if (syncedEnd == writtenEnd) {
            return;
        }
        long start = System.nanoTime();
        try {
            current.sync();
        } catch (IOException e) {
            // Never retried: see LogFailedException (fsyncgate).
            throw LogFailedException.of("fsync of", current.path(), e, firstNonDurable);
        }
        fsyncNanos += System.nanoTime() - start;
        fsyncs++;
        syncedEnd = writtenEnd;
    }

    /** Completes the active segment and starts a new one at {@code firstLsn}. */
    private void roll(long firstLsn, long firstNonDurable) throws LogFailedException {
        syncCurrent(firstNonDurable);
        Path path = SegmentFiles.path(dir, firstLsn);
        StorageFile next;
        try {
            current.close();
        } catch (IOException e) {
            throw LogFailedException.of("close of", current.path(), e, firstNonDurable);
        }
        try {
            next = fs.open(path, OpenOption.CREATE_NEW, OpenOption.WRITE);
        } catch (IOException e) {
            throw LogFailedException.of("creation of segment", path, e, firstNonDurable);
        }
        current = next;
        currentFirstLsn = firstLsn;
        segmentsCreated++;
        try {
            fs.syncDirectory(dir);
        } catch (IOException e) {
            throw LogFailedException.of("fsync of the directory entry of new segment", path, e, firstNonDurable);
        }
        directorySyncs++;
        segments.add(firstLsn);
    }

    /** Closes the active segment file. */
    void close() throws IOException {
        current.close();
    }
}
