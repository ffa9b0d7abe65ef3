package dev.breakwater.common.io;

/**
 * The kinds of file-system operation a {@link FaultInjector} can fail and a
 * {@link FaultInjectingFileSystem} counts. File-level kinds ({@link #READ}, {@link #WRITE},
 * {@link #APPEND}, {@link #SYNC}, {@link #SIZE} of an open file, {@link #TRUNCATE}) are reported
 * with the path the file was opened with.
 */
public enum FileOperation {
    OPEN,
    READ,
    WRITE,
    APPEND,
    SYNC,
    RENAME,
    DELETE,
    LIST,
    SIZE,
    TRUNCATE,
    SYNC_DIRECTORY,
    CREATE_DIRECTORIES,
    /** {@link FileSystem#lock}; a failed lock leaves the file unlocked. */
    LOCK
}
