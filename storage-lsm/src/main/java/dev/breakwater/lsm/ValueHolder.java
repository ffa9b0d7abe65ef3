package dev.breakwater.lsm;

import java.util.Arrays;

/**
 * A reusable, growable buffer that a point lookup copies the found value into, so lookups allocate
 * nothing once the buffer is large enough.
 *
 * <p>Thread safety: none; owned by one thread.
 */
public final class ValueHolder {

    private byte[] bytes = new byte[64];
    private int length;
    private long lsn;

    /** The value's bytes; {@code [0, length())} are valid. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }

    /** The LSN of the write that produced the value, where known. */
    public long lsn() {
        return lsn;
    }

    /** A copy of the value, trimmed to its length. */
    public byte[] toArray() {
        return Arrays.copyOf(bytes, length);
    }

    /** Ensures room for {@code length} bytes and sets the length; returns the array to fill. */
    public byte[] prepare(int length, long lsn) {
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
        }
        this.length = length;
        this.lsn = lsn;
        return bytes;
    }

    /** Copies {@code src[offset..offset+length)} in. */
    public void set(byte[] src, int offset, int length, long lsn) {
        System.arraycopy(src, offset, prepare(length, lsn), 0, length);
    }
}
