package dev.breakwater.txn;

/**
 * A write would take its transaction's log record past {@code max-transaction-size}. Thrown by the
 * write itself, before it is buffered: the transaction keeps its earlier writes and can still be
 * committed (or split by the caller into several transactions).
 */
public class TransactionTooLargeException extends StorageException {

    private static final long serialVersionUID = 1L;

    public TransactionTooLargeException(String message) {
        super(message);
    }
}
