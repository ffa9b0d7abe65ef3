package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Thrown by {@link FileSystem#lock} when another holder (another process, or another caller in
 * this process) already holds the lock. Names the file and, when the lock file records it, the
 * holder's process id.
 */
public final class FileLockedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;
    private final long holderPid;

    public FileLockedException(Path path, long holderPid) {
        super("lock file " + path + " is held by "
                + (holderPid < 0 ? "another holder (process id unknown)" : "process " + holderPid
                        + (holderPid == ProcessHandle.current().pid() ? " (this process)" : "")));
        this.path = path;
        this.holderPid = holderPid;
    }

    /** The lock file. */
    public Path path() {
        return path;
    }

    /** The holder's process id as recorded in the lock file, or -1 if unknown. */
    public long holderPid() {
        return holderPid;
    }
}
