package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.tuner.CycleTrigger;
import dev.breakwater.tuner.StepReason;
import dev.breakwater.tuner.TuningCycle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory tuner on a real engine (issue 12, "Tests"): a read-mostly workload over data larger
 * than the cache moves memory into the buffer cache; a write-heavy one with enough data moves it into
 * write memory; the total never changes; no acknowledged write is lost while the regions resize.
 * Small scale: 32 MiB in total, 4 KiB pages, cycles on a 300 ms timer or every 4 MiB of log.
 */
class MemoryTunerEngineTest {

    private static final long MIB = 1L << 20;
    private static final long TOTAL = 32 * MIB;
    private static final long SEED = Long.getLong("breakwater.seed", 20261125L);
    private static final String VALUE = "v".repeat(180);

    @TempDir
    Path dir;

    private static StorageConfig.Builder config(long writeMemory, boolean tuner) {
        return StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, TOTAL)
                .set(ConfigOptions.WRITE_MEMORY, writeMemory)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 256L << 10)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 256L << 10)
                .set(ConfigOptions.SIMULATED_CACHE, 8 * MIB)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, MIB)
                .set(ConfigOptions.MAX_LOG_SIZE, 4 * MIB)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.DIRECT_IO, false)
                .set(ConfigOptions.TUNER, tuner)
                .set(ConfigOptions.TUNER_PERIOD, 300L)
                .set(ConfigOptions.TUNER_FALLBACK_STEP, 0.10); // 3.2 MiB: a 5% step would round to 1 MiB granules
    }

    private static Dataset kv(StorageEngine engine) {
        return engine.datasetNames().contains("kv") ? engine.dataset("kv")
                : engine.createDataset(DatasetSpec.builder("kv").field("id", INT32).field("v", STRING).primaryKey("id").build());
    }

    private static void load(Path dir, int keys) {
        try (StorageEngine engine = StorageEngine.open(dir, config(8 * MIB, false).build())) {
            Dataset kv = kv(engine);
            for (int i = 0; i < keys; i++) {
                kv.upsert(Tuple.of(i, VALUE));
            }
        }
    }

    private static void assertTotalConstant(List<TuningCycle> cycles) {
        for (TuningCycle c : cycles) {
            assertEquals(TOTAL, c.writeMemoryAfter() + c.cacheAfter(), "total memory changed in " + c);
            assertEquals(TOTAL, c.writeMemoryBefore() + c.cacheBefore(), "total memory changed before " + c);
        }
    }

    private static String describe(List<TuningCycle> cycles) {
        StringBuilder sb = new StringBuilder();
        for (TuningCycle c : cycles) {
            sb.append('\n').append(c.describe());
        }
        return sb.toString();
    }

    /** 60 MB of records, 32 MiB of memory, 98% uniform reads: the cache is worth more than write memory. */
    @Test
    void readMostlyWorkloadMovesMemoryIntoTheBufferCache() {
        int keys = 300_000;
        load(dir, keys);
        long start = 16 * MIB;
        try (StorageEngine engine = StorageEngine.open(dir, config(start, true).build())) {
            Dataset kv = kv(engine);
            SplittableRandom r = new SplittableRandom(SEED);
            long deadline = System.nanoTime() + 40_000_000_000L;
            while (System.nanoTime() < deadline && engine.statistics().writeMemoryCapacity() > start - 4 * MIB) {
                for (int i = 0; i < 2_000; i++) {
                    int k = r.nextInt(keys);
                    if (r.nextInt(100) < 2) {
                        kv.upsert(Tuple.of(k, VALUE));
                    } else {
                        kv.get(Key.of(k));
                    }
                }
            }
            List<TuningCycle> cycles = engine.statistics().tuner();
            System.out.println(describe(cycles));
            assertTrue(engine.statistics().writeMemoryCapacity() <= start - 4 * MIB,
                    "write memory did not shrink by 4 MiB in 40 s:" + describe(cycles));
            assertTotalConstant(cycles);
            assertTrue(engine.statistics().operations().pointReads() > 0);
        }
    }

    /** Upserts over 60 MB of keys with few reads: merges dominate, write memory is worth more. */
    @Test
    void writeHeavyWorkloadMovesMemoryIntoWriteMemory() {
        int keys = 300_000;
        long start = 6 * MIB;
        // Cycles of 4 MiB of log (a second or a few here): long enough to see several merges install
        // (per-tree merge bytes are counted when a merge installs, so a shorter cycle often sees none).
        StorageConfig c = config(start, true).set(ConfigOptions.TUNER_PERIOD, 10_000L).build();
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            Dataset kv = kv(engine);
            SplittableRandom r = new SplittableRandom(SEED);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline && engine.statistics().writeMemoryCapacity() < start + 4 * MIB) {
                for (int i = 0; i < 2_000; i++) {
                    int k = r.nextInt(keys);
                    if (r.nextInt(100) < 5) {
                        kv.get(Key.of(k));
                    } else {
                        kv.upsert(Tuple.of(k, VALUE));
                    }
                }
            }
            List<TuningCycle> cycles = engine.statistics().tuner();
            System.out.println(describe(cycles));
            assertTrue(engine.statistics().writeMemoryCapacity() >= start + 4 * MIB,
                    "write memory did not grow by 4 MiB in 60 s:" + describe(cycles));
            assertTrue(cycles.stream().anyMatch(y -> y.trigger() == CycleTrigger.LOG), "no log-triggered cycle" + describe(cycles));
            assertTotalConstant(cycles);
            assertTrue(engine.statistics().operations().recordWrites() > 0);
        }
    }

    /**
     * Four writers upsert while the test moves the walls back and forth between 4 and 20 MiB of write
     * memory (the tuner's seed path, which applies a split as a cycle does) and runs cycles in
     * between; every acknowledged value is read back, before and after a reopen.
     */
    @Test
    void noAcknowledgedWriteIsLostWhileRegionsResize() throws Exception {
        // Only this test's cycles run: a background cycle applying a step between a seed and the
        // check below would show the transient total (the shrinking region is resized first).
        StorageConfig c = config(8 * MIB, true).set(ConfigOptions.TUNER_PERIOD, 3_600_000L)
                .set(ConfigOptions.MAX_LOG_SIZE, 256 * MIB).build();
        Map<Integer, Integer> acked = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int moved;
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            Dataset kv = kv(engine);
            Thread[] writers = new Thread[4];
            for (int w = 0; w < writers.length; w++) {
                int id = w;
                writers[w] = new Thread(() -> {
                    SplittableRandom r = new SplittableRandom(SEED + id);
                    try {
                        for (int n = 0; !stop.get(); n++) {
                            int k = id + 4 * r.nextInt(25_000); // each writer owns its keys
                            kv.upsert(Tuple.of(k, n + "-" + VALUE));
                            acked.put(k, n);
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
                writers[w].start();
            }
            long[] splits = {4 * MIB, 20 * MIB, 12 * MIB, 5 * MIB, 16 * MIB};
            moved = 0;
            for (int round = 0; round < 3; round++) {
                for (long x : splits) {
                    assertEquals(x, engine.tuner().seed(x));
                    assertEquals(TOTAL, engine.statistics().writeMemoryCapacity() + engine.statistics().bufferCache().capacityBytes());
                    moved++;
                    Thread.sleep(100);
                    engine.tuner().runCycle(CycleTrigger.MANUAL);
                }
            }
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            List<TuningCycle> cycles = engine.statistics().tuner();
            assertTotalConstant(cycles);
            assertEquals(15, moved);
            assertTrue(failure.get() == null, "writer failed: " + failure.get());
            checkAll(kv, acked);
        }
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            checkAll(kv(engine), acked);
        }
    }

    private static void checkAll(Dataset kv, Map<Integer, Integer> acked) {
        for (var e : acked.entrySet()) {
            Tuple t = kv.get(Key.of(e.getKey()));
            assertTrue(t != null && t.get(1).equals(e.getValue() + "-" + VALUE), "key " + e.getKey() + " lost its acknowledged value "
                    + e.getValue() + ": " + t);
        }
    }

    @Test
    void offTheTunerRecordsCyclesButKeepsTheSplit() {
        StorageConfig c = config(8 * MIB, false).set(ConfigOptions.TUNER_PERIOD, 600_000L)
                .set(ConfigOptions.MAX_LOG_SIZE, 256 * MIB).build();
        try (StorageEngine engine = StorageEngine.open(dir, c)) {
            Dataset kv = kv(engine);
            for (int i = 0; i < 60_000; i++) {
                kv.upsert(Tuple.of(i, VALUE));
            }
            engine.flushAndAwaitMerges();
            TuningCycle cycle = engine.tuner().runCycle(CycleTrigger.MANUAL);
            assertEquals(StepReason.STOP_DISABLED, cycle.reason());
            assertEquals(8 * MIB, engine.statistics().writeMemoryCapacity());
            assertEquals(60_000, cycle.ops());
            assertTrue(cycle.writeCost() > 0, cycle.describe());
        }
    }

    @Test
    void aSeedSetsTheStartingSplitAndABadOneIsRefused() {
        StorageConfig c = config(8 * MIB, true).set(ConfigOptions.TUNER_SEED, 12 * MIB).set(ConfigOptions.TUNER_PERIOD, 600_000L).build();
        try (StorageEngine engine = StorageEngine.open(dir.resolve("seeded"), c)) {
            assertEquals(12 * MIB, engine.statistics().writeMemoryCapacity());
            assertEquals(TOTAL - 12 * MIB, engine.statistics().bufferCache().capacityBytes());
        }
        StorageConfig bad = config(8 * MIB, true).set(ConfigOptions.TUNER_SEED, TOTAL).build();
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StorageEngine.open(dir.resolve("bad"), bad).close());
        assertTrue(e.getMessage().contains("tuner-seed"), e.getMessage());
    }

    /** The operation counter against counts made here: every get, scan and record written once. */
    @Test
    void operationsAreCountedOncePerCall() {
        try (StorageEngine engine = StorageEngine.open(dir, config(8 * MIB, false).set(ConfigOptions.TUNER_PERIOD, 600_000L).build())) {
            Dataset kv = kv(engine);
            OperationCounts before = engine.statistics().operations();
            for (int i = 0; i < 100; i++) {
                kv.upsert(Tuple.of(i, VALUE));
            }
            for (int i = 0; i < 30; i++) {
                kv.get(Key.of(i));
            }
            try (Cursor<Tuple> cur = kv.scan(KeyRange.all())) {
                while (cur.hasNext()) {
                    cur.next();
                }
            }
            engine.inTransaction(tx -> {
                tx.get(kv, Key.of(1));
                tx.upsert(kv, Tuple.of(1000, VALUE));
                tx.upsert(kv, Tuple.of(1001, VALUE));
                tx.scan(kv, KeyRange.all()).close();
            });
            OperationCounts d = engine.statistics().operations().minus(before);
            assertEquals(new OperationCounts(31, 2, 102), d);
            assertEquals(135, d.total());
        }
    }
}
