package dev.breakwater.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end on one warehouse, loaded once (through the command line) and copied for
 * each test: the load's cardinalities and consistency, a short concurrent run, and a run killed
 * with SIGKILL and recovered. Small engine memory (64 MiB total, 16 MiB write memory).
 */
class TpccTest {

    private static final String[] MEMORY = {"--memory", "64m", "--write-memory", "16m"};

    @TempDir
    static Path shared;
    static Path loaded;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        loaded = shared.resolve("loaded");
        int code = TpccMain.execute(args("--warehouses", "1", "--data", loaded.toString(), "--load-only", "--seed", "7"));
        assertEquals(0, code, "load-only exit code (consistency after load)");
    }

    @Test
    void loadHasTheSpecificationsCardinalitiesAndIsConsistent() {
        try (StorageEngine engine = StorageEngine.open(loaded, config())) {
            Tables t = Tables.open(engine);
            Map<String, Long> n = ConsistencyChecker.cardinalities(t);
            assertEquals(1L, n.get(Schema.WAREHOUSE));
            assertEquals(10L, n.get(Schema.DISTRICT));
            assertEquals(30_000L, n.get(Schema.CUSTOMER));
            assertEquals(30_000L, n.get(Schema.HISTORY));
            assertEquals(30_000L, n.get(Schema.ORDER));
            assertEquals(9_000L, n.get(Schema.NEW_ORDER));
            assertEquals(100_000L, n.get(Schema.ITEM));
            assertEquals(100_000L, n.get(Schema.STOCK));
            long lines = n.get(Schema.ORDER_LINE);
            assertTrue(lines >= 5 * 30_000L && lines <= 15 * 30_000L, "order lines " + lines);
            assertTrue(Math.abs(lines - 300_000L) < 6_000, "about ten lines per order: " + lines);

            long bc = 0;
            int[] named = new int[1000];
            try (Cursor<Tuple> c = t.customer().scan(KeyRange.all())) {
                while (c.hasNext()) {
                    Tuple cu = c.next();
                    bc += "BC".equals(cu.getString(Schema.C_CREDIT)) ? 1 : 0;
                    assertEquals(-1_000L, cu.getLong(Schema.C_BALANCE));
                    if (cu.getInt(Schema.C_ID) <= 1000) {
                        assertEquals(TpccRandom.lastName(cu.getInt(Schema.C_ID) - 1), cu.getString(Schema.C_LAST));
                        named[cu.getInt(Schema.C_ID) - 1]++;
                    }
                }
            }
            assertTrue(bc > 2_400 && bc < 3_600, "about 10% BC credit: " + bc);
            assertEquals(30_000_000L, t.warehouse().get(dev.breakwater.txn.Key.of(1)).getLong(Schema.W_YTD));
            assertEquals(3001, t.district().get(dev.breakwater.txn.Key.of(1, 5)).getInt(Schema.D_NEXT_O_ID));

            List<CheckResult> checks = new ConsistencyChecker(t, 1).check(true);
            assertEquals(12, checks.size());
            for (CheckResult r : checks) {
                assertTrue(r.applicable() && r.passed(), r.toString());
            }
        }
    }

    @Test
    void shortConcurrentRunPassesConditionsOneToTwelve() throws IOException {
        Path data = copyOf(loaded, dir.resolve("data"));
        Path out = dir.resolve("result.json");
        int code = TpccMain.execute(args("--warehouses", "1", "--terminals", "4", "--duration", "15s", "--warmup", "2s",
                "--data", data.toString(), "--no-load", "--out", out.toString(), "--seed", "11", "--tuner-period", "2s",
                "--io-weights", "2,1", "--memory-component-size", "1m"));
        assertEquals(0, code, "exit code (non-zero means a consistency condition failed)");
        JsonNode r = new ObjectMapper().readTree(out.toFile());
        assertEquals(1L << 20, r.get("engineConfig").get("memory-component-size").asLong());
        // the tuner is on by default; its cycles (timer of 2 s over a 17 s run) are in the result
        assertTrue(r.get("tuner").size() >= 3, "tuner cycles in the result: " + r.get("tuner"));
        assertEquals(2.0, r.get("writeWeight").asDouble());
        assertTrue(r.get("ioCostPerTx").asDouble() >= r.get("pagesWrittenPerTx").asDouble() * 2);
        assertTrue(r.get("consistent").asBoolean());
        for (JsonNode c : r.get("consistency")) {
            assertTrue(!c.get("applicable").asBoolean() || c.get("passed").asBoolean(), c.toString());
        }
        for (JsonNode t : r.get("transactions")) {
            assertTrue(t.get("committed").asLong() > 0, "every type committed: " + t);
        }
        assertTrue(r.get("tpmC").asDouble() > 0);
        // CPU per transaction in the window: the terminals ran, and they are part of the process
        JsonNode cpu = r.get("cpuMicrosPerTx");
        assertTrue(cpu.get("terminals").asDouble() > 0, "terminal CPU per tx: " + cpu);
        assertTrue(cpu.get("process").asDouble() >= cpu.get("terminals").asDouble(), "process CPU covers the terminals: " + cpu);
        assertTrue(Files.size(dir.resolve("result.png")) > 0, "plot written");
    }

    /** {@code --transactions}: the measured phase ends on a count, not the clock; engine options given as text. */
    @Test
    void transactionLimitEndsTheMeasuredPhase() throws IOException {
        Path data = copyOf(loaded, dir.resolve("data-limit"));
        Path out = dir.resolve("limit.json");
        int code = TpccMain.execute(args("--warehouses", "1", "--terminals", "2", "--duration", "300s", "--warmup", "0s",
                "--transactions", "400", "--data", data.toString(), "--no-load", "--out", out.toString(), "--seed", "12",
                "--engine-option", "tuner-flush-cause-scaling=true", "--engine-option", "tuner-period=2000"));
        assertEquals(0, code, "exit code");
        JsonNode r = new ObjectMapper().readTree(out.toFile());
        long committed = measuredCommitted(r);
        assertTrue(committed >= 400, "at least the limit committed: " + committed);
        assertTrue(r.get("measuredSeconds").asDouble() < 300, "ended before the duration: " + r.get("measuredSeconds"));
        assertEquals(true, r.get("engineConfig").get("tuner-flush-cause-scaling").asBoolean());
        assertEquals(2000, r.get("engineConfig").get("tuner-period").asLong());
        orderStatusShowsEachCustomersLatestOrder(data);
    }

    /** Transactions the result counts as committed in the measured phase, over all types. */
    private static long measuredCommitted(JsonNode result) {
        long committed = 0;
        for (JsonNode t : result.get("transactions")) {
            committed += t.get("committed").asLong();
        }
        return committed;
    }

    /** {@code --warmup-transactions}: the warm-up ends on a count, its time being only the limit. */
    @Test
    void warmupTransactionLimitEndsTheWarmupOnACount() throws IOException {
        Path data = copyOf(loaded, dir.resolve("data-warmup-limit"));
        Path out = dir.resolve("warmup-limit.json");
        int code = TpccMain.execute(args("--warehouses", "1", "--terminals", "2", "--duration", "300s", "--warmup", "300s",
                "--warmup-transactions", "300", "--transactions", "200", "--data", data.toString(), "--no-load",
                "--out", out.toString(), "--seed", "13"));
        assertEquals(0, code, "exit code");
        JsonNode r = new ObjectMapper().readTree(out.toFile());
        long committed = measuredCommitted(r);
        assertTrue(committed >= 200, "at least the limit committed in the measured phase: " + committed);
        double warmup = r.get("warmupSeconds").asDouble();
        assertTrue(warmup > 0 && warmup < 300, "the warm-up ended on its count, not its time limit: " + warmup);
        boolean sawWarmup = false;
        for (JsonNode s : r.get("samples")) {
            sawWarmup |= !s.get("measuring").asBoolean();
        }
        assertTrue(sawWarmup, "samples before the count was reached are marked as warm-up");
    }

    /** Order-Status (a reverse index scan) against the last order a forward scan finds, for customers with several. */
    private static void orderStatusShowsEachCustomersLatestOrder(Path data) {
        int checked = 0;
        try (StorageEngine engine = StorageEngine.open(data, config())) {
            Tables t = Tables.open(engine);
            for (int d = 1; d <= Schema.DISTRICTS; d++) {
                for (int c = 1; c <= 3000; c++) {
                    try (dev.breakwater.txn.Transaction tx = engine.begin()) {
                        Tuple last = null;
                        int orders = 0;
                        try (Cursor<Tuple> o = tx.scan(t.order(), Schema.ORDER_BY_CUSTOMER,
                                KeyRange.prefix(dev.breakwater.txn.Key.of(1, d, c)))) {
                            while (o.hasNext()) {
                                last = o.next();
                                orders++;
                            }
                        }
                        if (orders < 2) {
                            continue;
                        }
                        int lines = 0;
                        for (int n = 1; n <= last.getInt(Schema.O_OL_CNT); n++) {
                            lines += tx.get(t.orderLine(), dev.breakwater.txn.Key.of(1, d, last.getInt(Schema.O_ID), n)) != null ? 1 : 0;
                        }
                        assertEquals(lines, OrderStatus.execute(t, tx, new OrderStatus.Input(1, d, c, null)),
                                "order lines of customer " + d + "/" + c + "'s latest order " + last.getInt(Schema.O_ID));
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 10, "customers with more than one order after the run: " + checked);
    }

    @Test
    void killedRunRecoversConsistent() throws Exception {
        Path data = copyOf(loaded, dir.resolve("data"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dbreakwater")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(List.of("-Xmx512m", "-cp", System.getProperty("java.class.path"), TpccMain.class.getName()));
        cmd.addAll(List.of(args("--warehouses", "1", "--terminals", "4", "--duration", "120s", "--warmup", "0s",
                "--data", data.toString(), "--no-load", "--out", dir.resolve("killed.json").toString())));
        Process child = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        CountDownLatch running = new CountDownLatch(1);
        StringBuilder log = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                    synchronized (log) {
                        log.append(line).append('\n');
                    }
                    if (line.contains("running")) {
                        running.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the pipe breaks when the child dies
            }
        });
        reader.start();
        assertTrue(running.await(60, TimeUnit.SECONDS), () -> "child did not start running: " + log);
        Thread.sleep(6_000);
        assertTrue(child.isAlive(), () -> "child ended early: " + log);
        child.destroyForcibly(); // SIGKILL: no shutdown hooks, no flush, no clean close
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        reader.join(5_000);

        assertEquals(0, TpccMain.execute(args("--warehouses", "1", "--data", data.toString(), "--check-only")),
                "consistency after recovery");
        try (StorageEngine engine = StorageEngine.open(data, config())) {
            Tables t = Tables.open(engine);
            int next = t.district().get(dev.breakwater.txn.Key.of(1, 1)).getInt(Schema.D_NEXT_O_ID);
            long orders = ConsistencyChecker.cardinalities(t).get(Schema.ORDER);
            assertTrue(orders > 30_000L || next > 3001, "the killed run committed New-Orders before the kill");
        }
    }

    private static StorageConfig config() {
        return EngineConfigs.of(64L << 20, 16L << 20, null);
    }

    private static String[] args(String... rest) {
        String[] all = new String[rest.length + MEMORY.length];
        System.arraycopy(rest, 0, all, 0, rest.length);
        System.arraycopy(MEMORY, 0, all, rest.length, MEMORY.length);
        return all;
    }

    private static Path copyOf(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }
}
