package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryKinds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seeded, model-based random test: puts, deletes, gets, forward and reverse range scans, flushes,
 * merges and reopens interleaved, against a {@link TreeMap} (its descending map for reverse scans). {@code -Dbreakwater.modelOps=N} runs more
 * operations, {@code -Dbreakwater.seed=S} another seed, {@code -Dbreakwater.modelSeeds=N} each case with N seeds (S, then
 * S + 7919·i): races between the background flushes and merges show up about once in a hundred runs, so a suspected one
 * needs a few hundred (e.g. {@code -Dtest='LsmTreeModelTest#randomOperationsAgreeWithTreeMap' -Dbreakwater.modelSeeds=200}).
 */
class LsmTreeModelTest {

    private static final int OPS = Integer.getInteger("breakwater.modelOps", 100_000);
    private static final long SEED = Long.getLong("breakwater.seed", 20261121L);
    private static final int SEEDS = Integer.getInteger("breakwater.modelSeeds", 1);

    static byte[] key(int k) {
        return ByteBuffer.allocate(4).putInt(k).array();
    }

    /**
     * Merge policy and memory component: leveling and tiering with a monolithic one, leveling with a
     * partitioned one of two and of three memory levels; Garnering with Monkey filters. The partitioned modes use a small M0 and
     * rare explicit flushes, so memory levels fill and memory merges run concurrently with seals,
     * partial flushes and reads.
     */
    enum Mode {
        LEVELING(LsmTreeOptions.Policy.LEVELING, 0),
        TIERING(LsmTreeOptions.Policy.TIERING, 0),
        LEVELING_PARTITIONED(LsmTreeOptions.Policy.LEVELING, 2),
        LEVELING_PARTITIONED_3(LsmTreeOptions.Policy.LEVELING, 3),
        /** Garnering with c = 0.5 (few, fast-growing levels) and Monkey filter sizing. */
        GARNERING_MONKEY(LsmTreeOptions.Policy.GARNERING, 0),
        /** Batched L0 (levels sized from l0MergeGroups·M): a smaller memory table so the tree still grows levels. */
        LEVELING_BATCHED_L0(LsmTreeOptions.Policy.LEVELING_BATCHED_L0, 0),
        LEVELING_BATCHED_L0_PARTITIONED(LsmTreeOptions.Policy.LEVELING_BATCHED_L0, 2);

        final LsmTreeOptions.Policy policy;
        final int memoryLevels;

        Mode(LsmTreeOptions.Policy policy, int memoryLevels) {
            this.policy = policy;
            this.memoryLevels = memoryLevels;
        }

        LsmTreeOptions options() {
            LsmTreeOptions o = TreeFixture.smallTreeOptions(policy).withMemoryLevels(memoryLevels);
            if (policy == LsmTreeOptions.Policy.GARNERING) {
                o = o.withGarnering(0.5).withBloomAllocation(LsmTreeOptions.BloomAllocation.MONKEY);
            }
            if (policy == LsmTreeOptions.Policy.LEVELING_BATCHED_L0 && memoryLevels == 0) {
                return o.withMemoryTableBytes(32 * 1024);
            }
            return memoryLevels == 0 ? o : o.withMemoryTableBytes(16 * 1024);
        }

        /** Share of the flush draws (3 in 1000 operations) that really flush: partitioned trees rarely flush explicitly. */
        double explicitFlushShare() {
            return memoryLevels == 0 ? 1.0 : 0.05;
        }
    }

