package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The log is damaged somewhere a crash cannot explain: a bad record in a segment that is not the
 * last, a bad record in the last segment that is followed by an intact record, a segment whose
 * length does not reach the next segment's first LSN, or a missing segment. Unlike a torn tail (the
 * expected result of a crash during a write, which ends replay cleanly) this means records that were
 * once durable are unreadable, so recovery must not carry on silently. Nothing has been changed on
 * disk when this is thrown; the message says how to recover.
 */
public final class LogCorruptedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path segment;
    private final long offset;
    private final long lsn;

    /**
     * @param segment the damaged segment file
     * @param offset  the byte offset in that file at which the damage starts
     * @param lsn     the LSN of that byte (the segment's first LSN plus {@code offset})
     * @param detail  what is wrong
     */
    public LogCorruptedException(Path segment, long offset, long lsn, String detail) {
        super("transaction log corrupted in " + segment + " at byte offset " + offset + " (LSN " + lsn + "): " + detail
                + ". Records at and after this point are not replayed. Restore the log from a backup, or open with"
                + " log-recovery: SALVAGE to recover every record before this point (the damaged segments are"
                + " moved aside, not deleted)");
        this.segment = segment;
        this.offset = offset;
        this.lsn = lsn;
    }

    /** The segment file that holds the damage. */
    public Path segment() {
        return segment;
    }

    /** The byte offset in {@link #segment()} at which the damage starts. */
    public long offset() {
        return offset;
    }

    /** The LSN at which the damage starts: every record below it is intact. */
    public long lsn() {
        return lsn;
    }
}
