package dev.breakwater.common.memory;

import net.openhft.chronicle.core.UnsafeMemory;

/**
 * A flyweight over one page of off-heap memory (Agrona's {@code UnsafeBuffer} pattern): it is
 * re-pointed with {@link #wrap(long, int)} instead of allocated, so reading a page allocates nothing.
 * Multi-byte values are in the platform's native byte order (little endian on every platform
 * Breakwater supports); on-disk layouts say so in their Descriptor classes.
 *
 * <p>Bounds checks on each access are off by default for speed; run with
 * {@code -Dbreakwater.boundsChecks=true} to turn them on (the tests do).
 *
 * <p>Thread safety: an instance is a cursor owned by one thread. The memory it points at may be
 * shared; callers provide the happens-before edges (buffer-cache pin/unpin does).
 */
public final class OffHeapPage {

    /** Whether accessors check offsets against the wrapped length. */
    public static final boolean BOUNDS_CHECKS = Boolean.parseBoolean(System.getProperty("breakwater.boundsChecks", "false"));

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final long BYTE_ARRAY_BASE = UnsafeMemory.UNSAFE.arrayBaseOffset(byte[].class);

    private long address;
    private int length;

    public OffHeapPage() {
    }

    public OffHeapPage(long address, int length) {
        wrap(address, length);
    }

    /** Points this flyweight at {@code length} bytes starting at {@code address}. */
    public OffHeapPage wrap(long address, int length) {
        this.address = address;
        this.length = length;
        return this;
    }

    public long address() {
        return address;
    }

    public int length() {
        return length;
    }

    public byte getByte(int offset) {
        check(offset, 1);
        return MEMORY.readByte(address + offset);
    }

    public void putByte(int offset, byte value) {
        check(offset, 1);
        MEMORY.writeByte(address + offset, value);
    }

    public short getShort(int offset) {
        check(offset, 2);
        return MEMORY.readShort(address + offset);
    }

    public void putShort(int offset, short value) {
        check(offset, 2);
        MEMORY.writeShort(address + offset, value);
    }

    public int getInt(int offset) {
        check(offset, 4);
        return MEMORY.readInt(address + offset);
    }

    public void putInt(int offset, int value) {
        check(offset, 4);
        MEMORY.writeInt(address + offset, value);
    }

    public long getLong(int offset) {
        check(offset, 8);
        return MEMORY.readLong(address + offset);
    }

    public void putLong(int offset, long value) {
        check(offset, 8);
        MEMORY.writeLong(address + offset, value);
    }

    /** Copies {@code len} bytes at {@code offset} into {@code dst[dstOffset..]}. */
    public void getBytes(int offset, byte[] dst, int dstOffset, int len) {
        check(offset, len);
        if (dstOffset < 0 || dstOffset + len > dst.length) {
            throw new IndexOutOfBoundsException("destination range " + dstOffset + "+" + len + " outside byte[" + dst.length + "]");
        }
        // The JDK's bulk copy: Chronicle's copyMemory between heap and native memory is a Java loop.
        UnsafeMemory.UNSAFE.copyMemory(null, address + offset, dst, BYTE_ARRAY_BASE + dstOffset, len);
    }

    /** Copies {@code src[srcOffset..srcOffset+len)} to {@code offset}. */
    public void putBytes(int offset, byte[] src, int srcOffset, int len) {
        check(offset, len);
        if (srcOffset < 0 || srcOffset + len > src.length) {
            throw new IndexOutOfBoundsException("source range " + srcOffset + "+" + len + " outside byte[" + src.length + "]");
        }
        UnsafeMemory.UNSAFE.copyMemory(src, BYTE_ARRAY_BASE + srcOffset, null, address + offset, len); // bulk, see getBytes
    }

    /** Copies {@code len} bytes from {@code offset} of this page to {@code dstOffset} of {@code dst}. */
    public void copyTo(int offset, OffHeapPage dst, int dstOffset, int len) {
        check(offset, len);
        dst.check(dstOffset, len);
        UnsafeMemory.copyMemory(address + offset, dst.address + dstOffset, len);
    }

    /** Sets {@code len} bytes from {@code offset} to {@code value}. */
    public void fill(int offset, int len, byte value) {
        check(offset, len);
        MEMORY.setMemory(address + offset, len, value);
    }

    /**
     * Compares {@code len} bytes at {@code offset} with {@code key[keyOffset..keyOffset+keyLen)} as
     * unsigned bytes, lexicographically (shorter prefix first); the order of encoded keys.
     */
    public int compareUnsigned(int offset, int len, byte[] key, int keyOffset, int keyLen) {
        check(offset, len);
        int n = Math.min(len, keyLen);
        for (int i = 0; i < n; i++) {
            int a = MEMORY.readByte(address + offset + i) & 0xFF;
            int b = key[keyOffset + i] & 0xFF;
            if (a != b) {
                return a - b;
            }
        }
        return len - keyLen;
    }

    private void check(int offset, int len) {
        if (BOUNDS_CHECKS && (offset < 0 || len < 0 || (long) offset + len > length)) {
            throw new IndexOutOfBoundsException("access " + offset + "+" + len + " outside page of " + length + " bytes at 0x" + Long.toHexString(address));
        }
    }
}
