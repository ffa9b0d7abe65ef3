package dev.breakwater.txn.log;

/**
 * A copy of a {@link LogManager}'s counters since it was opened. Not atomic across fields: each is
 * exact at some instant during {@link LogManager#statistics()}.
 *
 * @param appendedRecords  records appended (assigned an LSN)
 * @param appendedBytes    bytes appended, headers included
 * @param batches          buffers the flusher wrote (each: one or more positional writes, then fsync)
 * @param writtenRecords   records written by those batches
 * @param writtenBytes     bytes written by those batches, headers included (also counted under
 *                         {@code IoPurpose.LOG} in the engine's I/O statistics)
 * @param fsyncs           fsyncs of segment files: one per batch, plus one per segment a batch finished
 * @param directorySyncs   fsyncs of the log directory (one per segment created)
 * @param segmentsCreated  segment files created
 * @param fsyncNanos       time spent in segment fsyncs
 * @param bufferFullWaits  appends that waited because the log buffer was full
 */
public record LogStatistics(long appendedRecords, long appendedBytes, long batches, long writtenRecords,
                            long writtenBytes, long fsyncs, long directorySyncs, long segmentsCreated,
                            long fsyncNanos, long bufferFullWaits) {

    /** Group-commit efficiency: records made durable per segment fsync (0 before the first fsync). */
    public double recordsPerFsync() {
        return fsyncs == 0 ? 0 : (double) writtenRecords / fsyncs;
    }

    /** Mean fsync latency in microseconds (0 before the first fsync). */
    public double meanFsyncMicros() {
        return fsyncs == 0 ? 0 : fsyncNanos / 1000.0 / fsyncs;
    }
}
