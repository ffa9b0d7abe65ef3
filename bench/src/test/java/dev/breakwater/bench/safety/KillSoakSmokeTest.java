package dev.breakwater.bench.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's plumbing on a few cycles: children start, are killed, recovered and checked, and the
 * result counts them. (The 20-cycle crash test of CI is {@code KillRecoverTest} in storage-txn, the
 * same workload and checker.)
 */
class KillSoakSmokeTest {

    @TempDir
    Path dir;

    @Test
    void threeCyclesRecoverCleanlyAndAreCounted() throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        KillSoak soak = new KillSoak(3, 5, 300, 2, dir, new PrintStream(progress, true, StandardCharsets.UTF_8));
        Map<String, Object> result = soak.run();
        assertEquals(3L, result.get("cycles"));
        assertEquals(Boolean.TRUE, result.get("clean"), result.toString());
        @SuppressWarnings("unchecked")
        Map<String, Long> kills = (Map<String, Long>) result.get("killsLandedIn");
        assertEquals(3L, kills.values().stream().mapToLong(Long::longValue).sum(), kills.toString());
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("cycle 3/3"), progress.toString(StandardCharsets.UTF_8));
    }
}
