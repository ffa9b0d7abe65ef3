package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A {@link FileSystem} that wraps another and fails the operations its {@link FaultInjector}
 * chooses (Pebble's {@code vfs/errorfs}, LevelDB's fault-injection Env). A failed operation does
 * not reach the wrapped file system, except for the leading bytes of a torn write. Files it opens
 * consult the injector installed at the time of each call, so faults can be switched on and off
 * while files are open. {@link FileSystem#exists} is neither counted nor failed.
 *
 * <p>Every operation is counted by {@link FileOperation} kind, whether or not it failed.
 *
 * <p>Thread safety: safe for concurrent use if the wrapped file system is; the injector may be
 * replaced at any time.
 */
public final class FaultInjectingFileSystem implements FileSystem {

    private final FileSystem delegate;
    private final AtomicLongArray counts = new AtomicLongArray(FileOperation.values().length);
    private final AtomicLong injectedFaults = new AtomicLong();
    private volatile FaultInjector injector;

    /** Wraps {@code delegate} with no injector installed: every operation proceeds. */
    public FaultInjectingFileSystem(FileSystem delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Installs {@code injector} (null turns injection off) for all later operations. */
    public void setInjector(FaultInjector injector) {
        this.injector = injector;
    }

    /** Turns injection off: every later operation proceeds. */
    public void clearInjector() {
        this.injector = null;
    }

    /** The wrapped file system. */
    public FileSystem delegate() {
        return delegate;
    }

    /** How many operations of kind {@code op} were attempted, including failed ones. */
    public long operationCount(FileOperation op) {
        return counts.get(op.ordinal());
    }

    /** How many operations the injector failed. */
    public long injectedFaultCount() {
        return injectedFaults.get();
    }

    /**
     * The wrapped file system after a simulated crash, without injection.
     *
     * @throws IllegalStateException if the wrapped file system is not a {@link MemFileSystem}
     *     (directly or through further fault-injecting layers)
     */
    public MemFileSystem crashClone() {
        if (delegate instanceof MemFileSystem mem) {
            return mem.crashClone();
        }
        if (delegate instanceof FaultInjectingFileSystem inner) {
            return inner.crashClone();
        }
        throw new IllegalStateException("crashClone() needs a crashable MemFileSystem underneath, but this "
                + "FaultInjectingFileSystem wraps a " + delegate.getClass().getName());
    }

    /** Counts {@code op} and returns the injected failure for it, or null to proceed. */
    IOException fault(FileOperation op, Path path, long bytes) {
        counts.incrementAndGet(op.ordinal());
        FaultInjector current = injector;
        if (current == null) {
            return null;
        }
        IOException e = current.maybeFail(op, path, bytes);
        if (e != null) {
            injectedFaults.incrementAndGet();
        }
        return e;
    }

    /** Counts {@code op} and throws if it is to fail. */
    void check(FileOperation op, Path path) throws IOException {
        IOException e = fault(op, path, 0);
        if (e != null) {
            throw e;
        }
    }

    @Override
    public StorageFile open(Path path, OpenOption... options) throws IOException {
        check(FileOperation.OPEN, path);
        return new FaultInjectingFile(this, delegate.open(path, options));
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        check(FileOperation.RENAME, from);
        delegate.rename(from, to);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        check(FileOperation.DELETE, path);
        return delegate.delete(path);
    }

    @Override
    public boolean exists(Path path) {
        return delegate.exists(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        check(FileOperation.LIST, dir);
        return delegate.list(dir);
    }

    @Override
    public long size(Path path) throws IOException {
        check(FileOperation.SIZE, path);
        return delegate.size(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        check(FileOperation.CREATE_DIRECTORIES, dir);
        delegate.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        check(FileOperation.SYNC_DIRECTORY, dir);
        delegate.syncDirectory(dir);
    }

    @Override
    public LockFile lock(Path path) throws IOException {
        check(FileOperation.LOCK, path);
        return delegate.lock(path);
    }

    @Override
    public int directIoAlignment() {
        return delegate.directIoAlignment();
    }
}
