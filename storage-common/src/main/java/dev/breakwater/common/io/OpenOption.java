package dev.breakwater.common.io;

/**
 * How {@link FileSystem#open} opens a file. Options combine as follows (every implementation
 * follows the same rules): {@link #WRITE}, {@link #CREATE}, {@link #CREATE_NEW} and {@link #TRUNCATE}
 * each make the file writable; {@link #CREATE_NEW} implies {@link #CREATE}; with no options or only
 * {@link #READ} the file is read-only. Opening a missing file without {@link #CREATE} throws
 * {@link java.nio.file.NoSuchFileException}; a missing parent directory is never created.
 */
public enum OpenOption {
    /** Open for reading only. Without {@link #WRITE}, write calls fail. */
    READ,
    /** Open for reading and writing. */
    WRITE,
    /** Create the file if it does not exist. */
    CREATE,
    /** Create the file, failing with {@link java.nio.file.FileAlreadyExistsException} if it exists. */
    CREATE_NEW,
    /** Truncate an existing file to zero length. */
    TRUNCATE,
    /**
     * Bypass the operating system page cache (O_DIRECT) if the platform supports it, so that the
     * buffer cache is the only cache. Falls back to buffered I/O with one log line otherwise.
     */
    DIRECT
}
