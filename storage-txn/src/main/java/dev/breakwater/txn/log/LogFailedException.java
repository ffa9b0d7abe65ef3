package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Thrown by every {@link LogManager} call after a write, fsync or segment creation of the log
 * failed. The message names the operation, the file and the cause, and states the LSN from which
 * nothing is durable. The log never retries: after a failed fsync the kernel may have dropped the
 * dirty pages and cleared the error (PostgreSQL's "fsyncgate"), so a retried fsync could succeed
 * without the data being on disk. Reopening the log (recovery) is the only way on.
 */
public final class LogFailedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final boolean noSpace;
    private final long firstNonDurableLsn;

    private LogFailedException(String message, IOException cause, boolean noSpace, long firstNonDurableLsn) {
        super(message, cause);
        this.noSpace = noSpace;
        this.firstNonDurableLsn = firstNonDurableLsn;
    }

    /**
     * The failure of {@code operation} (for example "fsync" or "write 4096 bytes at offset 0 of") on
     * {@code path}, after which no record at or above {@code firstNonDurableLsn} is durable.
     */
    static LogFailedException of(String operation, Path path, IOException cause, long firstNonDurableLsn) {
        boolean noSpace = isNoSpace(cause);
        String message = "transaction log failed: " + (noSpace ? "no space left on device: " : "") + operation + " "
                + path + " failed (" + cause + "); records from LSN " + firstNonDurableLsn
                + " on are not durable and the log accepts no more records until it is reopened";
        return new LogFailedException(message, cause, noSpace, firstNonDurableLsn);
    }

    /** A fresh exception with the same message and cause, so each caller gets its own stack trace. */
    LogFailedException rethrowable() {
        return new LogFailedException(getMessage(), (IOException) getCause(), noSpace, firstNonDurableLsn);
    }

    /** True if the failure was the device running out of space. */
    public boolean noSpace() {
        return noSpace;
    }

    /** Records at or above this LSN were never made durable. */
    public long firstNonDurableLsn() {
        return firstNonDurableLsn;
    }

    private static boolean isNoSpace(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            String m = c.getMessage();
            if (m != null) {
                String lower = m.toLowerCase(Locale.ROOT);
                if (lower.contains("no space left on device") || lower.contains("enospc")
                        || lower.contains("disk quota exceeded")) {
                    return true;
                }
            }
        }
        return false;
    }
}
