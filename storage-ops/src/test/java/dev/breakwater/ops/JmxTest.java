package dev.breakwater.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.ops.jmx.EngineMBeans;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.StorageEngine;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MBeans appear at open, follow datasets, show the /stats figures and disappear at close. */
class JmxTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private static Set<String> types(String quotedDir) throws Exception {
        Set<String> all = new TreeSet<>();
        for (ObjectName n : SERVER.queryNames(new ObjectName("dev.breakwater:*"), null)) {
            if (quotedDir.equals(n.getKeyProperty("name")) || quotedDir.equals(n.getKeyProperty("engine"))) {
                all.add(n.getKeyProperty("type") + (n.getKeyProperty("engine") != null ? ":" + n.getKeyProperty("name") : ""));
            }
        }
        return all;
    }

    private static String quoted(Path p) {
        return ObjectName.quote(p.toAbsolutePath().normalize().toString());
    }

    @Test
    void registeredOnOpenUnregisteredOnClose() throws Exception {
        Path d = dir.resolve("db");
        try (StorageEngine engine = StorageEngine.open(d, OpsFixture.small().build())) {
            assertEquals(Set.of("BufferCache", "Engine", "Log", "Tuner", "WriteMemory"), types(quoted(d)));
            ObjectName wm = new ObjectName("dev.breakwater:type=WriteMemory,name=" + quoted(d));
            assertEquals(8L << 20, SERVER.getAttribute(wm, "CapacityBytes"));
            ObjectName tuner = new ObjectName("dev.breakwater:type=Tuner,name=" + quoted(d));
            assertEquals(true, SERVER.getAttribute(tuner, "Available")); // the tuner is on by default
            assertEquals(1.0, SERVER.getAttribute(tuner, "Omega"));
        }
        assertEquals(Set.of(), types(quoted(d)));
    }

    @Test
    void offWhenDisabled() throws Exception {
        Path d = dir.resolve("off");
        try (StorageEngine engine = StorageEngine.open(d, OpsFixture.small().set(ConfigOptions.JMX_ENABLED, false).build())) {
            assertEquals(Set.of(), types(quoted(d)));
        }
    }

    @Test
    void datasetAndTreeBeansFollowTheDatasetsWithTheStatsFigures() throws Exception {
        Path d = dir.resolve("db");
        try (StorageEngine engine = StorageEngine.open(d, OpsFixture.small().set(ConfigOptions.JMX_ENABLED, false).build());
             EngineMBeans beans = EngineMBeans.register(engine, new StatsCache(engine, 0), d.toAbsolutePath().toString())) {
            Dataset c = OpsFixture.customers(engine);
            OpsFixture.insert(c, 0, 2_000);
            engine.flushAndAwaitMerges();
            beans.sync();
            assertEquals(Set.of("BufferCache", "Engine", "Log", "Tuner", "WriteMemory", "Dataset:customer",
                    "Tree:customer.primary", "Tree:customer.by_last"), types(quoted(d)));
            ObjectName tree = new ObjectName("dev.breakwater:type=Tree,engine=" + quoted(d) + ",dataset=customer,name=customer.primary");
            assertEquals(2_000L, SERVER.getAttribute(tree, "EntriesWritten"));
            assertEquals(engine.statistics().trees().get("customer.primary").flushes(), SERVER.getAttribute(tree, "Flushes"));
            assertTrue(((long[]) SERVER.getAttribute(tree, "LevelBytes")).length >= 1);
            ObjectName ds = new ObjectName("dev.breakwater:type=Dataset,engine=" + quoted(d) + ",name=customer");
            assertEquals(4_000L, SERVER.getAttribute(ds, "EntriesWritten"), "primary and secondary entries");
            ObjectName log = new ObjectName("dev.breakwater:type=Log,name=" + quoted(d));
            assertEquals(2_000L, SERVER.getAttribute(log, "AppendedRecords"));
            ObjectName eng = beans.engineName();
            assertEquals(2, SERVER.getAttribute(eng, "Trees"));
            assertEquals(1, SERVER.getAttribute(eng, "Datasets"));
            assertEquals(engine.statistics().io().totalPagesWritten(), SERVER.getAttribute(eng, "PagesWritten"));
            ObjectName bc = new ObjectName("dev.breakwater:type=BufferCache,name=" + quoted(d));
            assertEquals(engine.statistics().bufferCache().capacityBytes(), SERVER.getAttribute(bc, "CapacityBytes"));

            engine.dropDataset("customer");
            beans.sync();
            assertEquals(Set.of("BufferCache", "Engine", "Log", "Tuner", "WriteMemory"), types(quoted(d)));
        }
        assertEquals(Set.of(), types(quoted(d)));
    }

    @Test
    void twoEnginesInOneJvmDoNotCollide() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        try (StorageEngine ea = StorageEngine.open(a, OpsFixture.small().build())) {
            try (StorageEngine eb = StorageEngine.open(b, OpsFixture.small().build())) {
                assertEquals(5, types(quoted(a)).size());
                assertEquals(5, types(quoted(b)).size());
            }
            assertEquals(5, types(quoted(a)).size(), "closing one engine leaves the other's MBeans");
            assertEquals(Set.of(), types(quoted(b)));
            // The same path again (an in-memory file system, say) gets a suffixed name, not a failure.
            try (EngineMBeans again = EngineMBeans.register(ea, new StatsCache(ea, 0), a.toAbsolutePath().toString())) {
                Set<String> names = again.names().stream().map(n -> n.getKeyProperty("name")).collect(Collectors.toSet());
                assertFalse(names.contains(quoted(a)), names.toString());
                assertNotEquals(Set.of(), names);
            }
            assertEquals(5, types(quoted(a)).size());
        }
    }
}
