package dev.breakwater.bench.logtrim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk-bound setup of session 9 at a tiny scale: a loaded image is made once, a run starts from a
 * copy of it (the image stays as it was, the copy is deleted) and reports the timed phase's counters.
 */
class LogTrimBenchImageTest {

    @Test
    void aRunFromAnImageLeavesTheImageAndReportsThePhase(@TempDir Path root) throws Exception {
        Path image = root.resolve("image");
        Map<String, String> o = new HashMap<>(Map.of("records", "3000", "record-bytes", "300", "threads", "2",
                "write-memory-mb", "4", "total-memory-mb", "16", "max-log-mb", "2", "segment-mb", "1",
                "image", image.toString()));
        Map<String, Object> loaded = LogTrimBench.load(o, root.resolve("work"));
        long imageBytes = (Long) loaded.get("image-bytes");
        assertTrue(imageBytes > 3000L * 300 / 2, "the image holds the loaded data: " + imageBytes);

        o.putAll(Map.of("variant", "trim", "seconds", "2", "warmup", "1", "direct-io", "false"));
        Map<String, Object> out = LogTrimBench.run(o, root.resolve("work"));
        assertFalse(out.containsKey("load-seconds"), "a run from an image loads nothing");
        assertEquals(imageBytes, out.get("image-bytes"));
        assertEquals(false, out.get("direct-io"));
        assertEquals(imageBytes, LogTrimBench.treeBytes(image), "the image is copied, not used");
        long ops = (Long) out.get("ops");
        assertTrue(ops > 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> phase = (Map<String, Object>) out.get("phase");
        @SuppressWarnings("unchecked")
        Map<String, Double> perOp = (Map<String, Double>) phase.get("bytes-per-op");
        assertTrue(perOp.get("log") > 300, "every upsert is logged with its 300-byte field: " + perOp);
        assertTrue((Double) phase.get("gc-share") >= 0);
        try (var left = Files.list(root.resolve("work"))) {
            assertEquals(List.of(), left.toList(), "the run's copy is deleted");
        }
    }
}