    /**
     * Every mode with the default skip-list; the other memory-component kinds with a monolithic and a
     * partitioned component, on a third of the operations (CI time) and a partitioned M0 of two
     * pages (one for data, one for their bucket array or index, which would fill a one-page M0 alone).
     */
    static Stream<Arguments> cases() {
        Stream<Arguments> skipList = Stream.of(Mode.values()).map(m -> Arguments.of(m, MemoryKinds.SKIP_LIST));
        Stream<Arguments> others = MemoryKinds.others().flatMap(spec -> Stream.of(Mode.LEVELING, Mode.LEVELING_PARTITIONED)
                .map(m -> Arguments.of(m, spec)));
        return Stream.concat(skipList, others).flatMap(a -> java.util.stream.LongStream.range(0, SEEDS)
                .mapToObj(i -> Arguments.of(a.get()[0], a.get()[1], SEED + 7919 * i)));
    }

    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("cases")
    void randomOperationsAgreeWithTreeMap(Mode mode, MemoryComponentSpec spec, long seed) throws IOException {
        boolean defaultKind = spec == MemoryKinds.SKIP_LIST;
        int ops = defaultKind ? OPS : OPS / 3;
        LsmTreeOptions.Policy policy = mode.policy;
        long offHeapBefore = OffHeapMemory.reservedBytes();
        Random rnd = new Random(seed ^ mode.ordinal());
        MemFileSystem fs = new MemFileSystem();
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        ValueHolder out = new ValueHolder();
        int reopens = 0;
        int scans = 0;
        long flushes = 0;
        long merges = 0;
        long memorySeals = 0;
        long memoryMerges = 0;
        LsmTreeOptions options = defaultKind || mode.memoryLevels == 0 ? mode.options() : mode.options().withMemoryTableBytes(32 * 1024);
        try (TreeFixture fx = new TreeFixture(fs, Path.of("/db/t"), options, 2L << 20, spec)) {
            LsmTree tree = fx.open();
            try {
                for (int op = 0; op < ops; op++) {
                    int k = rnd.nextInt(20_000);
                    byte[] key = key(k);
                    int dice = rnd.nextInt(1000);
                    String at = " at op " + op + " (seed " + seed + ", " + mode + ", " + spec.kind() + ")";
                    if (dice < 450) {
                        byte[] value = new byte[rnd.nextInt(120)];
                        rnd.nextBytes(value);
                        tree.put(key, value, op + 1);
                        model.put(key, value);
                    } else if (dice < 550) {
                        tree.delete(key, op + 1);
                        model.remove(key);
                    } else if (dice < 900) {
                        LookupResult r = tree.get(key, out);
                        byte[] expected = model.get(key);
                        assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, "get " + k + at);
                        if (expected != null) {
                            assertArrayEquals(expected, out.toArray(), "value of " + k + at);
                        }
                    } else if (dice < 995) {
                        scans++;
                        int hi = k + rnd.nextInt(300);
                        byte[] to = rnd.nextInt(10) == 0 ? null : key(hi);
                        // Every other scan runs backward over the same range (open below one time in five).
                        boolean descending = (op & 1) == 1;
                        TreeFixture.checkScan(tree, model, descending && op % 5 == 0 ? null : key, to, descending, 60, at);
                    } else if (dice < 998) {
                        if (rnd.nextDouble() < mode.explicitFlushShare()) {
                            tree.flush();
                        }
                    } else if (dice < 999) {
                        tree.awaitMerges();
                    } else {
                        flushes += tree.statistics().flushes();
                        merges += tree.statistics().merges();
                        memorySeals += tree.statistics().memorySeals();
                        memoryMerges += tree.statistics().memoryMerges();
                        tree.close();
                        tree = fx.open();
                        reopens++;
                    }
                }
                tree.flush();
                tree.awaitMerges();
                assertEquals(TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "equal");
                TreeFixture.checkScan(tree, model, null, null, true, Integer.MAX_VALUE, " after the final flush");
                TreeStatisticsSnapshot s = tree.statistics();
                flushes += s.flushes();
                merges += s.merges();
                memorySeals += s.memorySeals();
                memoryMerges += s.memoryMerges();
                if (mode.memoryLevels > 0) {
                    assertTrue(memorySeals > 10, "the partitioned component sealed M0 into memory levels: " + memorySeals);
                    // Since M1 holds up to 4 runs, an M1 -> M2 merge needs M1 to outgrow its target before a flush
                    // drains it; the other kinds' runs (a third of the operations) may end without one under a
                    // loaded machine (CI, 2026-11-27), so only the default kind's full run must have merged.
                    if (defaultKind) {
                        assertTrue(memoryMerges > 0, "memory merges moved data from M1 to M2: " + memoryMerges);
                    }
                }
                // The shorter runs of the other kinds, and partitioned trees, flush less often (through memory SSTables first).
                assertTrue(flushes > (defaultKind && mode.memoryLevels == 0 ? 10 : 2), "flushes: " + flushes + ", last: " + s);
                assertTrue(merges > 0, "merges: " + merges + ", last: " + s);
                assertTrue(tree.version().levelCount() >= 3, "the tree grew levels: " + tree.version());
                assertTrue(reopens > 0 && scans > 0);
            } finally {
                tree.close();
            }
            // Reopen once more: exactly the last installed version, nothing lost.
            try (LsmTree again = fx.open()) {
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(again)));
            }
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "every off-heap byte released");
    }
}
