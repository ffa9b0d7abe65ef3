package dev.breakwater.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.StorageException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stats endpoint over a real loopback socket: every path, and every way a client can misbehave. */
class StatsEndpointTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private StorageEngine engine;
    private InetSocketAddress address;

    @BeforeEach
    void open() {
        engine = StorageEngine.open(dir.resolve("db"), OpsFixture.withHttp(500).build());
        address = OpsFixture.address(engine);
        Dataset c = OpsFixture.customers(engine);
        OpsFixture.insert(c, 0, 3_000);
        engine.flushAndAwaitMerges();
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void bindsToLoopbackByDefault() {
        assertTrue(address.getAddress().isLoopbackAddress(), address.toString());
        assertEquals("127.0.0.1", ConfigOptions.HTTP_BIND.defaultValue());
        assertFalse(ConfigOptions.HTTP_ENABLED.defaultValue());
    }

    @Test
    void statsIsTheEngineStatisticsSnapshot() throws IOException {
        HttpProbe.Reply r = HttpProbe.get(address, "/stats");
        assertEquals(200, r.status());
        assertTrue(r.header("content-type").startsWith("application/json"), r.head());
        JsonNode s = JSON.readTree(r.body());
        assertEquals(8L << 20, s.get("writeMemoryCapacity").asLong());
        assertTrue(s.get("bufferCache").get("capacityBytes").asLong() > 0);
        assertTrue(s.get("io").get("FLUSH").get("pagesWritten").asLong() > 0, "flushes wrote pages: " + s.get("io"));
        assertEquals(3_000, s.get("trees").get("customer.primary").get("entriesWritten").asLong());
        assertTrue(s.get("trees").get("customer.primary").get("flushes").asLong() >= 1);
        assertEquals(3_000, s.get("log").get("appendedRecords").asLong());
        assertTrue(s.get("writeMemory").get("trees").has("customer.by_last"), s.get("writeMemory").toString());
    }

    @Test
    void tunerReportsItRunsWithDefaultWeightsAndAHistory() throws IOException {
        HttpProbe.Reply r = HttpProbe.get(address, "/tuner");
        assertEquals(200, r.status());
        JsonNode t = JSON.readTree(r.body());
        assertTrue(t.get("available").asBoolean());
        assertEquals(TunerView.RUNNING, t.get("note").asText());
        assertEquals(1.0, t.get("omega").asDouble());
        assertEquals(1.0, t.get("gamma").asDouble());
        assertTrue(t.get("history").isArray(), t.toString());
    }

    @Test
    void datasetsShowIndexesTreesLevelsAndShares() throws IOException {
        HttpProbe.Reply r = HttpProbe.get(address, "/datasets");
        assertEquals(200, r.status());
        JsonNode ds = JSON.readTree(r.body()).get("datasets");
        assertEquals(1, ds.size());
        assertEquals("customer", ds.get(0).get("name").asText());
        JsonNode indexes = ds.get(0).get("indexes");
        assertEquals("primary", indexes.get(0).get("name").asText());
        assertEquals("by_last", indexes.get(1).get("name").asText());
        JsonNode tree = indexes.get(0).get("tree");
        assertEquals("customer.primary", tree.get("name").asText());
        assertTrue(tree.get("diskBytes").asLong() > 0, tree.toString());
        assertTrue(tree.get("levels").size() >= 1);
        assertTrue(tree.has("writeMemoryShare") && tree.has("memoryBytes"), tree.toString());
        long tables = 0;
        for (JsonNode level : tree.get("levels")) {
            for (JsonNode run : level.get("components")) {
                tables += run.size();
            }
        }
        assertTrue(tables > 0, tree.toString());
    }

    @Test
    void healthAndPage() throws IOException {
        HttpProbe.Reply h = HttpProbe.get(address, "/health");
        assertEquals(200, h.status());
        assertEquals("UP", JSON.readTree(h.body()).get("status").asText());
        HttpProbe.Reply page = HttpProbe.get(address, "/");
        assertEquals(200, page.status());
        assertTrue(page.header("content-type").startsWith("text/html"));
        assertTrue(page.body().contains("<canvas id=\"memory\""), page.body());
        for (String asset : List.of("/index.html", "/plot.js", "/app.js", "/page.css")) {
            assertEquals(200, HttpProbe.get(address, asset).status(), asset);
        }
        assertTrue(HttpProbe.get(address, "/stats?pretty=1").body().startsWith("{"), "query strings are ignored");
    }

    @Test
    void unknownPathsAre404AndNoFileIsReachable() throws IOException {
        for (String path : List.of("/nope", "/stats/", "/STATS", "/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                "/dev/breakwater/ops/http/page/app.js", "/page/app.js", "/META-INF/MANIFEST.MF", "/app.js/..")) {
            HttpProbe.Reply r = HttpProbe.get(address, path);
            assertEquals(404, r.status(), path);
            assertFalse(r.body().contains("root:"), path);
        }
    }

    @Test
    void everyMethodButGetIs405() throws IOException {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE")) {
            HttpProbe.Reply r = HttpProbe.send(address, method + " /stats HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                    + "Connection: close\r\n\r\nhello");
            assertEquals(405, r.status(), method);
            assertEquals("GET", r.header("allow"), method);
        }
        assertEquals(200, HttpProbe.get(address, "/health").status());
    }

    @Test
    void oversizedRequestsAreRefusedAndTheServerGoesOn() throws IOException {
        HttpProbe.Reply body = HttpProbe.send(address, "GET /stats HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n");
        assertEquals(413, body.status());
        HttpProbe.Reply headers = HttpProbe.send(address, "GET /stats HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000)
                + "\r\n\r\n");
        assertEquals(431, headers.status());
        HttpProbe.Reply line = HttpProbe.send(address, "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(414, line.status());
        assertEquals(200, HttpProbe.get(address, "/health").status());
    }

    @Test
    void malformedRequestsGet400AndTheServerGoesOn() throws IOException {
        assertEquals(400, HttpProbe.send(address, "NOT AN HTTP REQUEST\r\n\r\n").status());
        assertEquals(505, HttpProbe.send(address, "GET /stats HTTP/9.9\r\n\r\n").status());
        assertEquals(400, HttpProbe.send(address, "GET stats HTTP/1.1\r\nHost: x\r\n\r\n").status());
        byte[] junk = new byte[2048];
        new java.util.Random(14).nextBytes(junk);
        junk[junk.length - 4] = '\r';
        junk[junk.length - 3] = '\n';
        junk[junk.length - 2] = '\r';
        junk[junk.length - 1] = '\n';
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(junk);
            HttpProbe.readAll(s.getInputStream());  // answered or closed, either way the connection ends
        }
        assertEquals(200, HttpProbe.get(address, "/health").status());
    }

    @Test
    void aStalledClientIsClosedWhileOthersAreServed() throws IOException {
        try (Socket silent = new Socket(address.getAddress(), address.getPort());
             Socket stalled = new Socket(address.getAddress(), address.getPort())) {
            stalled.setSoTimeout(30_000);
            silent.setSoTimeout(30_000);
            OutputStream out = stalled.getOutputStream();
            out.write("GET /stats HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));  // never finished
            out.flush();
            assertEquals(200, HttpProbe.get(address, "/health").status(), "others are served meanwhile");
            // The server closes both once the deadline passes: read sees the end of the stream, no response.
            assertEquals(-1, stalled.getInputStream().read());
            assertEquals(-1, silent.getInputStream().read());
        }
        assertEquals(200, HttpProbe.get(address, "/health").status());
    }

    @Test
    void aTricklingClientIsClosedAtTheDeadlineNotKeptAliveByEachByte() throws Exception {
        byte[] header = ("GET /stats HTTP/1.1\r\nHost: x\r\nX-Slow: " + "s".repeat(4000)).getBytes(StandardCharsets.US_ASCII);
        boolean closedByServer = false;
        try (Socket trickle = new Socket(address.getAddress(), address.getPort())) {
            OutputStream out = trickle.getOutputStream();
            // One byte every 50 ms would take 200 s to finish the request; the server cuts it at 500 ms.
            for (int i = 0; i < header.length && !closedByServer; i++) {
                try {
                    out.write(header[i]);
                    out.flush();
                    Thread.sleep(50);
                } catch (IOException reset) {
                    closedByServer = true;
                }
            }
        }
        assertTrue(closedByServer, "the server never closed a connection that sent a partial request for 200 s");
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() throws IOException {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(30_000);
            String req = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
            s.getOutputStream().write((req + req + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String all = new String(HttpProbe.readAll(s.getInputStream()), StandardCharsets.UTF_8);
            assertEquals(3, all.split("HTTP/1.1 200 OK", -1).length - 1, all);
        }
    }

    @Test
    void closingTheEngineClosesTheServerAndItsThread() {
        engine.close();
        assertThrows(ConnectException.class, () -> new Socket(address.getAddress(), address.getPort()).close());
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("breakwater-http") && t.isAlive()) {
                left.add(t.getName());
            }
        }
        assertEquals(List.of(), left, "event loop threads left after close");
        assertTrue(OpsExtension.httpAddress(engine).isEmpty());
    }

    @Test
    void aTakenPortFailsTheOpenWithAClearMessage() {
        Path other = dir.resolve("other");
        StorageException e = assertThrows(StorageException.class, () -> StorageEngine.open(other,
                OpsFixture.withHttp(500).set(ConfigOptions.HTTP_PORT, address.getPort()).build()));
        assertTrue(e.getMessage().contains("http-port"), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(address.getPort())), e.getMessage());
        // The failed open released the directory: it opens without the endpoint.
        StorageEngine.open(other, OpsFixture.small().build()).close();
    }
}
