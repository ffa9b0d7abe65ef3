package dev.breakwater.txn;

/** A record or key is larger than the engine can store (it must fit in one page of the write memory and of a disk component). */
public class RecordTooLargeException extends StorageException {

    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(String message) {
        super(message);
    }

    public RecordTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
