package dev.breakwater.common.util;

/**
 * The engine's non-cryptographic 64-bit hashes, in one place because one of them is part of an
 * on-disk contract (the partition of a record, {@code PartitionHash} in storage-txn, pinned by its
 * tests and named in the catalog): changing either function here changes where partitioned records
 * live.
 *
 * <p>Thread safety: stateless.
 */
public final class Hashing {

    private Hashing() {
    }

    /** MurmurHash3's 64-bit finalizer (fmix64): mixes every input bit into every output bit. */
    public static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** FNV-1a 64 over {@code bytes[offset, offset + length)}, then {@link #fmix64}. */
    public static long fnv1aFmix64(byte[] bytes, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset; i < offset + length; i++) {
            h = (h ^ (bytes[i] & 0xff)) * 0x100000001b3L;
        }
        return fmix64(h);
    }
}
