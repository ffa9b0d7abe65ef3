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
    void fitsTheKeySkewToASavedStatsAnswerAndHoldsTheEnginesDesign(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        // a saved answer of the stats endpoint: mix, write memory, and a simulated cache of 8,192 pages of 16 KiB
        java.nio.file.Path stats = dir.resolve("stats.json");
        java.nio.file.Files.writeString(stats, "{\"operations\":{\"pointReads\":1000000,\"scans\":20000,\"recordWrites\":480000},"
                + "\"writeMemoryCapacity\":16777216,\"bufferCache\":{\"simulatedCapacityPages\":8192,"
                + "\"byPurpose\":{\"QUERY\":{\"hits\":3600000,\"misses\":125000,\"saved\":90000}}}}");
        BreakwaterCliTest.Run r = BreakwaterCliTest.run("advise", "--from", stats.toUri().toString(), "--empty-reads", "0.1",
                "--entries", "1777815", "--entry-bytes", "180", "--total-memory", "64m", "--write-cost", "2",
                "--key-skew", "auto", "--size-ratio", "10", "--leveling-only", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode n = new ObjectMapper().readTree(r.out());
        double theta = n.get("keySkew").asDouble();
        assertTrue(theta > 0.5 && theta < 2, "a TPC-C-like cache is skewed: " + theta);
        for (String which : new String[] {"nominal", "robust"}) {
            assertEquals(10, n.at("/" + which + "/design/sizeRatio").asInt());
            assertEquals("leveling", n.at("/" + which + "/design/policy").asText());
        }
        BreakwaterCliTest.Run noFrom = BreakwaterCliTest.run("advise", "--workload", "1,1,1,1", "--entries", "1000", "--key-skew", "auto");
        assertEquals(BreakwaterCli.FAILED, noFrom.exit());
        assertTrue(noFrom.err().contains("--key-skew auto needs --from"), noFrom.err());
        BreakwaterCliTest.Run badT = BreakwaterCliTest.run("advise", "--workload", "1,1,1,1", "--entries", "1000", "--size-ratio", "30");
        assertTrue(badT.err().contains("--size-ratio"), badT.err());
    }

    @Test
    void stepWriteCostIsTheOldModelAndNeverGivesMoreWriteMemoryToAWriteHeavyMix() throws IOException {
        String[] common = {"advise", "--workload", "0,20,0,80", "--entries", "10000000", "--entry-bytes", "100", "--total-memory", "64m",
            "--size-ratio", "10", "--leveling-only", "--json"};
        BreakwaterCliTest.Run sized = BreakwaterCliTest.run(common);
        String[] step = java.util.Arrays.copyOf(common, common.length + 1);
        step[common.length] = "--step-write-cost";
        BreakwaterCliTest.Run old = BreakwaterCliTest.run(step);
        assertEquals(0, sized.exit(), sized.err());
        assertEquals(0, old.exit(), old.err());
        long m = new ObjectMapper().readTree(sized.out()).at("/nominal/design/writeMemoryBytes").asLong();
        long mOld = new ObjectMapper().readTree(old.out()).at("/nominal/design/writeMemoryBytes").asLong();
        assertTrue(m > mOld, "merges that fall with write memory ask for more of it: " + m + " vs " + mOld);
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
