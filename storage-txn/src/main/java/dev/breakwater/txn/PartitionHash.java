package dev.breakwater.txn;

import dev.breakwater.common.util.Hashing;

/**
 * The hash that places a record of a partitioned dataset in one of its N partitions. It is part of
 * the on-disk contract: a record lives in the trees of partition {@code partition(pk, N)}, so a
 * build that hashed differently would look for it in the wrong trees. The catalog records the
 * function's {@link #ID} with every partitioned dataset and open refuses an id it does not know
 * (docs/formats.md section 7).
 *
 * <p>Definition (version 1, {@value #ID}), over the bytes of the encoded primary key (the primary
 * tree's key, {@link KeyCodec#encodeFull}):
 * <pre>
 *  h = 0xcbf29ce484222325                               FNV-1a, 64 bit
 *  for each byte b: h = (h XOR (b &amp; 0xff)) * 0x100000001b3   (mod 2^64)
 *  h ^= h &gt;&gt;&gt; 33; h *= 0xff51afd7ed558ccd;              the MurmurHash3 fmix64 finalizer
 *  h ^= h &gt;&gt;&gt; 33; h *= 0xc4ceb9fe1a85ec53; h ^= h &gt;&gt;&gt; 33
 *  partition = h mod N, h read as an unsigned 64-bit integer
 * </pre>
 * FNV-1a alone is weak in its low bits for short keys that differ in their last byte; the
 * finalizer spreads every input bit over the whole word, so {@code mod N} is even for any N.
 *
 * <p>Allocates nothing. Thread safety: stateless.
 */
final class PartitionHash {

    /** The identity the catalog records; a new function needs a new id, never a changed one. */
    static final String ID = "fnv1a64-fmix64/1";
    /** The most partitions a dataset may have: each has its own trees and memory components. */
    static final int MAX_PARTITIONS = 256;

    private PartitionHash() {
    }

    /** The 64-bit hash of {@code key[offset, offset + length)}. */
    static long hash(byte[] key, int offset, int length) {
        return Hashing.fnv1aFmix64(key, offset, length);
    }

    /** The partition, in {@code [0, partitions)}, of the encoded primary key {@code key}. */
    static int partition(byte[] key, int length, int partitions) {
        if (partitions == 1) {
            return 0;
        }
        return (int) Long.remainderUnsigned(hash(key, 0, length), partitions);
    }
}
