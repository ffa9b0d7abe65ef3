package dev.breakwater.kstreams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store promises Kafka Streams' checkpoint: once {@code flush()} returns, every earlier
 * write survives a SIGKILL. A child JVM writes to a store ({@code ASYNC}, with a sync interval far
 * longer than the test, so only {@code flush()} makes anything durable) and prints the index of
 * the last write before each flush returned; the parent kills it at a random flush, reopens the
 * store on the same task directory and checks every key holds at least its value as of the last
 * printed flush (later writes may or may not have survived; Kafka replays them from the changelog).
 */
class StoreKillTest {

    private static final int KEYS = 300;
    private static final int FLUSH_EVERY = 150;

    @TempDir
    Path dir;

    @Test
    void everythingBeforeAFlushSurvivesSigkill() throws Exception {
        Random rnd = new Random(11);
        for (int cycle = 0; cycle < 3; cycle++) {
            Path stateDir = dir.resolve("cycle" + cycle);
            Process child = new ProcessBuilder(childCommand(stateDir)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            int wantFlushes = 1 + rnd.nextInt(4);
            long lastFlushed = -1;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                int seen = 0;
                String line;
                while (seen < wantFlushes && (line = out.readLine()) != null) {
                    if (line.startsWith("FLUSHED ")) {
                        lastFlushed = Long.parseLong(line.substring(8));
                        seen++;
                    }
                }
                child.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, no close, no flush
                child.waitFor();
            }
            assertTrue(lastFlushed >= 0, "the child flushed before it was killed");

            BreakwaterKeyValueStore store = TestStores.open(stateDir, "kill", new TaskId(0, 0), "s");
            try {
                for (int k = 0; k < KEYS; k++) {
                    long expectedAtLeast = lastFlushed - Math.floorMod(lastFlushed - k, KEYS); // last write to k at or before it
                    byte[] v = store.get(key(k));
                    if (expectedAtLeast < 0) {
                        continue; // never written before the flush
                    }
                    assertNotNull(v, "cycle " + cycle + ": key " + k + " written at " + expectedAtLeast + " before flush " + lastFlushed);
                    long got = ByteBuffer.wrap(v).getLong();
                    assertEquals(k, Math.floorMod(got, KEYS), "a value written to this key");
                    assertTrue(got >= expectedAtLeast, "cycle " + cycle + ": key " + k + " holds " + got + ", flushed " + expectedAtLeast);
                }
            } finally {
                store.close();
            }
        }
    }

    static Bytes key(int k) {
        return Bytes.wrap(("k" + k).getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> childCommand(Path stateDir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dbreakwater")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx256m");
        cmd.add("-XX:MaxDirectMemorySize=256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StoreKillTest.class.getName());
        cmd.add(stateDir.toString());
        return cmd;
    }

    /** The child: writes forever, printing the last write index before each flush returned. */
    public static void main(String[] args) {
        Path stateDir = Path.of(args[0]);
        TestContext ctx = new TestContext(stateDir, "kill", new TaskId(0, 0));
        BreakwaterKeyValueStore store = (BreakwaterKeyValueStore) BreakwaterStores.persistentKeyValueStore("s",
                TestStores.small().toBuilder().set(ConfigOptions.ASYNC_SYNC_INTERVAL, 60_000L).build()).get();
        store.init(ctx, store);
        for (long i = 0; ; i++) {
            store.put(key((int) (i % KEYS)), ByteBuffer.allocate(8).putLong(i).array());
            if (i % FLUSH_EVERY == FLUSH_EVERY - 1) {
                store.flush();
                System.out.println("FLUSHED " + i);
                System.out.flush();
            }
        }
    }
}
