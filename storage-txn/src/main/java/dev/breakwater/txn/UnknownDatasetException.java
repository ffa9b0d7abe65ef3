package dev.breakwater.txn;

/** No dataset of that name exists (never created, or dropped). */
public class UnknownDatasetException extends StorageException {

    private static final long serialVersionUID = 1L;

    public UnknownDatasetException(String message) {
        super(message);
    }

    public UnknownDatasetException(String message, Throwable cause) {
        super(message, cause);
    }
}
