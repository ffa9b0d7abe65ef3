package dev.breakwater.bench.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Each memory-figure driver on a tiny configuration: it finishes, and its JSON and PNG hold sensible numbers. */
class MemoryFiguresSmokeTest {

    @TempDir
    Path tmp;

    private static double num(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void multiTreeWriteFigure() throws Exception {
        MultiTreeWriteFigure fig = new MultiTreeWriteFigure();
        Path out = tmp.resolve("fig10.json");
        int code = new CommandLine(fig).setCaseInsensitiveEnumValuesAllowed(true).execute("--dir", tmp.resolve("data").toString(),
                "--datasets", "3", "--records", "500", "--operations", "3000", "--warmup", "0.1", "--write-memory", "2m",
                "--skews", "50/50,80/20", "--skew-write-memory", "2m", "--cache", "16m", "--max-log-size", "64m",
                "--schemes", "B_STATIC,B_DYNAMIC_MEM,PARTITIONED_OPT", "--no-direct-io", "--quiet", "--out", out.toString());
        assertEquals(0, code);
        assertTrue(Files.size(Figures.pngBeside(out)) > 0);
        Map<String, Object> json = new ObjectMapper().readValue(out.toFile(), Map.class);
        List<Map<String, Object>> rows = (List<Map<String, Object>>) json.get("rows");
        assertEquals(3 + 3 + 3, rows.size()); // part a, then part b at 50/50 and (reused from a) 80/20
        for (Map<String, Object> r : rows) {
            assertEquals(3000L, ((Number) r.get("operations")).longValue(), r.toString());
            assertTrue(num(r, "opsPerSecond") > 0, r.toString());
            assertTrue(num(r, "engineBytesPerOp") > 0, "2 MiB of write memory must flush: " + r);
            assertTrue(num(r, "procWriteBytesPerOp") >= 0, r.toString());
            List<Number> byLevel = (List<Number>) r.get("mergeBytesPerOpByLevel");
            assertEquals(num(r, "mergeBytesPerOp"), byLevel.stream().mapToDouble(Number::doubleValue).sum(), 1e-6,
                    "merge bytes by level add up: " + r);
            Map<String, Map<String, Object>> trees = (Map<String, Map<String, Object>>) r.get("trees");
            assertEquals(3, trees.size(), r.toString());
            double flushed = 0;
            for (Map<String, Object> t : trees.values()) {
                flushed += num(t, "bytesFlushed");
                assertTrue(num(t, "bytesFlushedForMemory") + num(t, "bytesFlushedForLog") <= num(t, "bytesFlushed"),
                        "memory and log are two of the causes (the third is an explicit flush): " + t);
            }
            assertEquals(num(r, "flushBytesPerOp"), flushed / 3000, 1e-6, "per-tree flush bytes add up: " + r);
        }
        assertFalse(((List<?>) json.get("targets")).isEmpty());
        assertTrue(fig.table().contains("Partitioned-OPT"));
        assertTrue(fig.table().contains("x B+-static (target <= 0.5)"), fig.table());
    }

    @Test
    @SuppressWarnings("unchecked")
    void multiTreeWriteFigureWithoutStaticPrintsOnlyTheRatioItHas() throws Exception {
        MultiTreeWriteFigure fig = new MultiTreeWriteFigure();
        Path out = tmp.resolve("fig10-subset.json");
        // 4,000 updates: with 1,000 a slow machine sometimes ended B+-dynamic-MEM's phase before its first flush finished,
        // leaving no bytes to divide by (CI, stop 26); here it flushes 4 times even on one core.
        int code = new CommandLine(fig).setCaseInsensitiveEnumValuesAllowed(true).execute("--dir", tmp.resolve("data2").toString(),
                "--datasets", "2", "--records", "300", "--operations", "4000", "--warmup", "0.1", "--write-memory", "2m",
                "--skews", "", "--cache", "16m", "--max-log-size", "64m", "--schemes", "B_DYNAMIC_MEM,PARTITIONED_OPT",
                "--no-direct-io", "--quiet", "--out", out.toString());
        assertEquals(0, code);
        Map<String, Object> json = new ObjectMapper().readValue(out.toFile(), Map.class);
        Map<String, Object> target = ((List<Map<String, Object>>) json.get("targets")).get(0);
        assertFalse(target.containsKey("optOverStatic"), target.toString());
        assertTrue(num(target, "optOverDynamicMem") > 0, target.toString());
        assertFalse(fig.table().contains("B+-static (target"), "no B+-static row, so no ratio to it: " + fig.table());
        assertTrue(fig.table().contains("x B+-dynamic-MEM (target <= 0.8)"), fig.table());
    }

    @Test
    void aBaselineThatWroteNothingGetsAReasonNotANaNRatio() {
        Map<String, Object> opt = Map.of("scheme", "Partitioned-OPT", "engineBytesPerOp", 1200.0);
        Map<String, Object> target = new LinkedHashMap<>();
        MultiTreeWriteFigure.putRatio(target, "optOverDynamicMem", opt, Map.of("scheme", "B+-dynamic-MEM", "engineBytesPerOp", 0.0));
        MultiTreeWriteFigure.putRatio(target, "optOverStatic", opt, Map.of("scheme", "B+-static", "engineBytesPerOp", 400.0));
        MultiTreeWriteFigure.putRatio(target, "optOverNothing", opt, null);
        assertEquals(Map.of("optOverDynamicMemMissing", "B+-dynamic-MEM wrote no bytes in its measured phase; run more operations",
                "optOverStatic", 3.0), target);
    }

    @Test
    @SuppressWarnings("unchecked")
    void inMemoryFigure() throws Exception {
        InMemoryFigure fig = new InMemoryFigure();
        Path out = tmp.resolve("fig8.json");
        int code = new CommandLine(fig).setCaseInsensitiveEnumValuesAllowed(true).execute("--dir", tmp.resolve("data").toString(),
                "--records", "5000", "--operations", "20000", "--memory-table", "256k", "--pool", "64m",
                "--workloads", "WRITE_ONLY,WRITE_HEAVY", "--quiet", "--out", out.toString());
        assertEquals(0, code);
        assertTrue(Files.size(Figures.pngBeside(out)) > 0);
        Map<String, Object> json = new ObjectMapper().readValue(out.toFile(), Map.class);
        List<Map<String, Object>> rows = (List<Map<String, Object>>) json.get("rows");
        assertEquals(4, rows.size());
        for (Map<String, Object> r : rows) {
            assertTrue(num(r, "opsPerSecond") > 0, r.toString());
            assertEquals(0, num(r, "flushes"), "nothing may reach disk: " + r);
            assertTrue(num(r, "writeMemoryUsedBytes") > 5000L * 1000, "the data lives in write memory: " + r);
            if (r.get("scheme").equals("Partitioned")) {
                assertTrue(num(r, "memorySeals") > 0, r.toString());
            } else {
                assertEquals(0, num(r, "memorySeals"), r.toString());
            }
        }
        assertEquals(2, ((List<?>) json.get("summary")).size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void varyingWriteMemoryFigure() throws Exception {
        VaryingWriteMemoryFigure fig = new VaryingWriteMemoryFigure();
        Path out = tmp.resolve("fig9.json");
        int code = new CommandLine(fig).setCaseInsensitiveEnumValuesAllowed(true).execute("--dir", tmp.resolve("data").toString(),
                "--records", "5000", "--large", "16m", "--small", "4m", "--memory-table", "256k", "--target-table", "1m",
                "--cache", "8m", "--period", "1", "--cycles", "1", "--sample", "0.5", "--quiet", "--out", out.toString());
        assertEquals(0, code);
        assertTrue(Files.size(Figures.pngBeside(out)) > 0);
        Map<String, Object> json = new ObjectMapper().readValue(out.toFile(), Map.class);
        Map<String, Map<String, Object>> modes = (Map<String, Map<String, Object>>) json.get("modes");
        assertEquals(List.of("dynamic", "static-small", "static-large"), List.copyOf(modes.keySet()));
        for (Map<String, Object> r : modes.values()) {
            assertTrue(num(r, "operations") > 0, r.toString());
            assertTrue(num(r, "bytesWrittenPerOp") > 0, "writes during the run must reach disk: " + r);
            assertFalse(((List<?>) r.get("samples")).isEmpty());
            assertEquals(2, ((List<?>) r.get("windows")).size());
        }
    }
}
