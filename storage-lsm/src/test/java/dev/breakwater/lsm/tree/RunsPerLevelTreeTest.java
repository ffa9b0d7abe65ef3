package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.version.Run;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runs-per-level policy in a real tree: random puts, deletes, gets and scans against a
 * {@code TreeMap}, with flushes, merges and reopens, for K = 1, 2 and T − 1; afterwards no level holds
 * more than K + 1 runs once merges have settled.
 */
class RunsPerLevelTreeTest {

    private static final long SEED = 0xAD415E;
    private static final int OPS = 20_000;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void randomOperationsAgreeWithTreeMap(int k) throws IOException {
        long offHeapBefore = OffHeapMemory.reservedBytes();
        Random rnd = new Random(SEED + k);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        ValueHolder out = new ValueHolder();
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withSizeRatio(4).withRunsPerLevel(k);
        assertEquals(LsmTreeOptions.Policy.RUNS_PER_LEVEL, options.policy());
        long merges = 0;
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/k" + k), options, 2L << 20)) {
            LsmTree tree = fx.open();
            try {
                for (int op = 0; op < OPS; op++) {
                    int n = rnd.nextInt(10_000);
                    byte[] key = key(n);
                    int dice = rnd.nextInt(1000);
                    String at = " at op " + op + " (K " + k + ")";
                    if (dice < 500) {
                        byte[] value = new byte[rnd.nextInt(100)];
                        rnd.nextBytes(value);
                        tree.put(key, value, op + 1);
                        model.put(key, value);
                    } else if (dice < 600) {
                        tree.delete(key, op + 1);
                        model.remove(key);
                    } else if (dice < 900) {
                        LookupResult r = tree.get(key, out);
                        byte[] expected = model.get(key);
                        assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, "get " + n + at);
                        if (expected != null) {
                            assertArrayEquals(expected, out.toArray(), "value of " + n + at);
                        }
                    } else if (dice < 990) {
                        TreeFixture.checkScan(tree, model, key, key(n + rnd.nextInt(200)), 40, at);
                    } else if (dice < 998) {
                        tree.flush();
                    } else if (dice < 999) {
                        tree.awaitMerges();
                    } else {
                        merges += tree.statistics().merges();
                        tree.close();
                        tree = fx.open();
                    }
                }
                tree.flush();
                tree.awaitMerges();
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
                merges += tree.statistics().merges();
                assertTrue(merges > 0, "merges ran");
                List<List<Run>> levels = tree.version().levels();
                assertTrue(levels.size() >= 3, "the tree grew levels: " + tree.version());
                for (int i = 1; i < levels.size(); i++) {
                    assertTrue(levels.get(i).size() <= Math.min(k, 3) + 1, "L" + i + " holds " + levels.get(i).size() + " runs: " + tree.version());
                }
            } finally {
                tree.close();
            }
            try (LsmTree again = fx.open()) {
                assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(again)));
            }
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "every off-heap byte released");
    }

    private static byte[] key(int n) {
        return String.format("k%08d", n).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
