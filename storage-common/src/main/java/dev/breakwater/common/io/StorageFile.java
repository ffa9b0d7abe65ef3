package dev.breakwater.common.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An open file of a {@link FileSystem}. Every byte Breakwater reads or writes goes through this
 * interface, so a fault-injecting implementation can fail any operation.
 *
 * <p>Thread safety: positional {@link #read} and {@link #write} are safe from many threads at once
 * (they do not share a file position). {@link #append} calls are serialized by the implementation.
 * {@link #close} must not race with other calls.
 *
 * <p>Direct I/O: a file opened with {@link OpenOption#DIRECT} requires buffers, positions and lengths
 * aligned to {@link FileSystem#directIoAlignment()}; when the platform cannot do direct I/O the file
 * system falls back to buffered I/O (see {@link #isDirect()}).
 */
public interface StorageFile extends Closeable {

    /** The path this file was opened with. */
    Path path();

    /**
     * Reads exactly {@code dst.remaining()} bytes starting at {@code position} into {@code dst},
     * advancing its position to its limit.
     *
     * @throws java.io.EOFException if the file ends before {@code dst} is full
     */
    void read(long position, ByteBuffer dst) throws IOException;

    /** Writes all of {@code src.remaining()} bytes at {@code position}, advancing {@code src}. */
    void write(long position, ByteBuffer src) throws IOException;

    /**
     * Writes all of {@code src} at the current end of the file.
     *
     * @return the file offset at which the bytes were written
     */
    long append(ByteBuffer src) throws IOException;

    /** Makes every byte written so far durable (fdatasync plus size metadata). */
    void sync() throws IOException;

    /** Current size in bytes, including unsynced writes. */
    long size() throws IOException;

    /** Shrinks or extends the file to {@code size} bytes. */
    void truncate(long size) throws IOException;

    /** True if reads and writes bypass the operating system's page cache. */
    boolean isDirect();

    @Override
    void close() throws IOException;
}
