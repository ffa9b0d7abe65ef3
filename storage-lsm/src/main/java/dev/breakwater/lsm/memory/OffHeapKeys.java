package dev.breakwater.lsm.memory;

import dev.breakwater.common.util.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Key comparison and copying between off-heap memory and heap arrays, eight bytes at a time, with no
 * allocation. Keys compare as unsigned bytes, lexicographically, a proper prefix first: the order of
 * encoded keys (DESIGN.md §2), the same as {@code OffHeapPage.compareUnsigned}.
 *
 * <p>Thread safety: stateless.
 */
final class OffHeapKeys {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final long BYTE_ARRAY_BASE = UnsafeMemory.UNSAFE.arrayBaseOffset(byte[].class);
    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private OffHeapKeys() {
    }

    /** Compares the {@code len} bytes at {@code address} with {@code key[0..keyLen)}: sign as {@link Integer#compare}. */
    static int compare(long address, int len, byte[] key, int keyLen) {
        int n = Math.min(len, keyLen);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long raw = MEMORY.readLong(address + i);
            long a = NATIVE_LITTLE_ENDIAN ? Long.reverseBytes(raw) : raw;
            long b = (long) BIG_ENDIAN_LONGS.get(key, i);
            if (a != b) {
                return Long.compareUnsigned(a, b);
            }
        }
        for (; i < n; i++) {
            int a = MEMORY.readByte(address + i) & 0xFF;
            int b = key[i] & 0xFF;
            if (a != b) {
                return a - b;
            }
        }
        return Integer.compare(len, keyLen);
    }

    /** Compares the {@code lenA} bytes at {@code a} with the {@code lenB} bytes at {@code b}: sign as {@link Integer#compare}. */
    static int compare(long a, int lenA, long b, int lenB) {
        int n = Math.min(lenA, lenB);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = MEMORY.readLong(a + i);
            long y = MEMORY.readLong(b + i);
            if (x != y) {
                return NATIVE_LITTLE_ENDIAN ? Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y)) : Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int x = MEMORY.readByte(a + i) & 0xFF;
            int y = MEMORY.readByte(b + i) & 0xFF;
            if (x != y) {
                return x - y;
            }
        }
        return Integer.compare(lenA, lenB);
    }

    /**
     * The first eight bytes of the {@code len} bytes at {@code address} as a big-endian long, zero
     * bytes after the end of a shorter key. Where two keys' prefixes differ, their unsigned order is
     * the keys' order (a zero pad can only stand against a real byte of a longer key with the same
     * bytes before it, which that key follows anyway); equal prefixes decide nothing.
     */
    static long prefix(long address, int len) {
        if (len >= 8) {
            long raw = MEMORY.readLong(address);
            return NATIVE_LITTLE_ENDIAN ? Long.reverseBytes(raw) : raw;
        }
        long p = 0;
        for (int i = 0; i < 8; i++) {
            p = (p << 8) | (i < len ? MEMORY.readByte(address + i) & 0xFF : 0);
        }
        return p;
    }

    /**
     * A well-mixed 64-bit hash of {@code key[0..min(keyLen, prefix))}: keys sharing that prefix hash
     * alike. FNV-1a over the bytes, then the MurmurHash3 finalizer.
     */
    static long hashPrefix(byte[] key, int keyLen, int prefix) {
        return Hashing.fnv1aFmix64(key, 0, Math.min(keyLen, prefix));
    }

    /**
     * Copies {@code src[0..len)} to {@code address}. The JDK's bulk {@code Unsafe.copyMemory}, not
     * Chronicle's {@code UnsafeMemory.copyMemory}, which copies between heap and native memory in a
     * Java loop: that loop was most of the flush thread's CPU in the YCSB profile
     * (docs/benchmarks-ycsb.md, issue 13), and 2-5 times slower for 1 KB values.
     */
    static void copyIn(byte[] src, int len, long address) {
        if (len > 0) {
            UnsafeMemory.UNSAFE.copyMemory(src, BYTE_ARRAY_BASE, null, address, len);
        }
    }

    /** Copies {@code len} bytes from {@code from} to {@code to} (off-heap to off-heap, not overlapping), in bulk. */
    static void copy(long from, long to, int len) {
        if (len > 0) {
            UnsafeMemory.UNSAFE.copyMemory(from, to, len);
        }
    }

    /** Copies {@code len} bytes at {@code address} to {@code dst[0..len)}. */
    static void copyOut(long address, byte[] dst, int len) {
        if (len > 0) {
            UnsafeMemory.UNSAFE.copyMemory(null, address, dst, BYTE_ARRAY_BASE, len); // bulk, see copyIn
        }
    }
}
