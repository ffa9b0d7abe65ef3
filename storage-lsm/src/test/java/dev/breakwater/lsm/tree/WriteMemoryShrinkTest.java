package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteMemoryManager#resize} on a pool whose trees hold memory: it returns the capacity now
 * in effect (not the bytes the pool still reserves), and a shrink returns only once usage fits
 * under the flush threshold of the new capacity (the wait here is far longer than the flushes take).
 */
class WriteMemoryShrinkTest {

    private static final long POOL = 8L << 20;
    private static final int PAGE = 16 * 1024;
    private static final double THRESHOLD = 0.9;

    @Test
    void shrinkReturnsTheNewCapacityOnlyOnceUsageFitsIt() throws Exception {
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), options, POOL)) {
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC,
                    FlushPolicyKind.MAX_MEMORY, THRESHOLD, 8, 1L << 20, 16 * 1024), () -> 0L);
            List<LsmTree> trees = new ArrayList<>();
            List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                LsmTree t = LsmTree.open("t" + i, fx.dir.resolve("t" + i), options, fx.resources);
                trees.add(t);
                models.add(TreeFixture.newModel());
                m.register(t, "d" + i);
            }
            try {
                SplittableRandom rnd = new SplittableRandom(7);
                long lsn = 0;
                // Fill about 6 MiB of the 8 MiB pool; nothing flushes on its own (threshold not reached).
                while (fx.pool.usedBytes() < 6L << 20) {
                    int ti = rnd.nextInt(trees.size());
                    byte[] key = LsmTreeModelTest.key(rnd.nextInt(1_000_000));
                    byte[] value = new byte[100];
                    rnd.nextBytes(value);
                    trees.get(ti).put(key, value, ++lsn);
                    models.get(ti).put(key, value);
                }
                long target = (1L << 20) + PAGE / 2; // not a whole number of pages
                long capacity = m.resize(target, 30_000);
                long used = fx.pool.usedBytes();

                assertEquals(target / PAGE * PAGE, capacity, "resize returns the capacity in effect, in whole pages");
                assertEquals(target, fx.pool.capacityBytes());
                assertTrue(used <= THRESHOLD * capacity, "resize returned with " + used + " B in use, more than the flush threshold of the new "
                        + capacity + " B capacity (the pool still reserves " + fx.pool.reservedBytes() + " B)");

                long grown = m.resize(4L << 20, 0);
                assertEquals(4L << 20, grown, "growing returns the new capacity at once");
                for (int i = 0; i < trees.size(); i++) {
                    assertEquals("equal", TreeFixture.describeDifference(models.get(i), TreeFixture.contents(trees.get(i))), "tree " + i);
                }
            } finally {
                for (LsmTree t : trees) {
                    t.close();
                }
            }
        }
    }
}
