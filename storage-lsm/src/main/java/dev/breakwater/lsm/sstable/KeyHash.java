package dev.breakwater.lsm.sstable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * A 64-bit hash of a byte range, for Bloom filters. It reads the key eight bytes at a time and
 * folds each word into the state with a 64x64-to-128-bit multiply whose halves are xor-ed together
 * (a cheap, well-mixing step on 64-bit CPUs), then avalanches the result. No allocation.
 *
 * <p>The constants are fractional digits of well-known irrationals (golden ratio, pi, e), odd so
 * that multiplication by them is invertible. <b>The function is part of the file format</b>: Bloom
 * filters on disk are built with it, so changing it requires a new {@link SSTableFormat#CURRENT_VERSION}.
 *
 * <p>Thread safety: stateless.
 */
public final class KeyHash {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long K0 = 0x9E3779B97F4A7C15L; // golden ratio
    private static final long K1 = 0x243F6A8885A308D3L; // pi
    private static final long K2 = 0xB7E151628AED2A6BL; // e

    private KeyHash() {
    }

    /** The hash of {@code key[offset, offset + length)}. */
    public static long hash(byte[] key, int offset, int length) {
        long h = K0 ^ (length * K1);
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = (long) LONG_LE.get(key, offset + i);
            h = fold(w ^ K1, h ^ K2);
        }
        long tail = 0;
        for (int shift = 0; i < length; i++, shift += 8) {
            tail |= (key[offset + i] & 0xFFL) << shift;
        }
        h = fold(tail ^ K2, h ^ K0);
        h ^= h >>> 31;
        h *= K1;
        h ^= h >>> 29;
        return h;
    }

    /**
     * The hash of the {@code length} bytes at off-heap {@code address}: the same value as
     * {@link #hash(byte[], int, int)} of the same bytes (memory SSTables hash keys in place when they
     * are built and probe with heap keys).
     */
    public static long hash(long address, int length) {
        long h = K0 ^ (length * K1);
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long raw = MEMORY.readLong(address + i);
            long w = NATIVE_LITTLE_ENDIAN ? raw : Long.reverseBytes(raw);
            h = fold(w ^ K1, h ^ K2);
        }
        long tail = 0;
        for (int shift = 0; i < length; i++, shift += 8) {
            tail |= (MEMORY.readByte(address + i) & 0xFFL) << shift;
        }
        h = fold(tail ^ K2, h ^ K0);
        h ^= h >>> 31;
        h *= K1;
        h ^= h >>> 29;
        return h;
    }

    /** Xor of the two halves of the 128-bit product. */
    private static long fold(long a, long b) {
        return (a * b) ^ Math.multiplyHigh(a, b);
    }
}
