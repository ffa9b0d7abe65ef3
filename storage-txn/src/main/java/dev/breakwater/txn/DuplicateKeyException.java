package dev.breakwater.txn;

/** An insert found a record with the same primary key. */
public class DuplicateKeyException extends StorageException {

    private static final long serialVersionUID = 1L;

    public DuplicateKeyException(String message) {
        super(message);
    }

    public DuplicateKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
