package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extensions found with ServiceLoader start after open, stop once at close, and fail an open cleanly. */
class EngineExtensionTest {

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        RecordingExtension.events.clear();
    }

    @AfterEach
    void off() {
        RecordingExtension.mode = RecordingExtension.Mode.OFF;
    }

    @Test
    void startsOnOpenWithAUsableEngineAndStopsOnceAtClose() {
        RecordingExtension.mode = RecordingExtension.Mode.RECORD;
        Path d = dir.resolve("e1");
        try (StorageEngine engine = StorageEngine.open(d, EngineFixture.smallConfig())) {
            engine.createDataset(EngineFixture.customers());
            assertEquals(List.of("start e1 trees=0"), RecordingExtension.events);
            engine.close();
        }
        assertEquals(List.of("start e1 trees=0", "stop e1"), RecordingExtension.events);
    }

    @Test
    void aFailingExtensionFailsTheOpenAndReleasesTheDirectory() {
        RecordingExtension.mode = RecordingExtension.Mode.FAIL;
        Path d = dir.resolve("e2");
        StorageException e = assertThrows(StorageException.class, () -> StorageEngine.open(d, EngineFixture.smallConfig()));
        assertTrue(e.getMessage().contains(RecordingExtension.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("port 1 is taken"), e.getMessage());
        RecordingExtension.mode = RecordingExtension.Mode.OFF;
        try (StorageEngine engine = StorageEngine.open(d, EngineFixture.smallConfig())) {
            engine.createDataset(EngineFixture.customers());
        }
    }

    @Test
    void layoutListsDatasetsIndexesAndTrees() {
        try (StorageEngine engine = StorageEngine.open(dir.resolve("e3"), EngineFixture.smallConfig())) {
            Dataset c = engine.createDataset(EngineFixture.customers());
            for (int id = 1; id <= 2_000; id++) {
                c.insert(EngineFixture.customer(1, id % 3, id, "NAME" + (id % 5), id));
            }
            engine.flushAndAwaitMerges();
            EngineLayout layout = engine.layout();
            assertEquals(1, layout.datasets().size());
            EngineLayout.DatasetLayout ds = layout.datasets().get(0);
            assertEquals("customer", ds.name());
            assertEquals(List.of("primary", "by_last"), ds.indexes().stream().map(EngineLayout.IndexLayout::name).toList());
            assertEquals(List.of("w", "d", "last", "w", "d", "id"), ds.indexes().get(1).keyFields());
            EngineLayout.TreeLayout primary = ds.indexes().get(0).tree();
            assertEquals("customer.primary", primary.name());
            assertTrue(primary.diskBytes() > 0, "flushed data is on disk: " + primary);
            long tables = primary.levels().stream().flatMap(l -> l.components().stream()).mapToLong(List::size).sum();
            assertTrue(tables > 0, primary.toString());
        }
    }
}
