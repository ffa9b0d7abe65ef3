package dev.breakwater.txn;

import java.util.Objects;

/**
 * Thrown when the storage engine aborts a transaction it could not let proceed. The transaction
 * has not committed; its owner must release everything it holds (for locks:
 * {@code LockManager.releaseAll}) and may retry from the beginning.
 *
 * <p>The message says which resource the transaction was waiting for and why it was chosen (for a
 * deadlock: the waits-for cycle; for a timeout: the holders at the time).
 */
public class TransactionAbortedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a transaction was aborted. */
    public enum Reason {
        /** The transaction was part of a waits-for cycle and was chosen as its victim. */
        DEADLOCK,
        /** A lock wait lasted longer than the configured lock-wait timeout. */
        LOCK_TIMEOUT,
        /** The waiting thread was interrupted; the interrupt status is set again before throwing. */
        INTERRUPTED
    }

    private final Reason reason;

    public TransactionAbortedException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** Why the transaction was aborted. */
    public Reason reason() {
        return reason;
    }

    /** True when retrying the transaction from the start can succeed (every reason here is transient). */
    public boolean isRetryable() {
        return reason != Reason.INTERRUPTED;
    }
}
