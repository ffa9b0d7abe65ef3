package dev.breakwater.common.io;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The contents of one file of {@link MemFileSystem}: the current bytes, which every read sees, and
 * the durable bytes as of the last {@link #sync}, which are all that survive a crash. One instance
 * may be reachable under several names (a file renamed but with only one directory synced).
 *
 * <p>Invariants: (1) {@code 0 <= length <= bytes.length}; bytes past {@code length} are zero.
 * (2) {@code durable} is never mutated after it is assigned (it is replaced, not written).
 *
 * <p>Thread safety: every method synchronizes on this object; none calls out while holding it.
 */
final class MemFileData implements MemFileSystem.Node {

    /** Files are backed by one array, so they are limited to the largest array the JVM allows. */
    static final long MAX_SIZE = Integer.MAX_VALUE - 8;

    private static final byte[] EMPTY = new byte[0];

    @GuardedBy("this")
    private byte[] bytes = EMPTY;

    @GuardedBy("this")
    private int length;

    @GuardedBy("this")
    private byte[] durable = EMPTY;

    /** Copies up to {@code dst.remaining()} bytes from {@code position}; returns how many it copied. */
    synchronized int read(long position, ByteBuffer dst) {
        if (position >= length) {
            return 0;
        }
        int n = (int) Math.min(dst.remaining(), length - position);
        dst.put(bytes, (int) position, n);
        return n;
    }

    synchronized void write(Path path, long position, ByteBuffer src) throws IOException {
        writeLocked(path, position, src);
    }

    synchronized long append(Path path, ByteBuffer src) throws IOException {
        long position = length;
        writeLocked(path, position, src);
        return position;
    }

    @GuardedBy("this")
    private void writeLocked(Path path, long position, ByteBuffer src) throws IOException {
        int n = src.remaining();
        long newEnd = position + n;
        ensureCapacityLocked(path, newEnd);
        src.get(bytes, (int) position, n);
        length = (int) Math.max(length, newEnd);
    }

    synchronized void truncate(Path path, long size) throws IOException {
        if (size < length) {
            Arrays.fill(bytes, (int) size, length, (byte) 0);
        } else {
            ensureCapacityLocked(path, size);
        }
        length = (int) size;
    }

    @GuardedBy("this")
    private void ensureCapacityLocked(Path path, long size) throws IOException {
        if (size > MAX_SIZE) {
            throw new IOException("cannot grow " + path + " to " + size + " bytes: MemFileSystem files are limited to "
                    + MAX_SIZE + " bytes");
        }
        if (size > bytes.length) {
            long doubled = Math.min(MAX_SIZE, Math.max(64, 2L * bytes.length));
            bytes = Arrays.copyOf(bytes, (int) Math.max(size, doubled));
        }
    }

    synchronized long size() {
        return length;
    }

    /** Makes the current bytes the durable bytes. */
    synchronized void sync() {
        durable = Arrays.copyOf(bytes, length);
    }

    /** A new file whose current and durable bytes are this file's durable bytes. */
    synchronized MemFileData durableCopy() {
        MemFileData copy = new MemFileData();
        copy.bytes = durable.clone();
        copy.length = durable.length;
        copy.durable = durable;
        return copy;
    }
}
