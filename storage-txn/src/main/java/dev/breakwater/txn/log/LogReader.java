package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the transaction log for recovery: every record from a start LSN on, across segments in
 * order, each checked by {@link SegmentScanner}.
 *
 * <p>Where replay stops:
 * <ul>
 *   <li>At the clean end of the last segment, or at a torn tail: a bad record in the last segment
 *       that no intact record follows ({@link TornTailRule}), which is what a crash during a write
 *       leaves. The {@link ReplayResult} says where and why; a {@link LogManager} opened afterwards
 *       truncates the torn bytes and appends right there.</li>
 *   <li>Anything else is a {@link LogCorruptedException} naming the segment and byte offset: a bad
 *       record in a segment that is not the last, a bad record in the last segment followed by an
 *       intact one, a segment whose size does not end exactly at the next segment's first LSN, or a
 *       start LSN below the oldest segment. The {@link LogManager} completes and fsyncs each segment
 *       before it creates the next, and fsyncs each batch before a later one, so such damage means
 *       once-durable records are lost, and must not be skipped silently.</li>
 * </ul>
 * Packed segments (trimmed and/or LZ4-compressed, {@link PackedSegmentFormat}) are read whole and
 * decompressed by a few threads ahead of replay ({@link PackedSegmentPrefetch}); their records are
 * replayed in LSN order like any others. Any damage in a packed segment is corruption: it is only
 * ever created complete and synced, and is never the last segment.
 *
 * <p>The reader never changes a file.
 *
 * <p>Progress (records, MB, MB/s) is logged every few seconds and at the end.
 *
 * <p>Thread safety: a reader holds no state between calls; {@link #forEach} must not run while a
 * {@link LogManager} is open on the same directory (recovery runs before the log is opened).
 */
public final class LogReader {

    private static final Logger LOG = LoggerFactory.getLogger(LogReader.class);
    private static final long PROGRESS_INTERVAL_NANOS = 5_000_000_000L;
    private static final double MB = 1024.0 * 1024.0;
    /**
     * Threads that read and decompress packed segments ahead of replay (paper 002 section 4.5 uses
     * four); replay itself stays in LSN order on the calling thread.
     */
    static final int DECOMPRESS_THREADS = 3;

    private final FileSystem fs;
    private final Path dir;
    private final int maxRecordSize;
    private final IoStatistics io;

    /**
     * A reader of the log in {@code dir}. {@code maxRecordSize} bounds the payload lengths it accepts
     * (a larger length is treated as damage), so it must be at least the size the log was written with.
     */
    public LogReader(FileSystem fs, Path dir, int maxRecordSize, IoStatistics io) {
        this.fs = fs;
        this.dir = dir;
        this.maxRecordSize = maxRecordSize;
        this.io = io;
    }

    /**
     * Passes every good record with an LSN at or above {@code fromLsn} to {@code consumer}, in LSN
     * order, and reports where the log ends. If {@code fromLsn} lies inside a record, replay starts
     * at the next record.
     *
     * @throws LogCorruptedException on damage anywhere but a torn tail of the last segment, or if the
     *     segments holding {@code fromLsn} were already deleted. By then every record in {@code
     *     [fromLsn, e.lsn())} has been passed to the consumer and none after: what salvage relies on.
     */
    public ReplayResult forEach(long fromLsn, LogRecordConsumer consumer) throws IOException {
        if (fromLsn < 0) {
            throw new IllegalArgumentException("negative LSN " + fromLsn);
        }
        long[] firstLsns = fs.exists(dir) ? SegmentFiles.list(fs, dir) : new long[0];
        if (firstLsns.length == 0) {
            return new ReplayResult(fromLsn, 0, 0, 0, LogStopReason.END_OF_LOG, "no log segments in " + dir, null);
        }
        if (fromLsn < firstLsns[0]) {
            throw new LogCorruptedException(SegmentFiles.path(dir, firstLsns[0]), 0, fromLsn, "replay must start at LSN "
                    + fromLsn + " but the oldest segment starts at LSN " + firstLsns[0]
                    + ": segments still needed were deleted");
        }
        int first = firstLsns.length - 1;
        while (firstLsns[first] > fromLsn) {
            first--;
        }

        Progress progress = new Progress(fromLsn);
        LOG.info("replaying transaction log in {} from LSN {} ({} segments)", dir, fromLsn, firstLsns.length - first);
        try (PackedSegmentPrefetch prefetch = new PackedSegmentPrefetch(fs, dir, firstLsns, first, DECOMPRESS_THREADS)) {
            for (int i = first; i < firstLsns.length; i++) {
                boolean last = i == firstLsns.length - 1;
                Path path = SegmentFiles.path(dir, firstLsns[i]);
                if (prefetch.isPacked(i)) {
                    if (last) {
                        throw new LogCorruptedException(path, 0, firstLsns[i], "the newest segment is packed; only sealed "
                                + "segments are packed, so the active segment after it is missing");
                    }
                    PackedSegment packed = prefetch.take(i);
                    checkPackedEnd(packed, firstLsns[i + 1]);
                    RecordBlockScanner scanner = new RecordBlockScanner(packed, maxRecordSize);
                    while (scanner.next()) {
                        if (scanner.recordLsn() >= fromLsn) {
                            consumer.accept(scanner.recordLsn(), scanner.payload());
                            progress.record(scanner.recordLsn(), scanner.recordBytes());
                        }
                    }
                    io.recordRead(IoPurpose.LOG, 0, packed.storedBytes);
                    continue;
                }
                try (StorageFile file = fs.open(path, OpenOption.READ)) {
                    long size = file.size();
                    // A complete segment ends exactly where the next begins; read no further than that.
                    long expected = last ? size : firstLsns[i + 1] - firstLsns[i];
                    SegmentScanner scanner = new SegmentScanner(file, firstLsns[i], Math.min(size, expected), maxRecordSize);
                    LogStopReason stop;
                    while ((stop = scanner.next()) == null) {
                        if (scanner.recordLsn() >= fromLsn) {
                            consumer.accept(scanner.recordLsn(), scanner.payload());
                            progress.record(scanner.recordLsn(), scanner.recordBytes());
                        }
                    }
                    long stopOffset = scanner.positionLsn() - firstLsns[i];
                    io.recordRead(IoPurpose.LOG, 0, stopOffset);
                    if (stop != LogStopReason.END_OF_LOG) {
                        if (!last) {
                            throw new LogCorruptedException(path, stopOffset, scanner.positionLsn(), "damaged record in a "
                                    + "segment that is not the last: " + scanner.stopDetail());
                        }
                        TornTailRule.requireTornTail(file, path, firstLsns[i], size, stopOffset, scanner.stopDetail(),
                                maxRecordSize);
                        LOG.warn("transaction log ends at a torn record: {}; nothing intact follows it, so it is the "
                                + "unsynced end a crash left; replay stops at LSN {}", scanner.stopDetail(),
                                scanner.positionLsn());
                    } else if (size != expected) {
                        throw new LogCorruptedException(path, stopOffset, scanner.positionLsn(), "segment holds " + size
                                + " bytes but the next segment starts at LSN " + firstLsns[i + 1] + ", " + expected
                                + " bytes after this one's start (" + (size < expected ? "bytes or a segment are missing"
                                : "extra bytes") + ")");
                    }
                    if (last) {
                        ReplayResult result = new ReplayResult(fromLsn, scanner.positionLsn(), progress.records,
                                progress.bytes, stop, scanner.stopDetail(), path);
                        progress.finish(result);
                        return result;
                    }
                }
            }
        }
        throw new AssertionError("unreachable");
    }

    /**
     * Reads one segment on its own, without modifying anything (for inspection tools): passes every
     * good record to {@code consumer} and reports where the scan stopped and why. Damage is reported
     * in the result ({@link ReplayResult#stopReason()}, {@link ReplayResult#detail()}), not thrown,
     * whether or not the segment is the last.
     *
     * @param firstLsn the segment's first LSN (its name), as {@link SegmentFiles#list} returns it
     */
    public ReplayResult scanSegment(long firstLsn, LogRecordConsumer consumer) throws IOException {
        Path path = SegmentFiles.path(dir, firstLsn);
        if (PackedSegment.isPacked(fs, path)) {
            long records = 0;
            long bytes = 0;
            long end = firstLsn;
            try {
                PackedSegment packed = PackedSegment.read(fs, path, firstLsn);
                end = packed.header.endLsn();
                RecordBlockScanner scanner = new RecordBlockScanner(packed, maxRecordSize);
                while (scanner.next()) {
                    consumer.accept(scanner.recordLsn(), scanner.payload());
                    records++;
                    bytes += scanner.recordBytes();
                }
                io.recordRead(IoPurpose.LOG, 0, packed.storedBytes);
            } catch (LogCorruptedException e) {
                return new ReplayResult(firstLsn, e.lsn(), records, bytes, LogStopReason.BAD_CHECKSUM, e.getMessage(), path);
            }
            return new ReplayResult(firstLsn, end, records, bytes, LogStopReason.END_OF_LOG, "end of packed segment " + path,
                    path);
        }
        try (StorageFile file = fs.open(path, OpenOption.READ)) {
            SegmentScanner scanner = new SegmentScanner(file, firstLsn, file.size(), maxRecordSize);
            long records = 0;
            long bytes = 0;
            LogStopReason stop;
            while ((stop = scanner.next()) == null) {
                consumer.accept(scanner.recordLsn(), scanner.payload());
                records++;
                bytes += scanner.recordBytes();
            }
            io.recordRead(IoPurpose.LOG, 0, scanner.positionLsn() - firstLsn);
            return new ReplayResult(firstLsn, scanner.positionLsn(), records, bytes, stop, scanner.stopDetail(), path);
        }
    }

    /** A packed segment must stand for exactly the LSNs up to the next segment. */
    private static void checkPackedEnd(PackedSegment packed, long nextFirstLsn) throws LogCorruptedException {
        if (packed.header.endLsn() != nextFirstLsn) {
            throw new LogCorruptedException(packed.path, 0, packed.header.firstLsn(), "packed segment ends at LSN "
                    + packed.header.endLsn() + " but the next segment starts at LSN " + nextFirstLsn
                    + " (a segment is missing or extra)");
        }
    }

    /** Counts replayed records and logs progress. Not thread-safe. */
    private static final class Progress {
        private final long startNanos = System.nanoTime();
        private final long fromLsn;
        private long lastReportNanos = startNanos;
        long records;
        long bytes;

        Progress(long fromLsn) {
            this.fromLsn = fromLsn;
        }

        void record(long lsn, int recordBytes) {
            records++;
            bytes += recordBytes;
            if ((records & 1023) == 0) {
                long now = System.nanoTime();
                if (now - lastReportNanos >= PROGRESS_INTERVAL_NANOS) {
                    lastReportNanos = now;
                    LOG.info("log replay: {} records, {} MB, {} MB/s, at LSN {}", records, mb(bytes),
                            rate(bytes, now - startNanos), lsn);
                }
            }
        }

        void finish(ReplayResult result) {
            long elapsed = System.nanoTime() - startNanos;
            LOG.info("log replay done: {} records, {} MB in {} ms ({} MB/s), LSN {} to {}, {}", records, mb(bytes),
                    elapsed / 1_000_000, rate(bytes, elapsed), fromLsn, result.endLsn(),
                    result.tornTail() ? "torn tail: " + result.detail() : "clean end");
        }

        private static String mb(long bytes) {
            return String.format("%.1f", bytes / MB);
        }

        private static String rate(long bytes, long nanos) {
            return String.format("%.1f", nanos == 0 ? 0.0 : bytes / MB / (nanos / 1e9));
        }
    }
}
