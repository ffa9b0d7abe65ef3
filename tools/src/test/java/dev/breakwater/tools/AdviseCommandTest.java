package dev.breakwater.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.tuner.advisor.Design;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@code breakwater advise}: given and observed workloads, JSON output, options, bad input. */
class AdviseCommandTest {

    @Test
    void printsNominalAndRobustDesignsWithOptions() {
        BreakwaterCliTest.Run r = BreakwaterCliTest.run("advise", "--workload", "1,1,1,97", "--rho", "1", "--entries", "1000000",
                "--total-memory", "256m");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("nominal  T="), r.out());
        assertTrue(r.out().contains("robust   T="), r.out());
        assertTrue(r.out().contains("options: size-ratio="), r.out());
        assertTrue(r.out().contains("tuner-seed="), r.out());
    }

    @Test
    void jsonRobustWorstCaseIsNoWorseThanNominal() throws IOException {
        BreakwaterCliTest.Run r = BreakwaterCliTest.run("advise", "--workload", "0.49,0.01,0.49,0.01", "--rho", "0.5",
                "--entries", "1000000", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode n = new ObjectMapper().readTree(r.out());
        assertTrue(n.at("/robust/worstCaseCost").asDouble() <= n.at("/nominal/worstCaseCost").asDouble() + 1e-12);
        assertTrue(n.at("/nominal/expectedCost").asDouble() <= n.at("/robust/expectedCost").asDouble() + 1e-12);
        assertEquals(0.49, n.at("/workload/z0").asDouble(), 1e-12);
    }

    @Test
    void takesTheMixFromARunningEnginesEndpoint() throws IOException {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/stats", exchange -> {
            byte[] body = "{\"operations\":{\"pointReads\":600,\"scans\":100,\"recordWrites\":300}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            BreakwaterCliTest.Run r = BreakwaterCliTest.run("advise", "--from", "http://127.0.0.1:" + server.getAddress().getPort(),
                    "--empty-reads", "0.25", "--entries", "100000", "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode w = new ObjectMapper().readTree(r.out()).get("workload");
            assertEquals(0.15, w.get("z0").asDouble(), 1e-12);
            assertEquals(0.45, w.get("z1").asDouble(), 1e-12);
            assertEquals(0.10, w.get("q").asDouble(), 1e-12);
            assertEquals(0.30, w.get("u").asDouble(), 1e-12);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void badInputNamesWhatIsWrong() {
        BreakwaterCliTest.Run none = BreakwaterCliTest.run("advise", "--entries", "1000");
        assertEquals(BreakwaterCli.FAILED, none.exit());
        assertTrue(none.err().contains("exactly one of --workload"), none.err());
        BreakwaterCliTest.Run three = BreakwaterCliTest.run("advise", "--workload", "1,2,3", "--entries", "1000");
        assertTrue(three.err().contains("4 comma-separated numbers"), three.err());
        BreakwaterCliTest.Run neg = BreakwaterCliTest.run("advise", "--workload", "1,-2,3,4", "--entries", "1000");
        assertTrue(neg.err().contains("z1"), neg.err());
        BreakwaterCliTest.Run tiny = BreakwaterCliTest.run("advise", "--workload", "1,1,1,1", "--entries", "100000000",
                "--total-memory", "4m");
        assertEquals(BreakwaterCli.FAILED, tiny.exit());
        assertTrue(tiny.err().contains("fits in the total memory"), tiny.err());
    }

    @Test
    void optionsNameThePolicyTheEngineRuns() {
        assertEquals("LEVELING", AdviseCommand.options(Design.uniform(5 << 20, 10, 8, 1)).get("merge-policy"));
        assertEquals("TIERING", AdviseCommand.options(Design.uniform(5 << 20, 10, 8, 7)).get("merge-policy"));
        assertEquals("RUNS_PER_LEVEL", AdviseCommand.options(Design.uniform(5 << 20, 10, 8, 3)).get("merge-policy"));
        assertEquals("3", AdviseCommand.options(Design.uniform(5 << 20, 10, 8, 3)).get("runs-per-level"));
        assertEquals("6m", AdviseCommand.options(Design.uniform((5 << 20) + 1, 10, 8, 3)).get("write-memory"), "rounded up");
    }
}
