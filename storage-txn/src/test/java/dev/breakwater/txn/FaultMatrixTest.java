package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjector;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.InjectedIOException;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.tree.LsmTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The file-system fault matrix (issue 11): every {@link FileOperation} fails by injection in every
 * phase of an engine's life — open of a fresh and of an existing directory, commits, flushes,
 * merges, the monitor's checkpoint, close, and recovery from a crash image. Each (phase, operation)
 * runs twice: failing from the operation's first occurrence in the phase on, and from a seeded later
 * occurrence (2 to 4) on, so that a phase's earlier steps succeed and a later one fails. The
 * workload (two-row transactions over 800 ids, upserts and deletes) is seeded per case too.
 *
 * <p>Each case must end in a clear error (a {@link StorageException} or an {@link IOException}
 * whose cause chain holds the injected fault) or a correct result, never wrong data: the live engine
 * (faults off) serves the acknowledged rows, and after a crash clone (unsynced data dropped) a
 * reopen without faults serves every acknowledged row, the one failed transaction all or nothing,
 * and the secondary index equal to its primary.
 */
class FaultMatrixTest {

    /** Where in the engine's life the faults are on. */
    enum Phase { OPEN_FRESH, WRITE, FLUSH, MERGE, CHECKPOINT, CLOSE, RECOVERY, OPEN_EXISTING }

