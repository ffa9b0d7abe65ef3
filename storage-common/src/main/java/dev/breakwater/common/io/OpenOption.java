package dev.breakwater.common.io;

/** How {@link FileSystem#open} opens a file. */
public enum OpenOption {
    /** Open for reading only. Without {@link #WRITE}, write calls fail. */
    READ,
    /** Open for reading and writing. */
    WRITE,
    /** Create the file if it does not exist. */
    CREATE,
    /** Fail if the file exists (with {@link #CREATE}). */
    CREATE_NEW,
    /** Truncate an existing file to zero length. */
    TRUNCATE,
    /**
     * Bypass the operating system page cache (O_DIRECT) if the platform supports it, so that the
     * buffer cache is the only cache. Falls back to buffered I/O with one log line otherwise.
     */
    DIRECT
}
