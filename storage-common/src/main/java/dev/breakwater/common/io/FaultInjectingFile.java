package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A file of {@link FaultInjectingFileSystem}: asks the file system's injector before each
 * operation and passes it to the wrapped file if it is not failed. {@link #close}, {@link #path}
 * and {@link #isDirect} are never failed.
 *
 * <p>Thread safety: as the wrapped file; this class adds no state of its own.
 */
final class FaultInjectingFile implements StorageFile {

    private final FaultInjectingFileSystem fs;
    private final StorageFile delegate;

    FaultInjectingFile(FaultInjectingFileSystem fs, StorageFile delegate) {
        this.fs = fs;
        this.delegate = delegate;
    }

    @Override
    public Path path() {
        return delegate.path();
    }

    @Override
    public void read(long position, ByteBuffer dst) throws IOException {
        IOException e = fs.fault(FileOperation.READ, path(), dst.remaining());
        if (e != null) {
            throw e;
        }
        delegate.read(position, dst);
    }

    @Override
    public void write(long position, ByteBuffer src) throws IOException {
        IOException e = fs.fault(FileOperation.WRITE, path(), src.remaining());
        if (e != null) {
            int prefix = tornPrefix(e, src);
            if (prefix > 0) {
                delegate.write(position, prefix(src, prefix));
                src.position(src.position() + prefix);
            }
            throw e;
        }
        delegate.write(position, src);
    }

    @Override
    public long append(ByteBuffer src) throws IOException {
        IOException e = fs.fault(FileOperation.APPEND, path(), src.remaining());
        if (e != null) {
            int prefix = tornPrefix(e, src);
            if (prefix > 0) {
                delegate.append(prefix(src, prefix));
                src.position(src.position() + prefix);
            }
            throw e;
        }
        return delegate.append(src);
    }

    private static int tornPrefix(IOException e, ByteBuffer src) {
        return e instanceof InjectedIOException injected ? Math.min(injected.persistedBytes(), src.remaining()) : 0;
    }

    private static ByteBuffer prefix(ByteBuffer src, int length) {
        return src.slice(src.position(), length);
    }

    @Override
    public void sync() throws IOException {
        fs.check(FileOperation.SYNC, path());
        delegate.sync();
    }

    @Override
    public long size() throws IOException {
        fs.check(FileOperation.SIZE, path());
        return delegate.size();
    }

    @Override
    public void truncate(long size) throws IOException {
        fs.check(FileOperation.TRUNCATE, path());
        delegate.truncate(size);
    }

    @Override
    public boolean isDirect() {
        return delegate.isDirect();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
