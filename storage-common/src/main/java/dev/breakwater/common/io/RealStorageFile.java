package dev.breakwater.common.io;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link StorageFile} of {@link RealFileSystem}: a {@link FileChannel} used only with positional
 * reads and writes, so concurrent readers and writers never share a channel position.
 *
 * <p>Invariants: (1) {@link #end} is at least the size of the file as extended through this handle;
 * appends land at {@link #end}. Requires: no other handle or process extends the same file, and
 * positional writes past the end do not race with appends (their bytes could interleave).
 * (2) If {@link #checkAlignment} is set, every buffer, position and length handed to the channel is
 * a multiple of {@link #alignment} (a heap buffer's address is not checked: the JDK copies it to an
 * aligned temporary buffer).
 *
 * <p>Thread safety: {@link #read}, {@link #write}, {@link #size} and {@link #sync} may run from
 * many threads at once; {@link #append} and {@link #truncate} serialize on {@link #appendLock}.
 * {@link #close} must not race with other calls.
 */
final class RealStorageFile implements StorageFile {

    private final Path path;
    private final FileChannel channel;
    private final boolean writable;
    private final boolean direct;
    private final boolean checkAlignment;
    private final int alignment;
    private final Object appendLock = new Object();

    @GuardedBy("appendLock")
    private long end;

    RealStorageFile(Path path, FileChannel channel, boolean writable, boolean direct, boolean checkAlignment,
            int alignment) throws IOException {
        this.path = path;
        this.channel = channel;
        this.writable = writable;
        this.direct = direct;
        this.checkAlignment = checkAlignment;
        this.alignment = alignment;
        try {
            this.end = channel.size();
        } catch (IOException e) {
            channel.close();
            throw RealFileSystem.withPath(e, "size", path);
        }
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public void read(long position, ByteBuffer dst) throws IOException {
        checkPosition(position);
        checkAligned(position, dst);
        long at = position;
        try {
            while (dst.hasRemaining()) {
                int n = channel.read(dst, at);
                if (n < 0) {
                    throw new EOFException("end of file " + path + " at position " + at + " while reading "
                            + (at - position + dst.remaining()) + " bytes from position " + position);
                }
                at += n;
            }
        } catch (EOFException e) {
            throw e;
        } catch (IOException e) {
            throw RealFileSystem.withPath(e, "read at position " + at, path);
        }
    }

    @Override
    public void write(long position, ByteBuffer src) throws IOException {
        checkPosition(position);
        checkWritable();
        checkAligned(position, src);
        long endOfWrite = writeFully(position, src);
        synchronized (appendLock) {
            end = Math.max(end, endOfWrite);
        }
    }

    @Override
    public long append(ByteBuffer src) throws IOException {
        checkWritable();
        synchronized (appendLock) {
            long position = end;
            checkAligned(position, src);
            end = writeFully(position, src);
            return position;
        }
    }

    /** Writes all of {@code src} at {@code position}; returns the position after the last byte. */
    private long writeFully(long position, ByteBuffer src) throws IOException {
        long at = position;
        try {
            while (src.hasRemaining()) {
                at += channel.write(src, at);
            }
            return at;
        } catch (IOException e) {
            throw RealFileSystem.withPath(e, "write at position " + at, path);
        }
    }

    /**
     * {@code force(false)} is fdatasync(2) on Linux, which also flushes the file size and any other
     * metadata needed to read the data back; only timestamps may be lost.
     */
    @Override
    public void sync() throws IOException {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw RealFileSystem.withPath(e, "sync", path);
        }
    }

    @Override
    public long size() throws IOException {
        try {
            return channel.size();
        } catch (IOException e) {
            throw RealFileSystem.withPath(e, "size", path);
        }
    }

    @Override
    public void truncate(long size) throws IOException {
        checkPosition(size);
        checkWritable();
        synchronized (appendLock) {
            try {
                long current = channel.size();
                if (size < current) {
                    channel.truncate(size);
                } else if (size > current) {
                    extend(size);
                }
                end = size;
            } catch (IOException e) {
                throw RealFileSystem.withPath(e, "truncate to " + size + " bytes", path);
            }
        }
    }

    /**
     * FileChannel cannot grow a file except by writing, and a one-byte write is not allowed on an
     * O_DIRECT channel, so a direct file is grown through a short-lived buffered channel.
     */
    @GuardedBy("appendLock")
    private void extend(long size) throws IOException {
        ByteBuffer zero = ByteBuffer.allocate(1);
        if (!direct) {
            channel.write(zero, size - 1);
            return;
        }
        try (FileChannel buffered = FileChannel.open(path, StandardOpenOption.WRITE)) {
            buffered.write(zero, size - 1);
        }
    }

    @Override
    public boolean isDirect() {
        return direct;
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } catch (IOException e) {
            throw RealFileSystem.withPath(e, "close", path);
        }
    }

    private void checkPosition(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position + " in " + path);
        }
    }

    private void checkWritable() throws IOException {
        if (!writable) {
            throw new IOException("cannot modify " + path + ": it was opened read-only");
        }
    }

    private void checkAligned(long position, ByteBuffer buffer) {
        if (!checkAlignment) {
            return;
        }
        if (position % alignment != 0) {
            throw misaligned("position " + position, buffer);
        }
        if (buffer.remaining() % alignment != 0) {
            throw misaligned("length " + buffer.remaining(), buffer);
        }
        if (buffer.isDirect() && buffer.alignmentOffset(buffer.position(), alignment) != 0) {
            throw misaligned("buffer address (offset " + buffer.alignmentOffset(buffer.position(), alignment)
                    + " from a boundary)", buffer);
        }
    }

    private IllegalArgumentException misaligned(String what, ByteBuffer buffer) {
        return new IllegalArgumentException("direct I/O on " + path + " requires " + alignment
                + "-byte alignment of buffer address, position and length; " + what + " is not aligned ("
                + buffer.remaining() + " bytes requested)");
    }
}
