package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash test: a child JVM runs {@link CrashWorkload} and reports each acknowledged commit; the
 * parent kills it with SIGKILL at a random moment, reopens the engine, and checks with
 * {@link CrashCheck} that every acknowledged commit is present, no transaction is partly visible,
 * counters agree with the ledger and the secondary index agrees with its primary.
 * {@code -Dbreakwater.killCycles=N} (default 20). The long version, with kills during open and
 * close too, is {@code dev.breakwater.bench.safety.KillSoak}.
 */
class KillRecoverTest {

    private static final int CYCLES = Integer.getInteger("breakwater.killCycles", 20);

    @TempDir
    Path dir;

    @Test
    void acknowledgedCommitsSurviveSigkill() throws Exception {
        run(false, CYCLES);
    }

    /** The same with Garnering and Monkey filters, fewer cycles to keep the build short. */
    @Test
    void acknowledgedCommitsSurviveSigkillWithGarneringAndMonkey() throws Exception {
        System.setProperty(CrashWorkload.VARIANT_PROPERTY, CrashWorkload.GARNERING_MONKEY);
        try {
            run(false, Math.max(4, CYCLES / 4));
        } finally {
            System.clearProperty(CrashWorkload.VARIANT_PROPERTY);
        }
    }

    /**
     * The same with the log trimmed and compressed in the background (paper 002): the kills land
     * during trimming passes, compressions and swaps as well as everything else.
     */
    @Test
    void acknowledgedCommitsSurviveSigkillWithLogTrimAndCompression() throws Exception {
        run(true, Math.max(4, CYCLES / 2));
    }

    /**
     * The same over hash-partitioned datasets (4 partitions each): every transaction writes ledger,
     * events and counter rows that hash to different partitions, so its one commit record spans
     * partition trees, and recovery must replay each of them.
     */
    @Test
    void acknowledgedCommitsSurviveSigkillWithPartitionedDatasets() throws Exception {
        run(false, Math.max(4, CYCLES / 4), List.of("-D" + CrashWorkload.PARTITIONS_PROPERTY + "=4"));
    }

    private void run(boolean packing, int cycles) throws Exception {
        run(packing, cycles, packing ? List.of("-D" + CrashWorkload.PACKING_PROPERTY + "=true") : List.of());
    }

    private void run(boolean packing, int cycles, List<String> jvm) throws Exception {
        Random rnd = new Random(packing ? 43 : 42 + jvm.size());
        CrashModel model = new CrashModel();
        for (int cycle = 0; cycle < cycles; cycle++) {
            long firstTxn = (cycle + 1) * 1_000_000L;
            model.startCycle(firstTxn);
            Process child = new ProcessBuilder(CrashWorkload.childCommand(dir, firstTxn, -1, jvm))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("OPENING", out.readLine());
            assertEquals("READY", out.readLine(), "child did not start");
            Thread reader = new Thread(() -> {
                try {
                    String line;
                    while ((line = out.readLine()) != null) {
                        model.record(line);
                    }
                } catch (Exception ignored) {
                    // the pipe breaks when the child dies
                }
            });
            reader.start();
            Thread.sleep(200 + rnd.nextInt(800));
            // SIGKILL on Linux: no shutdown hooks, no flush. Through the handle: Process.destroyForcibly
            // also closes the pipe and drops unread TRY/ACK lines, which would look like phantoms.
            child.toHandle().destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            reader.join(5000);
            try (StorageEngine engine = StorageEngine.open(dir, CrashWorkload.config(packing))) {
                if (!jvm.isEmpty() && !packing) {
                    assertEquals(4, engine.dataset("events").spec().partitions(), "the child made partitioned datasets");
                }
                CrashCheck.Result r = CrashCheck.check(engine, model);
                assertTrue(r.clean(), "cycle " + cycle + ": " + r);
            }
        }
        assertTrue(model.ackedCount() > cycles, "commits acknowledged over all cycles: " + model.ackedCount());
    }
}
