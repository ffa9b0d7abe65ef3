package dev.breakwater.txn;

/**
 * {@link StorageEngine#open} refused a data directory because of what it holds: files it does not
 * recognise as its own, a missing or damaged catalog or manifest, a table its records name but
 * cannot find. The message names the directory and the file, says what is wrong and how to recover.
 * Nothing was deleted or changed.
 */
public class DataDirectoryException extends StorageException {

    private static final long serialVersionUID = 1L;

    public DataDirectoryException(String message) {
        super(message);
    }

    public DataDirectoryException(String message, Throwable cause) {
        super(message, cause);
    }
}
