package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A failure made up by a {@link FaultInjector}. Its message starts with "injected fault" and names
 * the operation and the path, so that it is never mistaken for a real I/O error.
 *
 * <p>For {@link FileOperation#WRITE} and {@link FileOperation#APPEND}, {@link #persistedBytes()}
 * greater than zero makes a torn write: the {@link FaultInjectingFileSystem} writes that many
 * leading bytes of the buffer (at most all of them) before throwing.
 */
public final class InjectedIOException extends IOException {

    private static final long serialVersionUID = 1L;

    private final FileOperation operation;
    private final transient Path path;
    private final int persistedBytes;

    public InjectedIOException(FileOperation operation, Path path, String detail) {
        this(operation, path, detail, 0);
    }

    public InjectedIOException(FileOperation operation, Path path, String detail, int persistedBytes) {
        super("injected fault: " + operation + " on " + path + (detail == null ? "" : ": " + detail));
        if (persistedBytes < 0) {
            throw new IllegalArgumentException("persistedBytes must not be negative: " + persistedBytes);
        }
        this.operation = operation;
        this.path = path;
        this.persistedBytes = persistedBytes;
    }

    /** The operation that was failed. */
    public FileOperation operation() {
        return operation;
    }

    /** The path it was failed on. */
    public Path path() {
        return path;
    }

    /** For a torn write, how many leading bytes were written before the failure; else zero. */
    public int persistedBytes() {
        return persistedBytes;
    }
}
