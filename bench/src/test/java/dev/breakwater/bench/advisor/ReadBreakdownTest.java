package dev.breakwater.bench.advisor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.tuner.advisor.Design;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-read breakdown sums slices and divides by hand; the designs cache keeps it across runs. */
class ReadBreakdownTest {

    @TempDir
    Path tmp;

    @Test
    void sumsSlicesAndDividesPerRead() {
        // two slices of 100 reads: 30 + 10 pages read of 500 + 300 accessed; 200 + 200 probes, 150 + 190
        // negatives, 2 + 4 false positives; L0 runs 1 then 2, level runs 2 then 3
        ReadBreakdown b = ReadBreakdown.EMPTY
                .plus(new EngineRun.Measure(100, 30, 0, 0, 0, 1.0, 500, 200, 150, 2, 1, 2))
                .plus(new EngineRun.Measure(100, 10, 0, 0, 0, 1.0, 300, 200, 190, 4, 2, 3));
        Map<String, Double> m = b.perOp();
        assertEquals(200, m.get("ops"));
        assertEquals(0.2, m.get("pagesRead"), 1e-12);
        assertEquals(4.0, m.get("pageAccesses"), 1e-12);
        assertEquals(0.05, m.get("missRatio"), 1e-12);
        assertEquals(2.0, m.get("bloomProbes"), 1e-12);
        assertEquals(1.7, m.get("bloomNegatives"), 1e-12);
        assertEquals(0.03, m.get("bloomFalsePositives"), 1e-12);
        assertEquals(1.5, m.get("l0Runs"), 1e-12);
        assertEquals(2.5, m.get("levelRuns"), 1e-12);
        assertEquals(0.2, b.pagesPerOp(), 1e-12);
        assertEquals(0, ReadBreakdown.EMPTY.pagesPerOp());
    }

    @Test
    void designsCacheKeepsTheBreakdown() throws Exception {
        Design d = Design.uniform(1L << 20, 10, 4, 3);
        Map<String, Map<String, Double>> breakdown = new LinkedHashMap<>();
        breakdown.put("z1", Map.of("pageAccesses", 5.5, "l0Runs", 1.25));
        Map<Design, KindCosts> out = new LinkedHashMap<>();
        out.put(d, new KindCosts(d, new double[] {0.1, 0.7, 1.6, 0.4}, new double[] {0.1, 0.6, 1.5, 0.3}, 2, 2, 146, new double[] {1, 2},
                breakdown));
        Path file = tmp.resolve("designs.json");
        MeasuredCache.save(file, out);
        Map<Design, KindCosts> in = new LinkedHashMap<>();
        MeasuredCache.load(file, in);
        KindCosts k = in.get(d);
        assertArrayEquals(new double[] {0.1, 0.7, 1.6, 0.4}, k.measured());
        assertEquals(5.5, k.breakdown().get("z1").get("pageAccesses"));
        assertEquals(1.25, k.breakdown().get("z1").get("l0Runs"));
    }
}
