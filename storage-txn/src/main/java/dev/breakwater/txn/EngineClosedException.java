package dev.breakwater.txn;

/** The engine was closed; no further operation is possible. */
public class EngineClosedException extends StorageException {

    private static final long serialVersionUID = 1L;

    public EngineClosedException(String message) {
        super(message);
    }

    public EngineClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
