package dev.breakwater.common.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An open file of {@link MemFileSystem}: a handle on a {@link MemFileData}. Like a POSIX file
 * descriptor it keeps working after its file was renamed or deleted.
 *
 * <p>Thread safety: as {@link StorageFile}; every data operation is atomic with respect to the
 * others because {@link MemFileData} synchronizes them.
 */
final class MemStorageFile implements StorageFile {

    private final Path path;
    private final MemFileData data;
    private final boolean writable;
    private volatile boolean closed;

    MemStorageFile(Path path, MemFileData data, boolean writable) {
        this.path = path;
        this.data = data;
        this.writable = writable;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public void read(long position, ByteBuffer dst) throws IOException {
        checkOpen();
        checkPosition(position);
        int wanted = dst.remaining();
        int n = data.read(position, dst);
        if (n < wanted) {
            throw new EOFException("end of file " + path + " at position " + (position + n) + " while reading "
                    + wanted + " bytes from position " + position);
        }
    }

    @Override
    public void write(long position, ByteBuffer src) throws IOException {
        checkWritable();
        checkPosition(position);
        data.write(path, position, src);
    }

    @Override
    public long append(ByteBuffer src) throws IOException {
        checkWritable();
        return data.append(path, src);
    }

    @Override
    public void sync() throws IOException {
        checkOpen();
        data.sync();
    }

    @Override
    public long size() throws IOException {
        checkOpen();
        return data.size();
    }

    @Override
    public void truncate(long size) throws IOException {
        checkWritable();
        checkPosition(size);
        data.truncate(path, size);
    }

    @Override
    public boolean isDirect() {
        return false;
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("file " + path + " is closed");
        }
    }

    private void checkWritable() throws IOException {
        checkOpen();
        if (!writable) {
            throw new IOException("cannot modify " + path + ": it was opened read-only");
        }
    }

    private void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position + " in " + path);
        }
    }
}
