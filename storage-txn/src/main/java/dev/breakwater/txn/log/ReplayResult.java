package dev.breakwater.txn.log;

import java.nio.file.Path;

/**
 * Where and why a {@link LogReader#forEach} replay stopped.
 *
 * @param fromLsn     the LSN replay was asked to start at
 * @param endLsn      LSN just past the last good record: the log continues here after reopening
 * @param records     records passed to the consumer
 * @param bytes       bytes of those records, headers included
 * @param stopReason  {@link LogStopReason#END_OF_LOG}, what was wrong with the torn tail record, or
 *                    {@link LogStopReason#SALVAGED}
 * @param detail      a human-readable account of the stop (file, offset, values found)
 * @param lastSegment the segment replay stopped in, or null if the log has no segments
 */
public record ReplayResult(long fromLsn, long endLsn, long records, long bytes, LogStopReason stopReason,
                           String detail, Path lastSegment) {

    /** True if replay ended at a torn record rather than at a clean end of the log. */
    public boolean tornTail() {
        return stopReason != LogStopReason.END_OF_LOG && stopReason != LogStopReason.SALVAGED;
    }

    /** True if replay stopped at corruption and salvage moved the rest of the log aside (records were lost). */
    public boolean salvaged() {
        return stopReason == LogStopReason.SALVAGED;
    }
}
