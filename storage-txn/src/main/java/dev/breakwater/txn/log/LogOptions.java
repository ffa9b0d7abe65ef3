package dev.breakwater.txn.log;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;

/**
 * Settings of a {@link LogManager}.
 *
 * @param segmentSize            largest size of a segment file in bytes; a record that does not fit in
 *                               the rest of a segment starts the next one
 * @param durability             SYNC: {@link LogManager#commit} returns after its record is fsynced;
 *                               ASYNC: it returns once the record is in the log buffer
 * @param asyncSyncIntervalMillis with ASYNC, the longest a record waits in memory before the flusher
 *                               writes and syncs it (without anyone waiting for it)
 * @param maxRecordSize          largest payload in bytes; the engine refuses the write that would take a
 *                               transaction past it ({@code max-transaction-size})
 * @param bufferSize             bytes of each of the two log buffers (one fills while the other is
 *                               written); must hold at least one largest record. Appenders wait when
 *                               the filling buffer is full.
 */
public record LogOptions(long segmentSize, Durability durability, long asyncSyncIntervalMillis, int maxRecordSize,
                         int bufferSize) {

    /** Default largest payload: 1 MiB (the default of {@code max-transaction-size}). */
    public static final int DEFAULT_MAX_RECORD_SIZE = 1 << 20;
    /**
     * Default buffer size: 4 MiB. At 6,000 fsyncs/s (docs: NOTES.md) a 4 MiB batch per fsync
     * allows ~24 GB/s of log, far above the disk, so the buffer is never the bottleneck.
     */
    public static final int DEFAULT_BUFFER_SIZE = 4 << 20;

    public LogOptions {
        if (durability == null) {
            throw new IllegalArgumentException("durability is required");
        }
        if (maxRecordSize < 0) {
            throw new IllegalArgumentException("negative maxRecordSize " + maxRecordSize);
        }
        long largestRecord = LogRecordFormat.recordLength(0) + (long) maxRecordSize;
        if (segmentSize < largestRecord) {
            throw new IllegalArgumentException("segmentSize " + segmentSize + " cannot hold a record of maxRecordSize "
                    + maxRecordSize + " plus its " + LogRecordFormat.HEADER_LENGTH + "-byte header");
        }
        if (bufferSize < largestRecord) {
            throw new IllegalArgumentException("bufferSize " + bufferSize + " cannot hold a record of maxRecordSize "
                    + maxRecordSize + " plus its " + LogRecordFormat.HEADER_LENGTH + "-byte header");
        }
        if (asyncSyncIntervalMillis < 1) {
            throw new IllegalArgumentException("asyncSyncIntervalMillis must be at least 1: " + asyncSyncIntervalMillis);
        }
    }

    /**
     * The log settings of an engine configuration: the largest record is {@code max-transaction-size}
     * (capped so that a record fits one segment), and each buffer holds at least one largest record.
     */
    public static LogOptions fromConfig(StorageConfig config) {
        long segmentSize = config.get(ConfigOptions.LOG_SEGMENT_SIZE);
        int maxRecord = (int) Math.min(config.get(ConfigOptions.MAX_TRANSACTION_SIZE), segmentSize - LogRecordFormat.HEADER_LENGTH);
        int bufferSize = Math.max(DEFAULT_BUFFER_SIZE, LogRecordFormat.recordLength(maxRecord));
        return new LogOptions(segmentSize, config.get(ConfigOptions.DURABILITY),
                config.get(ConfigOptions.ASYNC_SYNC_INTERVAL), maxRecord, bufferSize);
    }

    /** Options for {@code segmentSize} and {@code durability}, other settings at their defaults. */
    public static LogOptions of(long segmentSize, Durability durability) {
        int maxRecord = (int) Math.min(DEFAULT_MAX_RECORD_SIZE, segmentSize - LogRecordFormat.HEADER_LENGTH);
        return new LogOptions(segmentSize, durability, ConfigOptions.ASYNC_SYNC_INTERVAL.defaultValue(), maxRecord,
                DEFAULT_BUFFER_SIZE);
    }

    public LogOptions withAsyncSyncIntervalMillis(long millis) {
        return new LogOptions(segmentSize, durability, millis, maxRecordSize, bufferSize);
    }

    public LogOptions withMaxRecordSize(int bytes) {
        return new LogOptions(segmentSize, durability, asyncSyncIntervalMillis, bytes, bufferSize);
    }

    public LogOptions withBufferSize(int bytes) {
        return new LogOptions(segmentSize, durability, asyncSyncIntervalMillis, maxRecordSize, bytes);
    }
}
