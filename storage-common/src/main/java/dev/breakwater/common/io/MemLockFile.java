package dev.breakwater.common.io;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lock file of {@link MemFileSystem}: an in-process lock on a normalized path. A crash clone
 * starts with no locks held, as a restarted process would.
 *
 * <p>Thread safety: {@link #close()} is idempotent and safe from any thread.
 */
final class MemLockFile implements LockFile {

    private final MemFileSystem fs;
    private final Path path;
    private final Path normalized;
    private final AtomicBoolean closed = new AtomicBoolean();

    MemLockFile(MemFileSystem fs, Path path, Path normalized) {
        this.fs = fs;
        this.path = path;
        this.normalized = normalized;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            fs.unlock(normalized);
        }
    }
}
