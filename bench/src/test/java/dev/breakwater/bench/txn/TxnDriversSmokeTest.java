package dev.breakwater.bench.txn;

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
 * Smoke tests of the transaction-log drivers: each runs for about a second with tiny settings in a
 * temporary directory and must produce a report whose fields are present and consistent. They check
 * that the drivers work, not any performance number.
 */
class TxnDriversSmokeTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private PrintStream stdout() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private PrintStream stderr() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    @Test
    void commitThroughputReportsEveryPoint(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("commit.json");
        int code = CommitThroughputDriver.runCli(new String[] {"--committers", "1,4", "--seconds", "0.4", "--warmup", "0.1",
                "--dir", tmp.resolve("runs").toString(), "--out", json.toString()}, stdout(), stderr());
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("commits/fsync"));
        JsonNode results = new ObjectMapper().readTree(json.toFile()).get("results");
        assertEquals(4, results.size(), "log and engine, 1 and 4 committers");
        for (JsonNode r : results) {
            assertTrue(r.get("commits").asLong() > 0, r.toString());
            assertTrue(r.get("commitsPerSecond").asDouble() > 0, r.toString());
            assertTrue(r.get("fsyncs").asLong() > 0, r.toString());
            // SYNC: every commit waits for an fsync, so at least one record per fsync (about)
            assertTrue(r.get("commitsPerFsync").asDouble() >= 0.9, r.toString());
            assertTrue(r.get("commitsPerFsync").asDouble() <= r.get("committers").asInt() + 0.01, r.toString());
            assertTrue(r.get("meanFsyncMicros").asDouble() > 0, r.toString());
            assertTrue(r.get("p50Micros").asLong() <= r.get("p99Micros").asLong(), r.toString());
            assertTrue(r.get("p99Micros").asLong() <= r.get("maxMicros").asLong(), r.toString());
        }
    }

    @Test
    void logAppendBandwidthReportsLogAndBaselines(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("append.json");
        int code = LogAppendBandwidth.runCli(new String[] {"--seconds", "0.3", "--segment-size", "8m", "--chunk", "1m",
                "--dir", tmp.resolve("runs").toString(), "--out", json.toString()}, stdout(), stderr());
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode results = new ObjectMapper().readTree(json.toFile()).get("results");
        assertEquals(LogAppendBandwidth.ALL_PHASES.size(), results.size());
        for (JsonNode r : results) {
            assertTrue(r.get("bytes").asLong() > 0, r.toString());
            assertTrue(r.get("mibPerSecond").asDouble() > 0, r.toString());
            assertTrue(r.get("fsyncs").asLong() > 0, r.toString());
        }
        JsonNode log = results.get(0);
        assertEquals("log", log.get("phase").asText());
        assertTrue(log.get("records").asLong() * 64 * 1024 < log.get("bytes").asLong(), "bytes include headers: " + log);
    }

    @Test
    void recoveryReplaysEverythingTheKilledChildWrote(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("recovery.json");
        int code = RecoveryReplayDriver.runCli(new String[] {"--mb", "2", "--child-heap-mb", "256",
                "--dir", tmp.resolve("runs").toString(), "--out", json.toString()}, stdout(), stderr());
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        JsonNode written = r.get("written");
        JsonNode rec = r.get("recovery");
        assertTrue(written.get("logBytes").asLong() >= 2L << 20, written.toString());
        assertEquals(0, written.get("treeFlushesInChild").asLong(), "nothing may be flushed before the kill");
        assertEquals(written.get("records").asLong(), r.get("bareLogScan").get("records").asLong());
        assertEquals(written.get("logBytes").asLong(), r.get("bareLogScan").get("bytes").asLong());
        assertEquals(written.get("records").asLong(), rec.get("treeEntriesReplayed").asLong(),
                "one tree entry per single-record upsert is replayed");
        assertTrue(rec.get("logPurposeBytesReadByOpen").asLong() >= written.get("logBytes").asLong());
        assertEquals(0, rec.get("treeDiskBytes").asLong());
        assertTrue(rec.get("firstKeyPresent").asBoolean());
        assertTrue(rec.get("openSeconds").asDouble() > 0);
        assertTrue(rec.get("replayMiBPerSecondGross").asDouble() > 0);
    }

    @Test
    void badCommandLinesAreRejected() throws Exception {
        assertEquals(2, CommitThroughputDriver.runCli(new String[] {"--committers", "0"}, stdout(), stderr()));
        assertEquals(2, LogAppendBandwidth.runCli(new String[] {"--chunk", "1000"}, stdout(), stderr()));
        assertEquals(2, RecoveryReplayDriver.runCli(new String[] {"--mb"}, stdout(), stderr()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage"));
    }
}
