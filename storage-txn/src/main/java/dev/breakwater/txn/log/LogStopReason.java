package dev.breakwater.txn.log;

/** Why a scan of the log stopped. Every reason but {@link #END_OF_LOG} is a torn (or damaged) record. */
public enum LogStopReason {
    /** The last segment ended exactly after a good record. */
    END_OF_LOG,
    /** Fewer bytes than a record header were left at the end of the segment. */
    SHORT_HEADER,
    /** The header's payload length is above the log's largest record size. */
    BAD_LENGTH,
    /** The header's payload length reaches past the end of the segment file. */
    LENGTH_PAST_END,
    /** The CRC32C over payload and LSN does not match the header. */
    BAD_CHECKSUM,
    /** The record is intact but carries another position's LSN (stale or misplaced bytes). */
    LSN_MISMATCH,
    /** Replay stopped at damage that is not a torn tail, and salvage moved the rest of the log aside. */
    SALVAGED
}
