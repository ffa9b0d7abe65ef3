package dev.breakwater.bench.lsm;

/**
 * Deterministic pseudo-random keys for the LSM benchmarks: key {@code i} of stream {@code seed} is
 * 16 bytes produced by the SplitMix64 finalizer, so a benchmark can regenerate the exact key it
 * loaded without storing it, and a different seed gives keys that are (with probability
 * 1 - 2^-128 per pair) absent from the tree but spread uniformly over the same key range.
 *
 * <p>Also a tiny xorshift generator for picking indexes on the measured path without allocation.
 *
 * <p>Thread safety: stateless static methods.
 */
final class BenchKeys {

    /** Bytes per key in every LSM benchmark. */
    static final int KEY_BYTES = 16;
    /** Stream of keys that the benchmarks load. */
    static final long PRESENT = 0x5EED_0001L;
    /** Stream of keys that are never loaded. */
    static final long ABSENT = 0x5EED_0002L;

    private BenchKeys() {
    }

    /** SplitMix64's output function. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Writes key {@code index} of stream {@code seed} into {@code dst[0, 16)}. */
    static void fill(long seed, long index, byte[] dst) {
        long base = seed * 0x9E3779B97F4A7C15L + index * 0xD1B54A32D192ED03L;
        putLong(dst, 0, mix(base));
        putLong(dst, 8, mix(base + 0x9E3779B97F4A7C15L));
    }

    /** A fresh array holding key {@code index} of stream {@code seed}. */
    static byte[] key(long seed, long index) {
        byte[] k = new byte[KEY_BYTES];
        fill(seed, index, k);
        return k;
    }

    /** Keys {@code 0..count-1} of stream {@code seed}. */
    static byte[][] keys(long seed, int count) {
        byte[][] all = new byte[count][];
        for (int i = 0; i < count; i++) {
            all[i] = key(seed, i);
        }
        return all;
    }

    /** Big-endian, so that unsigned byte order of keys follows the generated longs. */
    static void putLong(byte[] dst, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            dst[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** One xorshift64 step; {@code x} must be non-zero. */
    static long xorshift(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }

    /** Maps a random long onto {@code [0, n)} with a multiply instead of a division. */
    static int index(long random, int n) {
        return (int) (((random >>> 32) * n) >>> 32);
    }
}
