package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test: a child JVM runs {@link CrashWorkload} and reports each acknowledged commit; the
 * parent kills it with SIGKILL at a random moment, reopens the engine, and checks that every
 * acknowledged commit is present, no transaction is partly visible, counters agree with the ledger
 * and the secondary index agrees with its primary. {@code -Dbreakwater.killCycles=N} (default 20).
 */
class KillRecoverTest {

    private static final int CYCLES = Integer.getInteger("breakwater.killCycles", 20);

    @TempDir
    Path dir;

    @Test
    void acknowledgedCommitsSurviveSigkill() throws Exception {
        Random rnd = new Random(42);
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        long totalAcked = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            long firstTxn = (cycle + 1) * 1_000_000L;
            Process child = startChild(firstTxn);
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            assertEquals("READY", first, "child did not start; stderr: " + new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            Thread reader = new Thread(() -> {
                try {
                    String line;
                    while ((line = out.readLine()) != null) {
                        if (line.startsWith("ACK ")) {
                            acked.add(Long.parseLong(line.substring(4)));
                        }
                    }
                } catch (Exception ignored) {
                    // the pipe breaks when the child dies
                }
            });
            reader.start();
            Thread.sleep(200 + rnd.nextInt(800));
            child.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no flush
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            reader.join(5000);
            totalAcked = verify(acked);
        }
        assertTrue(totalAcked > CYCLES, "commits acknowledged over all cycles: " + totalAcked);
    }

    private Process startChild(long firstTxn) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dbreakwater")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CrashWorkload.class.getName());
        cmd.add(dir.toString());
        cmd.add(Long.toString(firstTxn));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Opens the killed engine's directory and checks every invariant; returns the acknowledged count. */
    private long verify(Set<Long> acked) {
        try (StorageEngine engine = StorageEngine.open(dir, EngineFixture.smallConfig())) {
            Dataset ledger = engine.dataset("ledger");
            Dataset events = engine.dataset("events");
            Dataset counter = engine.dataset("counter");
            Map<Long, Integer> ledgerRows = new HashMap<>();
            long[] perGroup = new long[CrashWorkload.GROUPS];
            try (Cursor<Tuple> c = ledger.scan(KeyRange.all())) {
                c.forEachRemaining(t -> {
                    ledgerRows.put(t.getLong(0), t.getInt(2));
                    perGroup[t.getInt(1)]++;
                });
            }
            for (long t : acked) {
                assertNotNull(ledgerRows.get(t), "acknowledged transaction " + t + " is missing");
            }
            Map<Long, Integer> eventCounts = new HashMap<>();
            Set<String> primaryEvents = new HashSet<>();
            try (Cursor<Tuple> c = events.scan(KeyRange.all())) {
                c.forEachRemaining(t -> {
                    eventCounts.merge(t.getLong(0), 1, Integer::sum);
                    primaryEvents.add(t.getLong(0) + "/" + t.getInt(1));
                });
            }
            for (var e : ledgerRows.entrySet()) {
                assertEquals(e.getValue(), eventCounts.getOrDefault(e.getKey(), 0), "transaction " + e.getKey() + " is partly visible");
            }
            for (long t : eventCounts.keySet()) {
                assertTrue(ledgerRows.containsKey(t), "events of transaction " + t + " without its ledger row");
            }
            Set<String> indexed = new HashSet<>();
            try (Cursor<Tuple> c = events.index("by_tag").scan(KeyRange.all())) {
                c.forEachRemaining(t -> assertTrue(indexed.add(t.getLong(0) + "/" + t.getInt(1)), "duplicate index entry"));
            }
            assertEquals(primaryEvents, indexed, "the secondary index agrees with the primary");
            for (int g = 0; g < CrashWorkload.GROUPS; g++) {
                assertEquals(perGroup[g], counter.get(Key.of(g)).getLong(1), "counter of group " + g);
            }
            return acked.size();
        }
    }
}
