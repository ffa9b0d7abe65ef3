package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Decides, for each operation of a {@link FaultInjectingFileSystem}, whether it fails (Pebble's
 * {@code errorfs.Injector}). Ready-made injectors are in {@link FaultInjectors}; they return
 * {@link InjectedIOException}s, and hand-written ones should too, so that a test failure says the
 * fault was injected.
 *
 * <p>Thread safety: implementations must be safe for concurrent calls; the file system calls them
 * from whatever threads do I/O.
 */
@FunctionalInterface
public interface FaultInjector {

    /**
     * Returns the exception {@code op} on {@code path} must throw instead of running, or null to
     * let it run. For {@link FileOperation#RENAME} the path is the source.
     */
    IOException maybeFail(FileOperation op, Path path);

    /**
     * As {@link #maybeFail(FileOperation, Path)}, also given the number of bytes the operation
     * transfers ({@link FileOperation#READ}, {@link FileOperation#WRITE}, {@link FileOperation#APPEND};
     * zero for the others). The file system calls this method; by default it ignores the count.
     * For WRITE and APPEND an {@link InjectedIOException} with a {@link
     * InjectedIOException#persistedBytes() prefix} makes the write torn.
     */
    default IOException maybeFail(FileOperation op, Path path, long bytes) {
        return maybeFail(op, path);
    }
}
