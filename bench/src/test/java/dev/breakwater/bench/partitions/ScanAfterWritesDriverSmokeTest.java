package dev.breakwater.bench.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@link ScanAfterWritesDriver}: tiny settings, two partitions; the report has the
 * three scan phases, each with scans, and the tree shapes. Checks that it works, not any number.
 */
class ScanAfterWritesDriverSmokeTest {

    @Test
    void reportsTheThreeScanPhases(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("scan.json");
        ScanAfterWritesDriver.main(new String[] {"--partitions", "2", "--keys", "2000", "--writes", "5000",
                "--scan-seconds", "0.2", "--window", "0.1", "--total-memory-mb", "64", "--write-memory-mb", "16",
                "--dir", tmp.toString(), "--out", json.toString()});
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        Set<String> phases = new TreeSet<>();
        for (JsonNode w : r.get("windows")) {
            phases.add(w.get("phase").asText());
            assertTrue(w.get("scans").asLong() >= 0, w.toString());
        }
        assertEquals(Set.of("before-writes", "after-writes", "after-flush"), phases);
        assertEquals(3, r.get("shapes").size());
        assertTrue(Files.notExists(tmp.resolve("scan-after-writes")), "the driver removes its scratch directory");
    }
}
