package dev.breakwater.lsm.memory;

import dev.breakwater.common.config.MemoryComponentKind;
import java.util.List;
import java.util.stream.Stream;

/**
 * The memory-component configurations the tests run: every {@link MemoryComponentKind}, the vector
 * both growing and pre-sized, the hash kinds with short prefixes and few buckets so that buckets
 * collide and scans cross many buckets.
 */
public final class MemoryKinds {

    private MemoryKinds() {
    }

    public static final MemoryComponentSpec SKIP_LIST = MemoryComponentSpec.SKIP_LIST;
    public static final MemoryComponentSpec VECTOR = MemoryComponentSpec.of(MemoryComponentKind.VECTOR);
    public static final MemoryComponentSpec VECTOR_PRESIZED = new MemoryComponentSpec(MemoryComponentKind.VECTOR, 8, 1024, 3000);
    public static final MemoryComponentSpec HASH_SKIP_LIST = new MemoryComponentSpec(MemoryComponentKind.HASH_SKIP_LIST, 2, 8, 0);
    public static final MemoryComponentSpec HASH_LINKED_LIST = new MemoryComponentSpec(MemoryComponentKind.HASH_LINKED_LIST, 2, 32, 0);

    /** Every configuration. */
    public static List<MemoryComponentSpec> all() {
        return List.of(SKIP_LIST, VECTOR, VECTOR_PRESIZED, HASH_SKIP_LIST, HASH_LINKED_LIST);
    }

    /** One configuration per kind (for the slower tree-level tests). */
    public static Stream<MemoryComponentSpec> kinds() {
        return Stream.of(SKIP_LIST, VECTOR, HASH_SKIP_LIST, HASH_LINKED_LIST);
    }

    /** The non-default kinds, for tests whose default-kind run exists already. */
    public static Stream<MemoryComponentSpec> others() {
        return Stream.of(VECTOR, HASH_SKIP_LIST, HASH_LINKED_LIST);
    }
}
