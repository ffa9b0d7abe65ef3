package dev.breakwater.bench.tuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** TunerFigures on hand-written TPC-C results: the best split, the targets and the switch criterion. */
class TunerFiguresTest {

    private static final long MIB = 1L << 20;
    private static final long T0 = 1_764_046_800_000L; // 2025-11-25 05:00:00 UTC

    @TempDir
    Path dir;

    /** A result JSON: cost and tpmC of the run, and cycles (seconds after T0, x in MiB, cost per op). */
    private void result(String name, long xMiB, double cost, double tpmC, String mixAfterSeconds, double[][] cycles)
            throws Exception {
        StringBuilder c = new StringBuilder();
        for (double[] k : cycles) {
            c.append(c.length() == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT,
                    "{\"timeMillis\":%d,\"writeMemoryBefore\":%d,\"writeMemoryAfter\":%d,\"cost\":%s,\"ops\":1000,"
                            + "\"reason\":\"NEWTON\"}", T0 + (long) (k[0] * 1000), (long) k[1] * MIB, (long) k[1] * MIB, k[2]));
        }
        double switchAt = mixAfterSeconds == null ? 1e9 : Double.parseDouble(mixAfterSeconds);
        StringBuilder s = new StringBuilder();
        for (int t = 1; t <= 100; t++) {
            s.append(t == 1 ? "" : ",").append(String.format(java.util.Locale.ROOT,
                    "{\"seconds\":%d,\"mix\":\"%s\",\"writeMemoryCapacity\":%d,\"bufferCacheBytes\":%d}", t,
                    t < switchAt ? "standard" : "read-mostly", xMiB * MIB, (64 - xMiB) * MIB));
        }
        Files.writeString(dir.resolve(name + ".json"), "{\"ioCostPerTx\":" + cost + ",\"tpmC\":" + tpmC
                + ",\"engineConfig\":{\"write-memory\":" + xMiB * MIB + "},\"samples\":[" + s + "],\"tuner\":[" + c + "]}");
        Files.writeString(dir.resolve(name + ".cycles.log"), "05:00:00 INFO  TpccMain - running 4 terminal(s)\n");
    }

    @Test
    void bestSplitTargetsAndSwitchCriterion() throws Exception {
        result("fixed-8m", 8, 10.0, 20_000, null, new double[0][]);
        result("fixed-16m", 16, 8.0, 25_000, null, new double[0][]);
        result("fixed-16m-repeat", 16, 9.0, 23_000, null, new double[0][]);
        result("fixed-32m", 32, 12.0, 26_000, null, new double[0][]);
        result("tuner-1", 8, 8.7, 24_000, null, new double[0][]); // cost 8.7 ≤ 1.03·8.5, tpmC 24,000 ≥ 0.97·24,000
        result("tuner-2", 8, 8.8, 23_000, null, new double[0][]); // cost 8.8 > 8.755, tpmC < 23,280
        // read-mostly optimum: 16 MiB at 0.10 per op (cycles after the 15 s warm-up only)
        result("rm-fixed-8m", 8, 1, 1, null, new double[][] {{10, 8, 0.01}, {20, 8, 0.20}, {30, 8, 0.20}});
        result("rm-fixed-16m", 16, 1, 1, null, new double[][] {{10, 16, 0.50}, {20, 16, 0.10}, {30, 16, 0.10}});
        // switch at 50 s; cycles after it: 0.2, 0.2, 0.104 (within 5% at the 3rd), 0.2, 0.1, 0.1, 0.1
        result("switch-tuner", 32, 1, 1, "50", new double[][] {{45, 32, 0.3}, {55, 32, 0.2}, {60, 30, 0.2},
                {65, 28, 0.104}, {70, 26, 0.2}, {75, 24, 0.1}, {80, 22, 0.1}, {85, 20, 0.1}});

        assertEquals(0, new CommandLine(new TunerFigures()).execute("--dir", dir.toString(), "--initial", "8", "--memory", "64m"));

        JsonNode f13 = new ObjectMapper().readTree(dir.resolve("fig13.json").toFile()).path("summary");
        assertEquals(16, f13.path("bestSplitMiB").asDouble());
        assertEquals(8.5, f13.path("bestCost").asDouble(), 1e-9); // the repeat is averaged in
        assertEquals(24_000, f13.path("bestTpmC").asDouble(), 1e-9);
        assertEquals(10.0, f13.path("initialCost").asDouble(), 1e-9);
        assertEquals(12.0, f13.path("halfCost").asDouble(), 1e-9);
        assertTrue(f13.path("tuner").get(0).path("costTargetMet").asBoolean());
        assertTrue(f13.path("tuner").get(0).path("tpmCTargetMet").asBoolean());
        assertFalse(f13.path("tuner").get(1).path("costTargetMet").asBoolean());
        assertFalse(f13.path("tuner").get(1).path("tpmCTargetMet").asBoolean());

        JsonNode f14 = new ObjectMapper().readTree(dir.resolve("fig14.json").toFile()).path("summary");
        assertEquals(50, f14.path("switchAtSeconds").asDouble());
        assertEquals(16, f14.path("optimumSplitMiB").asDouble());
        assertEquals(0.10, f14.path("optimumCost").asDouble(), 1e-9);
        assertEquals(7, f14.path("cyclesAfterSwitch").asInt());
        assertEquals(3, f14.path("firstCycleWithin5Percent").asInt());
        assertEquals(7, f14.path("firstCycleWithin5PercentOver3Cycles").asInt()); // (0.1+0.1+0.1)/3 at the 7th
        assertTrue(f14.path("targetMet").asBoolean());
        for (String png : new String[] {"fig13.png", "fig6.png", "fig14.png"}) {
            assertTrue(Files.size(dir.resolve(png)) > 0, png);
        }
    }

    /** An ExtendedYcsb result: tuner on/off, opened at {@code xMiB}, its cost per op, and cycles {seconds, x after}. */
    private void ycsb(String name, boolean tuner, int datasets, long xMiB, double cost, double[][] cycles) throws Exception {
        StringBuilder c = new StringBuilder();
        double before = xMiB;
        for (double[] k : cycles) {
            c.append(c.length() == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT,
                    "{\"timeMillis\":%d,\"writeMemoryBefore\":%d,\"writeMemoryAfter\":%d,\"cost\":0.5,\"reason\":\"%s\"}",
                    T0 + (long) (k[0] * 1000), (long) (before * MIB), (long) (k[1] * MIB), k[1] != before ? "CLIMB" : "STOP_WITHIN_NOISE"));
            before = k[1];
        }
        Files.writeString(dir.resolve(name + ".json"), String.format(java.util.Locale.ROOT,
                "{\"workload\":\"WRITE_HEAVY\",\"datasets\":%d,\"config\":{\"tuner\":%s,\"total-memory\":%d,\"write-memory\":%d,"
                        + "\"tuner-write-weight\":2.0,\"tuner-read-weight\":1.0},\"run\":{\"opsPerSecond\":1000,\"seconds\":45,"
                        + "\"engine\":{\"ioCostPerOp\":%s,\"pagesWrittenPerOp\":0.1,\"pagesReadPerOp\":%s,\"tuner\":[%s]}}}",
                datasets, tuner, 64 * MIB, xMiB * MIB, cost, cost - 0.2, c));
    }

    @Test
    void ycsbCostCurveWithTheTunerRunOnItAndCyclesPerMemorySize() throws Exception {
        ycsb("ycsb-fixed-16m", false, 10, 16, 1.04, new double[0][]);
        ycsb("ycsb-fixed-32m", false, 10, 32, 0.93, new double[0][]);
        ycsb("ycsb-fixed-32m-repeat", false, 10, 32, 0.95, new double[0][]);
        ycsb("ycsb-long-fixed-40m", false, 10, 40, 1.01, new double[0][]);
        ycsb("ycsb-tuner", true, 10, 16, 1.054, new double[][] {{0, 30}, {5, 30}, {10, 39}, {15, 39}});

        assertEquals(0, new CommandLine(new TunerFigures()).execute("--dir", dir.toString()));

        JsonNode f6 = new ObjectMapper().readTree(dir.resolve("fig6-ycsb.json").toFile());
        assertEquals(32, f6.path("summary").path("bestSplitMiB").asDouble());
        assertEquals(0.94, f6.path("summary").path("bestCost").asDouble(), 1e-9); // the repeat is averaged in
        assertEquals(2, f6.path("splits").size()); // the long run is a series of its own
        assertEquals(1.01, f6.path("longSplits").get(0).path("ioCostPerOp").asDouble(), 1e-9);
        JsonNode t = f6.path("summary").path("tuner").get(0);
        assertEquals(16, t.path("openedMiB").asDouble());
        assertEquals(39, t.path("finalMiB").asDouble());
        assertEquals(2, t.path("steps").asInt()); // 16 -> 30 and 30 -> 39
        assertEquals(1.054 / 0.94, t.path("costOverBest").asDouble(), 1e-9);
        // a run on ten trees: its cycles go to fig6-ycsb-tuner, not fig12
        assertTrue(Files.size(dir.resolve("fig6-ycsb-tuner.png")) > 0);
        assertFalse(Files.exists(dir.resolve("fig12.json")));
        assertTrue(Files.size(dir.resolve("fig6-ycsb.png")) > 0);
    }
}
