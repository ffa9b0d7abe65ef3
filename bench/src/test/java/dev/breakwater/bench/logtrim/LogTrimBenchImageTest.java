package dev.breakwater.bench.logtrim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk-bound setup of session 9 at a tiny scale: a loaded image is made once, a run starts from a
 * copy of it (the image stays as it was, the copy is deleted) and reports the timed phase's counters.
 */
class LogTrimBenchImageTest {

    /** Options of a tiny loaded image at {@code image}: 3,000 records of 300 bytes in 16 MiB. */
    private static Map<String, String> tinyImage(Path image) {
        return new HashMap<>(Map.of("records", "3000", "record-bytes", "300", "threads", "2",
                "write-memory-mb", "4", "total-memory-mb", "16", "max-log-mb", "2", "segment-mb", "1",
                "image", image.toString()));
    }

    @Test
    void aRunFromAnImageLeavesTheImageAndReportsThePhase(@TempDir Path root) throws Exception {
        Path image = root.resolve("image");
        Map<String, String> o = tinyImage(image);
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

    @Test
    void zipfianKeysAreSkewedAndUniformKeysAreNot() {
        int records = 10_000;
        int draws = 200_000;
        for (String d : List.of("uniform", "zipfian")) {
            KeyChooser keys = KeyChooser.of(d, records);
            SplittableRandom r = new SplittableRandom(7);
            int[] hits = new int[records];
            for (int i = 0; i < draws; i++) {
                long k = keys.next(r);
                assertTrue(k >= 0 && k < records, d + " key out of range: " + k);
                hits[(int) k]++;
            }
            int[] sorted = hits.clone();
            Arrays.sort(sorted);
            long top1Percent = 0;
            for (int i = records - records / 100; i < records; i++) {
                top1Percent += sorted[i];
            }
            double share = top1Percent / (double) draws;
            if (d.equals("uniform")) {
                assertTrue(share < 0.02, "uniform: the hottest 1% of keys take about 1% of operations: " + share);
            } else {
                assertTrue(share > 0.1, "zipfian: the hottest 1% of keys take ten times their share: " + share);
            }
        }
    }

    @Test
    void aZipfianRunReportsItsDistributionAndWhatMemoryAndTheLogHeld(@TempDir Path root) throws Exception {
        Path image = root.resolve("image");
        Map<String, String> o = tinyImage(image);
        LogTrimBench.load(o, root.resolve("work"));
        o.putAll(Map.of("variant", "base", "seconds", "2", "warmup", "1", "direct-io", "false",
                "distribution", "zipfian"));
        Map<String, Object> out = LogTrimBench.run(o, root.resolve("work"));
        assertEquals("zipfian", out.get("distribution"));
        assertTrue((Long) out.get("ops") > 0);
        assertTrue((Long) out.get("mean-log-span-bytes") > 0, "upserts were logged: " + out);
        assertTrue((Long) out.get("mean-write-memory-used") > 0, "upserts were in memory: " + out);
        o.put("distribution", "pareto");
        assertThrows(IllegalArgumentException.class, () -> LogTrimBench.run(o, root.resolve("work")));
    }
}
