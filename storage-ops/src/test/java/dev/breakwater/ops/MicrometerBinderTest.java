package dev.breakwater.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.ops.micrometer.BreakwaterMetrics;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.StorageEngine;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One line binds Breakwater's meters; they read the engine's statistics. */
class MicrometerBinderTest {

    @TempDir
    Path dir;

    @Test
    void bindsEngineAndTreeMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (StorageEngine engine = StorageEngine.open(dir.resolve("db"), OpsFixture.small().build())) {
            Dataset c = OpsFixture.customers(engine);
            new BreakwaterMetrics(engine, Tags.of("engine", "test"), Duration.ZERO).bindTo(registry);
            OpsFixture.insert(c, 0, 2_500);
            engine.flushAndAwaitMerges();
            System.gc(); // the registry alone must keep the binder's state alive (Micrometer holds it weakly)

            assertEquals(8L << 20, registry.get("breakwater.write.memory.capacity").tag("engine", "test").gauge().value());
            assertEquals(2_500, registry.get("breakwater.log.records").functionCounter().count());
            assertEquals(2_500, registry.get("breakwater.tree.entries.written").tag("tree", "customer.primary")
                    .functionCounter().count());
            assertEquals(2_500, registry.get("breakwater.tree.entries.written").tag("tree", "customer.by_last")
                    .functionCounter().count());
            double flushes = registry.get("breakwater.tree.flushes").tag("tree", "customer.primary").functionCounter().count();
            assertEquals(engine.statistics().trees().get("customer.primary").flushes(), (long) flushes);
            assertTrue(flushes >= 1);
            assertTrue(registry.get("breakwater.io.pages.written").tag("purpose", "flush").functionCounter().count() > 0);
            assertTrue(registry.get("breakwater.buffer.cache.capacity").gauge().value() > 0);
            assertTrue(registry.get("breakwater.tree.disk").tag("tree", "customer.primary").gauge().value() > 0);
        }
        // Counters keep their last values after close (monotonic for registries that outlive the engine).
        assertEquals(2_500, registry.get("breakwater.log.records").functionCounter().count());
    }

    @Test
    void oneLineWithDefaultTagsAndRebindingAddsNewTrees() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (StorageEngine engine = StorageEngine.open(dir.resolve("db2"), OpsFixture.small().build())) {
            BreakwaterMetrics metrics = new BreakwaterMetrics(engine);
            metrics.bindTo(registry);
            assertEquals(0, registry.find("breakwater.tree.flushes").functionCounters().size());
            OpsFixture.customers(engine);
            metrics.bindTo(registry);
            assertEquals(2, registry.find("breakwater.tree.flushes").functionCounters().size());
            assertEquals(1, registry.find("breakwater.log.records").functionCounters().size(), "no duplicates");
            assertEquals(dir.resolve("db2").toAbsolutePath().normalize().toString(),
                    registry.get("breakwater.log.records").functionCounter().getId().getTag("engine"));
        }
    }
}
