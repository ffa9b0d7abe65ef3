package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryMergeSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * M1 as several sorted runs (seals that add a run instead of rewriting M1, and the seal that merges
 * them all back into one) against a {@link TreeMap}: point lookups and scans while M1 holds one to
 * {@link MemoryMergeSettings#DEFAULT_FIRST_LEVEL_RUNS} runs, with overwrites and deletes of keys
 * that several runs hold, and everything after a full flush and a reopen.
 */
class MemoryLevelRunsModelTest {

    private static byte[] key(int k) {
        return String.format("k%06d", k).getBytes(StandardCharsets.UTF_8);
    }

    private static int firstLevelRuns(LsmTree tree) {
        synchronized (tree.stateLock) {
            return tree.memoryLevels.firstLevelRuns();
        }
    }

    @Test
    void lookupsAndScansSeeTheNewestVersionAcrossM1Runs() throws Exception {
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryLevels(2)
                .withMemoryTableBytes(32 * 1024);
        Random rnd = new Random(913);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        ValueHolder out = new ValueHolder();
        int maxRuns = 0;
        int consolidations = 0; // times the run count fell from the maximum back to one
        int previous = 1;
        int lookupsOverSeveralRuns = 0;
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/t"), options, 8L << 20, MemoryComponentSpec.SKIP_LIST)) {
            try (LsmTree tree = fx.open()) {
                for (int op = 0; op < 40_000; op++) {
                    // A hot tenth of the keys takes half the writes, so runs share keys with different versions.
                    int k = rnd.nextBoolean() ? rnd.nextInt(300) : rnd.nextInt(3000);
                    byte[] key = key(k);
                    String at = " at op " + op;
                    int dice = rnd.nextInt(100);
                    if (dice < 55) {
                        byte[] value = new byte[20 + rnd.nextInt(100)];
                        rnd.nextBytes(value);
                        tree.put(key, value, op + 1);
                        model.put(key, value);
                    } else if (dice < 62) {
                        tree.delete(key, op + 1);
                        model.remove(key);
                    } else if (dice < 97) {
                        int runs = firstLevelRuns(tree);
                        LookupResult r = tree.get(key, out);
                        byte[] expected = model.get(key);
                        assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, "get " + k + at);
                        if (expected != null) {
                            assertArrayEquals(expected, out.toArray(), "value of " + k + at);
                        }
                        lookupsOverSeveralRuns += runs > 1 ? 1 : 0;
                    } else {
                        TreeFixture.checkScan(tree, model, key, key(k + 200), (op & 1) == 1, 250, at);
                    }
                    int runs = firstLevelRuns(tree);
                    assertTrue(runs <= MemoryMergeSettings.DEFAULT_FIRST_LEVEL_RUNS, "M1 holds " + runs + " runs" + at);
                    if (runs == 1 && previous == MemoryMergeSettings.DEFAULT_FIRST_LEVEL_RUNS) {
                        consolidations++;
                    }
                    maxRuns = Math.max(maxRuns, runs);
                    previous = runs;
                }
                assertEquals(MemoryMergeSettings.DEFAULT_FIRST_LEVEL_RUNS, maxRuns, "M1 filled its runs");
                assertTrue(consolidations >= 3, "seals merged M1's runs back into one: " + consolidations);
                assertTrue(lookupsOverSeveralRuns > 1000, "lookups while M1 held several runs: " + lookupsOverSeveralRuns);
                assertTrue(tree.statistics().memoryMerges() > 0, "memory merges moved M1's oldest run into M2");
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "before the flush");
                tree.flush();
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after the flush");
            }
            try (LsmTree again = fx.open()) {
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(again)), "after a reopen");
            }
        }
    }
}
