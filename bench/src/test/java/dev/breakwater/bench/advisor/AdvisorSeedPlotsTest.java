package dev.breakwater.bench.advisor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SeedPlots draws the script's JSON, including windows not yet defined (null) for the first cycles. */
class AdvisorSeedPlotsTest {

    @TempDir
    Path tmp;

    @Test
    void drawsSeededAndUnseededRuns() throws Exception {
        Path json = tmp.resolve("series.json");
        Files.writeString(json, """
                {"window": 2, "band": 0.05, "runs": [
                 {"name": "seeded-1", "group": "seeded", "final": 0.15,
                  "series": {"cycle": [1, 2, 3], "cost": [0.2, 0.1, 0.15], "window": [null, 0.15, 0.125], "xMiB": [40, 40, 43]}},
                 {"name": "unseeded-1", "group": "unseeded", "final": 0.17,
                  "series": {"cycle": [1, 2, 3, 4], "cost": [0.2, 0.2, 0.15, 0.2], "window": [null, 0.2, 0.175, 0.175], "xMiB": [19, 22, 25, 28]}}
                ]}""");
        Path png = tmp.resolve("seed.png");
        SeedPlots.draw(json, png, "test");
        assertTrue(Files.size(png) > 1000);
    }
}
