package dev.breakwater.txn;

/**
 * {@link StorageEngine#open} found the data directory already open: another engine, in this process
 * or another, holds its {@code LOCK} file. The message names the directory and, when the lock file
 * records it, the holder's process id.
 */
public class DirectoryInUseException extends StorageException {

    private static final long serialVersionUID = 1L;

    private final long holderPid;

    public DirectoryInUseException(String message, long holderPid, Throwable cause) {
        super(message, cause);
        this.holderPid = holderPid;
    }

    /** The process id of the engine holding the directory, or -1 if unknown. */
    public long holderPid() {
        return holderPid;
    }
}
