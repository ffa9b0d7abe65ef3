package dev.breakwater.txn;

/** The engine refuses writes because a write, an fsync or space on disk failed earlier; acknowledged data is safe, reads keep working, and the engine must be reopened after the cause is fixed. */
public class StorageFailedException extends StorageException {

    private static final long serialVersionUID = 1L;

    public StorageFailedException(String message) {
        super(message);
    }

    public StorageFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
