package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine with each non-default {@code memory-component-kind} under each write-memory scheme:
 * loads enough to flush several times (1 MiB components), crashes (a clone keeping only synced
 * data), recovers, and checks every committed row through the primary index and a secondary-index
 * range scan in key order.
 */
class MemoryComponentKindEngineTest {

    static Stream<Arguments> cases() {
        return Stream.of(MemoryComponentKind.VECTOR, MemoryComponentKind.HASH_SKIP_LIST, MemoryComponentKind.HASH_LINKED_LIST)
                .flatMap(kind -> Stream.of(WriteMemoryScheme.values()).map(scheme -> Arguments.of(kind, scheme)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void committedRowsSurviveFlushesACrashAndRecovery(MemoryComponentKind kind, WriteMemoryScheme scheme) {
        StorageConfig config = EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.MEMORY_COMPONENT_KIND, kind)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX, 6)
                .set(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS, 256)
                .set(ConfigOptions.WRITE_MEMORY_SCHEME, scheme)
                .build();
        MemFileSystem mem = new MemFileSystem();
        Path dir = Path.of("/data");
        int rows = 3000;
        StorageEngine engine = StorageEngine.open(mem, dir, config);
        Dataset c = engine.createDataset(EngineFixture.customers());
        for (int id = 0; id < rows; id++) {
            int i = id;
            engine.inTransaction(tx -> tx.upsert(c, EngineFixture.customer(1, i % 10, i, "N" + (i % 13), i)));
        }
        MemFileSystem crashed = mem.crashClone();
        engine.close();
        try (StorageEngine recovered = StorageEngine.open(crashed, dir, config)) {
            Dataset again = recovered.dataset("customer");
            for (int id = 0; id < rows; id++) {
                Tuple t = again.get(Key.of(1, id % 10, id));
                assertNotNull(t, kind + " " + scheme + ": customer " + id + " lost");
                assertEquals(id, t.getLong(4));
            }
            try (Cursor<Tuple> byName = again.index("by_last").scan(KeyRange.prefix(Key.of(1, 3, "N5")))) {
                int n = 0;
                long previous = -1;
                while (byName.hasNext()) {
                    Tuple t = byName.next();
                    assertEquals("N5", t.getString(3));
                    assertTrue(t.getInt(2) > previous, "in key order");
                    previous = t.getInt(2);
                    n++;
                }
                long expected = java.util.stream.IntStream.range(0, rows).filter(i -> i % 10 == 3 && i % 13 == 5).count();
                assertEquals(expected, n, "the secondary index scan sees every row once");
            }
        }
    }
}
