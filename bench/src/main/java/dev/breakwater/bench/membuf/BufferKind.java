package dev.breakwater.bench.membuf;

import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.lsm.memory.MemoryComponentSpec;

/**
 * The memory-buffer configurations the paper-001 benchmarks compare: the four kinds, plus the
 * pre-sized vector of Fig. 1b, as one name each.
 */
enum BufferKind {
    SKIP_LIST, VECTOR, VECTOR_PRESIZED, HASH_SKIP_LIST, HASH_LINKED_LIST;

    /**
     * The component spec with the hash kinds' {@code prefix} and {@code buckets}; the pre-sized
     * vector reserves {@code reserve} index slots.
     */
    MemoryComponentSpec spec(int prefix, int buckets, int reserve) {
        return switch (this) {
            case SKIP_LIST -> MemoryComponentSpec.SKIP_LIST;
            case VECTOR -> new MemoryComponentSpec(MemoryComponentKind.VECTOR, prefix, buckets, 0);
            case VECTOR_PRESIZED -> new MemoryComponentSpec(MemoryComponentKind.VECTOR, prefix, buckets, reserve);
            case HASH_SKIP_LIST -> new MemoryComponentSpec(MemoryComponentKind.HASH_SKIP_LIST, prefix, buckets, 0);
            case HASH_LINKED_LIST -> new MemoryComponentSpec(MemoryComponentKind.HASH_LINKED_LIST, prefix, buckets, 0);
        };
    }

    /**
     * Key {@code i} of the stream {@code seed}: 16 bytes, a 4-byte big-endian group id in
     * {@code [0, 256)} then 12 random bytes. So a hash prefix of at most 3 bytes puts every key in one
     * bucket, 4 bytes spreads them over 256 groups, 8 bytes makes every prefix distinct: the
     * structure that makes prefix length matter (paper 001 Fig. 2b).
     */
    static void key(long seed, long i, byte[] dst) {
        long a = mix(seed * 0x9E3779B97F4A7C15L + i);
        long b = mix(a ^ 0xD1B54A32D192ED03L);
        dst[0] = 0;
        dst[1] = 0;
        dst[2] = 0;
        dst[3] = (byte) a;
        for (int k = 0; k < 4; k++) {
            dst[4 + k] = (byte) (a >>> (8 * (k + 1)));
        }
        for (int k = 0; k < 8; k++) {
            dst[8 + k] = (byte) (b >>> (8 * k));
        }
    }

    static byte[][] keys(long seed, int n) {
        byte[][] keys = new byte[n][16];
        for (int i = 0; i < n; i++) {
            key(seed, i, keys[i]);
        }
        return keys;
    }

    /** SplitMix64's finalizer. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
