package dev.breakwater.txn;

import dev.breakwater.lsm.sstable.KeyHash;

/**
 * Names the lock resources of the hierarchical (multi-granularity) locking scheme that makes
 * transactions serializable without phantoms. Each index (primary or secondary, identified by its
 * tree id) is a hierarchy:
 *
 * <pre>
 *   index root  →  first key field  →  first two key fields  →  full key
 * </pre>
 *
 * (prefix levels that would equal the full key are skipped). A point read takes IS on the ancestors
 * and S on the key; a write takes IX on the ancestors and X on the key, for every index entry it adds
 * or removes; a scan takes S on the deepest node that contains its whole range (the longest common
 * prefix of its bounds, at most two fields) and IS above it. A writer inserting into a scanned range
 * therefore needs IX on a node the scanner holds in S, and waits: no phantoms.
 *
 * <p>A resource is a 64-bit hash of (tree id, level, key prefix bytes); two resources that collide
 * merely conflict when they need not, which costs concurrency, never correctness.
 */
final class LockResources {

    /** Deepest prefix level (in fields) below the root. */
    static final int MAX_PREFIX_FIELDS = 2;

    private LockResources() {
    }

    static long root(long treeId) {
        return mix(treeId * 0x9E3779B97F4A7C15L + 0x1234);
    }

    /** The node for the first {@code len} bytes of an encoded key at depth {@code level}. */
    static long node(long treeId, int level, byte[] key, int len) {
        long h = KeyHash.hash(key, 0, len);
        return mix(h ^ (treeId * 0xC2B2AE3D27D4EB4FL) ^ ((long) level << 56));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
