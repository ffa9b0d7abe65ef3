package dev.breakwater.lsm.memory;

import dev.breakwater.common.config.MemoryComponentKind;
import java.util.Objects;

/**
 * Which {@link MemoryComponent} a tree builds for its active memory component, with the kind's
 * parameters (configuration options {@code memory-component-kind}, {@code memory-component-hash-prefix},
 * {@code memory-component-hash-buckets}, {@code memory-component-vector-reserve}). Parameters that do
 * not apply to the kind are ignored.
 *
 * <p>Immutable; thread-safe.
 *
 * @param kind           the data structure
 * @param hashPrefix     hash kinds: bytes of the key that are hashed, at least 1
 * @param hashBuckets    hash kinds: buckets, at least 1
 * @param vectorReserve  vector: index slots reserved at the first write; 0 grows page by page
 */
public record MemoryComponentSpec(MemoryComponentKind kind, int hashPrefix, int hashBuckets, int vectorReserve) {

    /** Today's default: the lock-free skip-list. */
    public static final MemoryComponentSpec SKIP_LIST = new MemoryComponentSpec(MemoryComponentKind.SKIP_LIST, 8, 1024, 0);

    public MemoryComponentSpec {
        Objects.requireNonNull(kind, "kind");
        if (hashPrefix < 1) {
            throw new IllegalArgumentException("memory-component-hash-prefix must be >= 1, got " + hashPrefix);
        }
        if (hashBuckets < 1) {
            throw new IllegalArgumentException("memory-component-hash-buckets must be >= 1, got " + hashBuckets);
        }
        if (vectorReserve < 0) {
            throw new IllegalArgumentException("memory-component-vector-reserve must be >= 0, got " + vectorReserve);
        }
    }

    /** The default parameters with another kind. */
    public static MemoryComponentSpec of(MemoryComponentKind kind) {
        return new MemoryComponentSpec(kind, SKIP_LIST.hashPrefix, SKIP_LIST.hashBuckets, 0);
    }

    /** A new, empty component of this kind drawing on {@code pool}; it holds no page until its first write. */
    public MemoryComponent create(PagePool pool) {
        return switch (kind) {
            case SKIP_LIST -> new SkipListMemoryComponent(pool);
            case VECTOR -> new VectorMemoryComponent(pool, vectorReserve);
            case HASH_SKIP_LIST -> new HashMemoryComponent(pool, hashPrefix, hashBuckets, true);
            case HASH_LINKED_LIST -> new HashMemoryComponent(pool, hashPrefix, hashBuckets, false);
        };
    }
}
