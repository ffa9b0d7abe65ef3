package dev.breakwater.bench.lsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@link WriteAmplificationDriver}: a 20,000-key load with 1 MiB of write memory in a
 * temporary directory must produce a JSON report whose fields are consistent. Runs in a few
 * seconds; it checks that the driver still works, not any performance number.
 */
class WriteAmplificationDriverTest {

    @Test
    void smallLoadProducesASaneReport(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("wa.json");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WriteAmplificationDriver.runCli(new String[] {"--keys", "20000", "--value-bytes", "100",
                "--write-memory", "1m", "--size-ratio", "4", "--cache", "16m", "--dir", tmp.resolve("tree").toString(),
                "--direct-io", "false", "--out", out.toString()}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));

        JsonNode r = new ObjectMapper().readTree(out.toFile());
        assertEquals(20_000, r.get("entriesWritten").asLong());
        assertEquals(20_000L * 116, r.get("bytesIngested").asLong());
        JsonNode io = r.get("ioStatistics");
        assertTrue(io.get("flushBytes").asLong() >= r.get("bytesIngested").asLong(), "every entry is flushed once: " + io);
        assertEquals(io.get("flushBytes").asLong() + io.get("mergeBytes").asLong(), io.get("totalBytes").asLong());
        JsonNode tree = r.get("treeStatistics");
        assertEquals(io.get("flushBytes").asLong(), tree.get("bytesFlushed").asLong());
        assertEquals(io.get("mergeBytes").asLong(), tree.get("mergeBytesWritten").asLong());
        assertTrue(tree.get("flushes").asLong() >= 2, "1 MiB of write memory forces several flushes: " + tree);
        double wa = r.get("writeAmplification").asDouble();
        assertTrue(wa >= 1.0 && wa < 50, "write amplification " + wa);
        assertEquals(wa, r.get("writeAmplificationFromTreeStatistics").asDouble(), 1e-9);
        long levelBytes = 0;
        for (JsonNode l : r.get("levels")) {
            levelBytes += l.get("bytes").asLong();
        }
        assertEquals(r.get("diskBytes").asLong(), levelBytes);
        assertTrue(levelBytes >= r.get("bytesIngested").asLong(), "all data is on disk after the final flush");
        JsonNode eq = r.get("equation1");
        assertEquals(116, eq.get("e").asInt());
        assertEquals(4, eq.get("T").asInt());
        assertTrue(eq.get("withWriteMemory").get("amplification").isNumber());
        assertTrue(eq.get("withWriteMemory").get("pagesPerEntry").isNumber());
    }

    @Test
    void badCommandLineIsRejected() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WriteAmplificationDriver.runCli(new String[] {"--keys", "many"}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage"));
    }
}
