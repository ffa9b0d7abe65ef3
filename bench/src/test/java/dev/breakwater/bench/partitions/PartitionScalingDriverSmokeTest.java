package dev.breakwater.bench.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@link PartitionScalingDriver} and {@link PartitionScalingPlot}: tiny settings, both
 * layouts, and a report with every point and a plot. Checks that they work, not any number.
 */
class PartitionScalingDriverSmokeTest {

    @Test
    void reportsEveryLayoutPartitionAndThreadCountAndPlotsThem(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("scaling.json");
        PartitionScalingDriver.main(new String[] {"--partitions", "1,2", "--threads", "1,2", "--keys", "2000",
                "--seconds", "0.2", "--warmup", "0.05", "--scan-seconds", "0.1", "--total-memory-mb", "64",
                "--write-memory-mb", "16", "--dir", tmp.toString(), "--out", json.toString()});
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        assertEquals(6, r.get("points").size(), "one-engine P=1,2 and engine-per-partition P=2, threads 1 and 2");
        for (JsonNode p : r.get("points")) {
            assertTrue(p.get("ops").asLong() > 0, p.toString());
        }
        assertEquals(3, r.get("scans").size());
        assertTrue(Files.notExists(tmp.resolve("partition-scaling")), "the driver removes its scratch directory");
        Path png = tmp.resolve("scaling.png");
        PartitionScalingPlot.main(new String[] {json.toString(), png.toString()});
        assertTrue(Files.size(png) > 1000);
    }
}
