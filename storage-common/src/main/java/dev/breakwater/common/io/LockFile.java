package dev.breakwater.common.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An exclusive lock held on a file through {@link FileSystem#lock} (LevelDB's {@code FileLock},
 * Pebble's {@code vfs.FS.Lock}): while it is held, no other process and no other caller in this
 * process can lock the same file. {@link #close()} releases it; the file itself stays.
 *
 * <p>Thread safety: implementations are safe for concurrent use; {@link #close()} is idempotent.
 */
public interface LockFile extends Closeable {

    /** The locked file. */
    Path path();

    /** Releases the lock. Idempotent. */
    @Override
    void close() throws IOException;

    /** The holder description written into a lock file: this process's id and a newline. */
    static byte[] holderRecord() {
        return (ProcessHandle.current().pid() + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * The process id recorded by {@link #holderRecord()}, or -1 if {@code bytes} do not hold one
     * (an empty file, or one written by something else).
     */
    static long parseHolder(byte[] bytes, int length) {
        String s = new String(bytes, 0, length, java.nio.charset.StandardCharsets.US_ASCII).trim();
        if (s.isEmpty() || s.length() > 19 || !s.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(s);
    }
}
