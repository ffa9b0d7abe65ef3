package dev.breakwater.bench.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@link ReverseScanDriver} and {@link ReverseScanPlot}: every phase at tiny settings,
 * reports whose scans saw every record in both directions, and a plot. Checks that they work, not
 * any number.
 */
class ReverseScanDriverSmokeTest {

    @Test
    void everyPhaseReportsAndPlots(@TempDir Path tmp) throws Exception {
        String dir = tmp.toString();
        ReverseScanDriver.main(new String[] {"--phase", "load", "--keys", "3000", "--value-bytes", "50", "--dir", dir});
        Path throughput = tmp.resolve("t.json");
        ReverseScanDriver.main(new String[] {"--phase", "throughput", "--repeats", "2", "--short-scans", "20", "--dir", dir,
                "--out", throughput.toString()});
        JsonNode t = new ObjectMapper().readTree(throughput.toFile());
        assertEquals(4, t.get("fullScans").size());
        for (JsonNode s : t.get("fullScans")) {
            assertEquals(3000, s.get("entries").asLong(), s.toString());
        }
        Path memory = tmp.resolve("m.json");
        ReverseScanDriver.main(new String[] {"--phase", "memory", "--memory-kind", "VECTOR", "--keys", "2000", "--value-bytes", "20",
                "--repeats", "2", "--short-scans", "20", "--dir", dir, "--out", memory.toString()});
        assertEquals(0, new ObjectMapper().readTree(memory.toFile()).get("flushes").asLong(), "the memory phase stays in memory");
        Path heap = tmp.resolve("h.json");
        ReverseScanDriver.main(new String[] {"--phase", "heap", "--how", "reverse", "--dir", dir, "--out", heap.toString()});
        JsonNode h = new ObjectMapper().readTree(heap.toFile());
        assertEquals("completed", h.get("outcome").asText());
        assertEquals(3000, h.get("entries").asLong());
        Path png = tmp.resolve("p.png");
        ReverseScanPlot.main(new String[] {throughput.toString(), heap.toString(), png.toString()});
        assertTrue(Files.size(png) > 1000);
    }
}
