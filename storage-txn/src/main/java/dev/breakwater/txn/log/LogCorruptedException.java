package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The log is damaged somewhere other than its tail: a bad record in a segment that is not the last,
 * a segment whose length does not reach the next segment's first LSN, or a missing segment. Unlike
 * a torn tail (the expected result of a crash during a write, which ends replay cleanly) this means
 * records that were once durable are gone, so recovery must not carry on silently.
 */
public final class LogCorruptedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path segment;
    private final long lsn;

    LogCorruptedException(Path segment, long lsn, String detail) {
        super("transaction log corrupted in " + segment + " at LSN " + lsn + ": " + detail);
        this.segment = segment;
        this.lsn = lsn;
    }

    /** The segment file that holds the damage. */
    public Path segment() {
        return segment;
    }

    /** The LSN at which the damage starts. */
    public long lsn() {
        return lsn;
    }
}
