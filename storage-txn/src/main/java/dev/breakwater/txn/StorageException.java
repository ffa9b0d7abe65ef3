package dev.breakwater.txn;

/**
 * Base of the exceptions Breakwater's public API throws. Unchecked, so that transaction lambdas stay
 * readable; each subclass names a specific failure and its message names the dataset, index, field
 * or file involved.
 */
public class StorageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
