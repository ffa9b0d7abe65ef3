package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system interface every Breakwater component uses for all of its I/O (Pebble's
 * {@code vfs.FS}, LevelDB's {@code Env}). Implementations: {@link RealFileSystem} (FileChannel, with
 * optional direct I/O), {@link MemFileSystem} (in-memory, crashable: it can drop what was not
 * synced), and {@link FaultInjectingFileSystem} (wraps another and fails chosen operations).
 *
 * <p>Thread safety: all implementations are safe for concurrent use.
 */
public interface FileSystem {

    /** Opens (and with {@link OpenOption#CREATE} creates) a file. */
    StorageFile open(Path path, OpenOption... options) throws IOException;

    /** Atomically renames {@code from} to {@code to}, replacing {@code to} if it exists. */
    void rename(Path from, Path to) throws IOException;

    /** Deletes a file; returns false if it did not exist. */
    boolean delete(Path path) throws IOException;

    /** True if a file or directory exists at {@code path}. */
    boolean exists(Path path);

    /** The names of the entries of a directory (file names only, sorted). */
    List<String> list(Path dir) throws IOException;

    /** Size of a file in bytes. */
    long size(Path path) throws IOException;

    /** Creates a directory and its parents. */
    void createDirectories(Path dir) throws IOException;

    /**
     * Makes the directory's entries (creations, renames, deletions) durable. A file created or
     * renamed is only guaranteed to survive a crash after its parent directory was synced.
     */
    void syncDirectory(Path dir) throws IOException;

    /**
     * Takes an exclusive lock on the file at {@code path}, creating the file if it does not exist,
     * and records this process's id in it ({@link LockFile#holderRecord()}). The lock holds against
     * other processes and against other callers in this process until {@link LockFile#close()}.
     *
     * @throws FileLockedException if the lock is already held; it names the holder's process id
     *     when the file records one
     */
    LockFile lock(Path path) throws IOException;

    /** Alignment in bytes required of buffers, positions and lengths for direct I/O files. */
    default int directIoAlignment() {
        return 4096;
    }
}
