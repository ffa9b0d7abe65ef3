package dev.breakwater.bench.logtrim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Table 4's recovery mode on a small log: what it times, and that it cleans up after itself. */
class LogTrimBenchRecoveryTest {

    @Test
    void recoveryTimesRepeatOpensAfterAnUntimedOneAndLeavesNoImages(@TempDir Path root) throws Exception {
        Map<String, Object> out = LogTrimBench.recovery(Map.of("variant", "lz4", "log-mb", "2", "segment-mb", "1",
                "repeat", "2", "record-bytes", "200"), root);
        assertEquals(false, out.get("cold"));
        assertEquals(0L, out.get("flushes-before-crash"), "recovery must replay the whole log, so nothing may be flushed before the crash");
        assertTrue((Long) out.get("log-span-bytes") >= 2L << 20, "log span " + out.get("log-span-bytes"));
        assertTrue((Long) out.get("log-disk-bytes") < (Long) out.get("log-span-bytes"), "sealed segments compressed: " + out);
        List<?> timed = (List<?>) out.get("open-seconds");
        assertEquals(2, timed.size(), "timed opens: " + timed);
        assertTrue((Double) out.get("first-open-seconds") > 0);
        try (Stream<Path> left = Files.list(root)) {
            assertEquals(List.of(), left.toList(), "images and the source directory are deleted");
        }
    }
}
