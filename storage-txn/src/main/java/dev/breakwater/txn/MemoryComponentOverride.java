package dev.breakwater.txn;

import dev.breakwater.common.config.ConfigException;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.Option;

/**
 * A dataset's own choice of active memory component (paper 001): the data structure of M0 in the
 * dataset's primary tree and every secondary tree, in place of the engine's
 * {@code memory-component-kind}. Part of the {@link DatasetSpec} and persisted with it in the
 * catalog, so it survives restarts; a dataset without one follows the engine's options.
 *
 * <p>A parameter left {@code null} takes the engine's option of the same name each time the dataset
 * is opened ({@code memory-component-hash-prefix}, {@code memory-component-hash-buckets},
 * {@code memory-component-vector-reserve}). A parameter may only be given for a kind it applies to:
 * the hash parameters for {@code HASH_SKIP_LIST} and {@code HASH_LINKED_LIST}, the reserve for
 * {@code VECTOR}; anything else is a {@link SchemaException}, as is a value outside the option's range.
 * Whether the values fit the engine's write memory (a bucket array or reserve below half of M0) is
 * checked when the dataset is created or opened.
 *
 * <p>Immutable; thread-safe.
 *
 * @param kind          the data structure; never null
 * @param hashPrefix    bytes of the key that are hashed (hash kinds), or null for the engine's
 * @param hashBuckets   buckets of the hash table (hash kinds), or null for the engine's
 * @param vectorReserve index slots reserved at the first write (VECTOR), or null for the engine's
 */
public record MemoryComponentOverride(MemoryComponentKind kind, Integer hashPrefix, Integer hashBuckets, Integer vectorReserve) {

    public MemoryComponentOverride {
        if (kind == null) {
            throw new SchemaException("a dataset's memory component needs a kind (one of "
                    + java.util.Arrays.toString(MemoryComponentKind.values()) + ")");
        }
        boolean hash = kind == MemoryComponentKind.HASH_SKIP_LIST || kind == MemoryComponentKind.HASH_LINKED_LIST;
        check(hashPrefix, ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX, hash, kind);
        check(hashBuckets, ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, hash, kind);
        check(vectorReserve, ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE, kind == MemoryComponentKind.VECTOR, kind);
    }

    private static void check(Integer value, Option<Integer> option, boolean applies, MemoryComponentKind kind) {
        if (value == null) {
            return;
        }
        if (!applies) {
            throw new SchemaException("a dataset's memory component of kind " + kind + " takes no " + option.name()
                    + " (given " + value + "); it applies to " + (option == ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE
                    ? "VECTOR" : "HASH_SKIP_LIST and HASH_LINKED_LIST") + " only");
        }
        try {
            option.check(value);
        } catch (ConfigException e) {
            throw new SchemaException("a dataset's memory component: " + option.name() + " = " + value
                    + " is out of range; allowed: " + option.allowed(), e);
        }
    }

    /** The kind with every parameter taken from the engine's options. */
    public static MemoryComponentOverride of(MemoryComponentKind kind) {
        return new MemoryComponentOverride(kind, null, null, null);
    }

    /** A hash kind ({@code HASH_SKIP_LIST} or {@code HASH_LINKED_LIST}) with its own prefix length and bucket count. */
    public static MemoryComponentOverride hash(MemoryComponentKind kind, int prefixLength, int buckets) {
        return new MemoryComponentOverride(kind, prefixLength, buckets, null);
    }

    /** {@code VECTOR} with {@code reserveEntries} index slots reserved at the first write (0: grows page by page). */
    public static MemoryComponentOverride vector(int reserveEntries) {
        return new MemoryComponentOverride(MemoryComponentKind.VECTOR, null, null, reserveEntries);
    }
}
