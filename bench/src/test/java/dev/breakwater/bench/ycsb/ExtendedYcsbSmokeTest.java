package dev.breakwater.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A few seconds of the extended driver on tiny data: every operation succeeds and the counts add up. */
class ExtendedYcsbSmokeTest {

    @TempDir
    Path tmp;

    @SuppressWarnings("unchecked")
    private Map<String, Object> run(String workload, int operations, String... more) throws Exception {
        ExtendedYcsb cmd = new ExtendedYcsb();
        Path out = tmp.resolve(workload + ".json");
        String[] base = {"--dir", tmp.resolve("data").toString(), "--workload", workload,
                "--datasets", "3", "--records", "1000", "--secondary-indexes", "2", "--hotspot", "80/20",
                "--threads", "2", "--operations", Integer.toString(operations), "--warmup", "0.2",
                "--total-memory", "32m", "--write-memory", "8m", "--no-direct-io", "--quiet", "--out", out.toString()};
        String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        int code = new CommandLine(cmd).execute(args);
        assertEquals(0, code);
        assertTrue(Files.size(out) > 0);
        Map<String, Object> result = cmd.lastResult;
        assertEquals(3000L, ((Number) ((Map<String, Object>) result.get("load")).get("records")).longValue());
        Map<String, Object> runPhase = (Map<String, Object>) result.get("run");
        assertEquals((long) operations, ((Number) runPhase.get("operations")).longValue());
        long ok = 0;
        for (var e : ((Map<String, Map<String, Object>>) runPhase.get("ops")).entrySet()) {
            Map<String, Object> op = e.getValue();
            assertEquals(0L, ((Number) op.get("failed")).longValue(), e.getKey() + " failed");
            assertEquals(0L, ((Number) op.get("notFound")).longValue(), e.getKey() + " not found");
            long count = ((Number) op.get("ok")).longValue();
            assertEquals(count, ((Number) ((Map<String, Object>) op.get("latencyMicros")).get("count")).longValue());
            ok += count;
        }
        assertEquals(operations, ok);
        return result;
    }

    @Test
    @SuppressWarnings("unchecked")
    void writeHeavyWithSecondaryIndexes() throws Exception {
        Map<String, Object> r = run("WRITE_HEAVY", 2000);
        Map<String, Object> ops = (Map<String, Object>) ((Map<String, Object>) r.get("run")).get("ops");
        assertTrue(ops.containsKey("READ") && ops.containsKey("UPDATE"));
        Map<String, Object> engine = (Map<String, Object>) ((Map<String, Object>) r.get("run")).get("engine");
        assertTrue(((Number) engine.get("bytesIngested")).longValue() > 0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void workloadEScansAndInserts() throws Exception {
        Map<String, Object> r = run("E", 300);
        Map<String, Object> runPhase = (Map<String, Object>) r.get("run");
        assertTrue(((Number) runPhase.get("scannedRecords")).longValue() > 0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void writeRatioReplacesTheWorkloadsMix() throws Exception {
        Map<String, Object> r = run("WRITE_ONLY", 4000, "--write-ratio", "0.1", "--engine-option", "tuner-period=5000",
                "--engine-option", "tuner-write-weight=2", "--engine-option", "log-segment-size=8m");
        Map<String, Map<String, Object>> ops = (Map<String, Map<String, Object>>) ((Map<String, Object>) r.get("run")).get("ops");
        long updates = ((Number) ops.get("UPDATE").get("ok")).longValue();
        assertTrue(updates > 250 && updates < 550, updates + " updates of 4000 at a write ratio of 0.1");
        assertEquals(0.1, ((Number) r.get("writeRatio")).doubleValue());
        // engine options in milliseconds and weights are numbers, sizes strings with a unit
        Map<String, Object> config = (Map<String, Object>) r.get("config");
        assertEquals(5000L, ((Number) config.get("tuner-period")).longValue());
        assertEquals(2.0, ((Number) config.get("tuner-write-weight")).doubleValue());
        assertEquals(8L << 20, ((Number) config.get("log-segment-size")).longValue());
    }

    @Test
    @SuppressWarnings("unchecked")
    void reopenAfterLoadStartsTheRunAtTheTunersSeed() throws Exception {
        // the load runs with the tuner off at --write-memory; the reopened engine starts at the seed, and every
        // loaded record is found after the reopen (run() checks no operation failed or missed)
        Map<String, Object> r = run("READ_HEAVY", 2000, "--reopen-after-load", "--tuner", "on", "--engine-option", "tuner-seed=12m");
        Map<String, Object> load = (Map<String, Object>) ((Map<String, Object>) r.get("load")).get("engine");
        Map<String, Object> run = (Map<String, Object>) ((Map<String, Object>) r.get("run")).get("engine");
        assertEquals(8L << 20, ((Number) load.get("writeMemoryCapacity")).longValue());
        assertEquals(12L << 20, ((Number) run.get("writeMemoryCapacity")).longValue());
        assertEquals(Boolean.TRUE, ((Map<String, Object>) r.get("config")).get("tuner"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void loadOnceThenRunACopyWithoutLoading() throws Exception {
        // --load-only leaves a settled directory; --no-load runs on it (here at another split) and finds every
        // record (no operation misses), and the run reports the weighted cost per operation from ω and γ
        Path loaded = tmp.resolve("loaded");
        String[] common = {"--datasets", "3", "--records", "1000", "--threads", "2", "--total-memory", "32m",
            "--no-direct-io", "--quiet"};
        ExtendedYcsb load = new ExtendedYcsb();
        assertEquals(0, new CommandLine(load).execute(concat(common, "--data", loaded.toString(), "--load-only",
                "--write-memory", "8m")));
        assertEquals(3000L, ((Number) ((Map<String, Object>) load.lastResult.get("load")).get("records")).longValue());
        assertTrue(!load.lastResult.containsKey("run") && Files.isDirectory(loaded));
        ExtendedYcsb run = new ExtendedYcsb();
        assertEquals(0, new CommandLine(run).execute(concat(common, "--data", loaded.toString(), "--no-load",
                "--write-memory", "12m", "--workload", "READ_HEAVY", "--operations", "2000", "--warmup", "0",
                "--engine-option", "tuner-write-weight=2")));
        Map<String, Object> r = (Map<String, Object>) run.lastResult.get("run");
        assertEquals(null, run.lastResult.get("load"));
        for (Map<String, Object> op : ((Map<String, Map<String, Object>>) r.get("ops")).values()) {
            assertEquals(0L, ((Number) op.get("notFound")).longValue());
        }
        Map<String, Object> engine = (Map<String, Object>) r.get("engine");
        double expected = 2 * ((Number) engine.get("pagesWrittenPerOp")).doubleValue()
                + ((Number) engine.get("pagesReadPerOp")).doubleValue();
        assertEquals(expected, ((Number) engine.get("ioCostPerOp")).doubleValue(), 1e-9);
        assertEquals(12L << 20, ((Number) engine.get("writeMemoryCapacity")).longValue());
    }

    @Test
    void noLoadWithoutLoadedDataIsRefused() {
        assertEquals(2, new CommandLine(new ExtendedYcsb()).execute("--no-load", "--quiet"));
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test
    void writeRatioOutsideZeroToOneIsRefused() {
        // a usage error (exit code 2) before any data is written; picocli prints the message to stderr
        assertEquals(2, new CommandLine(new ExtendedYcsb()).execute("--dir", tmp.resolve("bad").toString(), "--write-ratio", "1.5",
                "--quiet"));
        assertTrue(Files.notExists(tmp.resolve("bad")));
    }
}
