package dev.breakwater.bench.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@link LedgerLayoutDriver}: a small append-only load with 1 MiB of write memory
 * must report every row read back from the tables and consistent byte counts. It checks that the
 * driver works, not any layout target (the benchmark document reports those).
 */
class LedgerLayoutDriverTest {

    @Test
    void smallLedgerLoadIsReadBackCompletely(@TempDir Path tmp) throws Exception {
        LedgerLayoutDriver.Config c = new LedgerLayoutDriver.Config(5_000, false, 1L << 20, 64L << 20, Durability.ASYNC, 16384,
                tmp.resolve("data"), 1, null, 0, "PARTITIONED", 2, "NONE", true);
        Map<String, Object> r = LedgerLayoutDriver.run(c, new PrintStream(OutputStream.nullOutputStream()));
        assertTrue((Long) r.get("entries") >= 5_000L, "two passes over 5,000 ids: " + r);
        long logical = (Long) r.get("logicalBytes");
        long tableBytes = (Long) r.get("tableBytes");
        assertTrue(logical > 5_000L * 30, r.toString());
        assertEquals((double) tableBytes / logical, (Double) r.get("spaceAmplification"), 1e-9);
        int tables = (Integer) r.get("tables");
        assertEquals(tables, ((List<?>) r.get("tablesPerLevel")).stream().mapToInt(x -> (Integer) x).sum());
        assertTrue((Integer) r.get("manifestEditsReplayed") >= 1);
        assertEquals(5_000L, r.get("liveEntries"));
        assertTrue((Double) r.get("layoutAmplification") < (Double) r.get("spaceAmplification"));
        assertTrue((Double) r.get("treeOpenSecondsMedian") > 0);
    }
}