    private static final Path DIR = Path.of("/db");
    private static final int BATCH = 60;

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Phase phase : Phase.values()) {
            for (FileOperation op : FileOperation.values()) {
                all.add(Arguments.of(phase, op, true));
                all.add(Arguments.of(phase, op, false));
            }
        }
        return all.stream();
    }

    /** Per phase: cases that ended in a clear error, cases where no fault was injected (the operation is not used there). */
    private static final Map<Phase, int[]> OUTCOMES = new java.util.EnumMap<>(Phase.class);

    @AfterAll
    static void report() {
        OUTCOMES.forEach((phase, n) -> System.out.printf("fault matrix %-13s %2d cases failed clearly, %2d correct despite a fault, %2d without a fault%n",
                phase, n[0], n[1], n[2]));
    }

    private final MemFileSystem mem = new MemFileSystem();
    private final AtomicLong injected = new AtomicLong();
    private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
    /** Acknowledged state, id to row. */
    private final Map<Long, Tuple> model = new TreeMap<>();
    /** The changes of the one commit that failed (null: deleted), or null if none failed. */
    private Map<Long, Tuple> uncertain;
    private Random rnd;
    private int txn;

    @ParameterizedTest(name = "{1} fails during {0} (from its first occurrence: {2})")
    @MethodSource("cases")
    void aFaultEndsInAClearErrorOrACorrectResult(Phase phase, FileOperation op, boolean first) throws IOException {
        long seed = phase.ordinal() * 100L + op.ordinal() * 2L + (first ? 0 : 1);
        rnd = new Random(seed);
        long fromOccurrence = first ? 1 : 2 + rnd.nextInt(3);
        String what = op + " fails from its occurrence " + fromOccurrence + " on during " + phase;
        StorageEngine engine = null;
        boolean failed = false;
        boolean recoveryFailed = false;
        try {
            engine = faulted(phase == Phase.OPEN_FRESH, op, fromOccurrence, t -> true,
                    () -> StorageEngine.open(fs, DIR, config()));
            engine.createDataset(LogCorruptionEngineTest.rows());
            StorageEngine e = engine;
            faulted(phase == Phase.WRITE, op, fromOccurrence, t -> true, () -> batch(e));
            faulted(phase == Phase.FLUSH, op, fromOccurrence, t -> true, () -> flushAll(e));
            batch(e);
            faulted(phase == Phase.MERGE, op, fromOccurrence, t -> t.startsWith("breakwater-merge"), () -> {
                for (int i = 0; i < 4; i++) {
                    batch(e);
                    flushAll(e);
                }
                for (LsmTree t : e.trees.values()) {
                    t.awaitMerges();
                }
                return null;
            });
            batch(e); // left in memory and the log, so recovery has work to do
            faulted(phase == Phase.CHECKPOINT, op, fromOccurrence, t -> true, () -> {
                e.monitor().stop();
                new EngineMonitor(e).tick();
                return null;
            });
            if (phase == Phase.RECOVERY) {
                recoveryFailed = recoverWithFaults(mem.crashClone(), op, fromOccurrence, what);
            }
            faulted(phase == Phase.CLOSE, op, fromOccurrence, t -> true, () -> {
                e.close();
                return null;
            });
            engine = null;
            faulted(phase == Phase.OPEN_EXISTING, op, fromOccurrence, t -> true, () -> {
                try (StorageEngine reopened = StorageEngine.open(fs, DIR, config())) {
                    check(reopened, what + ", reopened");
                }
                return null;
            });
        } catch (Stop stop) {
            failed = true;
            assertClear(stop.getCause(), what);
        } finally {
            fs.clearInjector();
        }
        synchronized (OUTCOMES) {
            OUTCOMES.computeIfAbsent(phase, p -> new int[3])[failed || recoveryFailed ? 0 : injected.get() > 0 ? 1 : 2]++;
        }
        if (engine != null) {
            if (failed) {
                checkLive(engine, what);
            }
            try {
                engine.close();
            } catch (RuntimeException e) {
                assertClear(e, what + ", closing after the fault");
            }
        }
        MemFileSystem crashed = mem.crashClone();
        try (StorageEngine reopened = StorageEngine.open(crashed, DIR, config())) {
            if (reopened.datasetNames().contains("rows")) {
                check(reopened, what + ", reopened from a crash clone");
            } else {
                assertTrue(model.isEmpty() && (uncertain == null || uncertain.isEmpty()), what + ": the dataset is gone");
            }
        }
    }

    private static StorageConfig config() {
        return EngineFixture.smallConfig();
    }

    /** Thrown to end the workload at the first failure of a faulted step, with that failure as cause. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop(Throwable cause) {
            super(cause);
        }
    }

    private interface Step<T> {
        T run() throws IOException;
    }

    /** Runs {@code step} with faults on (if {@code on}) for threads whose name {@code threads} accepts. */
    private <T> T faulted(boolean on, FileOperation op, long fromOccurrence, Predicate<String> threads, Step<T> step) {
        if (on) {
            AtomicLong seen = new AtomicLong();
            FaultInjector injector = (o, path) -> o == op && threads.test(Thread.currentThread().getName())
                    && seen.incrementAndGet() >= fromOccurrence && injected.incrementAndGet() > 0
                    ? new InjectedIOException(o, path, "fault matrix") : null;
            fs.setInjector(injector);
        }
        try {
            return step.run();
        } catch (IOException | RuntimeException e) {
            if (!on) {
                throw new AssertionError("a step without faults failed", e);
            }
            throw new Stop(e);
        } finally {
            fs.clearInjector();
        }
    }

    /** One batch of two-row transactions (an upsert pair, or an upsert and a delete). */
    private Void batch(StorageEngine engine) {
        Dataset ds = engine.dataset("rows");
        for (int i = 0; i < BATCH; i++) {
            Map<Long, Tuple> changes = new HashMap<>();
            long a = rnd.nextInt(400);
            long b = 400 + rnd.nextInt(400);
            changes.put(a, Tuple.of(a, "t" + rnd.nextInt(17), "v".repeat(rnd.nextInt(300)) + txn));
            changes.put(b, rnd.nextInt(4) == 0 ? null : Tuple.of(b, "t" + rnd.nextInt(17), "w".repeat(rnd.nextInt(300)) + txn));
            txn++;
            uncertain = changes;
            engine.inTransaction(tx -> changes.forEach((id, row) -> {
                if (row == null) {
                    tx.delete(ds, Key.of(id));
                } else {
                    tx.upsert(ds, row);
                }
            }));
            uncertain = null;
            apply(model, changes);
        }
        return null;
    }

    private static void apply(Map<Long, Tuple> rows, Map<Long, Tuple> changes) {
        changes.forEach((id, row) -> {
            if (row == null) {
                rows.remove(id);
            } else {
                rows.put(id, row);
            }
        });
    }

    private static Void flushAll(StorageEngine engine) throws IOException {
        for (LsmTree t : engine.trees.values()) {
            t.flush();
        }
        return null;
    }

    /** Recovery of a crash image with faults on: a clear error, or the right rows. */
    private boolean recoverWithFaults(MemFileSystem image, FileOperation op, long fromOccurrence, String what) {
        boolean failed = false;
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(image);
        AtomicLong seen = new AtomicLong();
        faulty.setInjector((o, path) -> o == op && seen.incrementAndGet() >= fromOccurrence && injected.incrementAndGet() > 0
                ? new InjectedIOException(o, path, "fault matrix, recovery") : null);
        try (StorageEngine recovered = StorageEngine.open(faulty, DIR, config())) {
            faulty.clearInjector();
            check(recovered, what + ", recovered with faults");
        } catch (RuntimeException e) {
            assertClear(e, what);
            failed = true;
        } finally {
            faulty.clearInjector();
        }
        // Whatever the failed recovery left, a recovery without faults serves the acknowledged rows.
        try (StorageEngine again = StorageEngine.open(image.crashClone(), DIR, config())) {
            check(again, what + ", recovered again without faults");
        }
        return failed;
    }

    /** The live engine after the fault, faults off: reads may be refused, never wrong. */
    private void checkLive(StorageEngine engine, String what) {
        try {
            if (engine.datasetNames().contains("rows")) {
                check(engine, what + ", live engine after the fault");
            }
        } catch (EngineClosedException e) {
            // close() threw but closed the engine: nothing live to read
        } catch (StorageFailedException e) {
            // reads refused after a commit could not be applied to every tree: documented, and not wrong data
            assertTrue(e.getMessage().contains("refuses reads"), what + ": " + e.getMessage());
        }
    }

    /** The dataset holds the model (the failed commit all or nothing) and the index equals the primary. */
    private void check(StorageEngine engine, String what) {
        Dataset ds = engine.dataset("rows");
        Map<Long, Tuple> served = new TreeMap<>();
        try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
            c.forEachRemaining(t -> served.put(t.getLong(0), t));
        }
        Map<Long, Tuple> indexed = new TreeMap<>();
        try (Cursor<Tuple> c = ds.index("by_tag").scan(KeyRange.all())) {
            c.forEachRemaining(t -> {
                if (indexed.put(t.getLong(0), t) != null) {
                    fail(what + ": the index holds row " + t.getLong(0) + " twice");
                }
            });
        }
        assertEquals(served, indexed, what + ": the secondary index equals its primary");
        if (served.equals(model)) {
            return;
        }
        if (uncertain != null) {
            Map<Long, Tuple> withFailed = new TreeMap<>(model);
            apply(withFailed, uncertain);
            if (served.equals(withFailed)) {
                return;
            }
        }
        List<String> diff = new ArrayList<>();
        for (Long id : model.keySet()) {
            if (!model.get(id).equals(served.get(id))) {
                diff.add(id + (served.containsKey(id) ? " differs" : " missing"));
            }
        }
        for (Long id : served.keySet()) {
            if (!model.containsKey(id)) {
                diff.add(id + " unexpected");
            }
        }
        fail(what + ": serves other rows than were acknowledged (" + served.size() + " rows, expected "
                + model.size() + "; failed commit " + uncertain + "): " + diff.subList(0, Math.min(10, diff.size())));
    }

    /** A clear error: an engine or I/O exception whose cause chain (or message) holds the injected fault. */
    private static void assertClear(Throwable e, String what) {
        boolean documented = e instanceof StorageException || e instanceof IOException || e instanceof UncheckedIOException;
        if (!documented || !holdsInjected(e, 0) && !String.valueOf(e.getMessage()).contains("injected fault")) {
            throw new AssertionError(what + ": not a clear error naming the injected fault: " + e, e);
        }
    }

    private static boolean holdsInjected(Throwable e, int depth) {
        if (e == null || depth > 10) {
            return false;
        }
        if (e instanceof InjectedIOException) {
            return true;
        }
        for (Throwable s : e.getSuppressed()) {
            if (holdsInjected(s, depth + 1)) {
                return true;
            }
        }
        return holdsInjected(e.getCause(), depth + 1);
    }
}
