package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryKinds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A reverse scan's snapshot and lifetime: while a reverse cursor is half read, every key is
 * overwritten or deleted, the memory components are sealed, flushed and memory-merged and the disk
 * components merged away; the cursor still returns exactly the snapshot it opened, in descending
 * order. Closing it releases everything (off-heap memory returns to its level when the tree closes)
 * and a closed cursor refuses to move. For every memory-component kind, monolithic and partitioned.
 */
class ReverseScanSnapshotTest {

    static Stream<Arguments> cases() {
        return MemoryKinds.kinds().flatMap(spec -> Stream.of(0, 2).map(levels -> Arguments.of(spec, levels)));
    }

    @ParameterizedTest(name = "{0} memory levels {1}")
    @MethodSource("cases")
    void halfReadReverseCursorKeepsItsSnapshotThroughFlushesAndMerges(MemoryComponentSpec spec, int memoryLevels) throws Exception {
        long offHeapBefore = OffHeapMemory.reservedBytes();
        Random rnd = new Random(31 + memoryLevels);
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryLevels(memoryLevels);
        if (memoryLevels > 0) {
            options = options.withMemoryTableBytes(32 * 1024);
        }
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/t"), options, 4L << 20, spec)) {
            TreeMap<byte[], byte[]> model = TreeFixture.newModel();
            long lsn = 0;
            try (LsmTree tree = fx.open()) {
                // Some data on disk, some in memory, overwrites in between.
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 4000; i++) {
                        byte[] key = LsmTreeModelTest.key(rnd.nextInt(6000));
                        byte[] value = new byte[1 + rnd.nextInt(40)];
                        rnd.nextBytes(value);
                        tree.put(key, value, ++lsn);
                        model.put(key, value);
                    }
                    if (round < 2) {
                        tree.flush();
                    }
                }
                byte[] from = LsmTreeModelTest.key(500);
                byte[] to = LsmTreeModelTest.key(5500);
                List<Map.Entry<byte[], byte[]>> expected = new ArrayList<>(model.subMap(from, true, to, false).descendingMap().entrySet());
                EntryCursor c = tree.reverseScan(from, to);
                Iterator<Map.Entry<byte[], byte[]>> it = expected.iterator();
                for (int i = 0; i < expected.size() / 2; i++) {
                    checkNext(c, it.next(), i);
                }
                // Change everything under the open cursor, and move every component it reads.
                for (int k = 0; k < 6000; k++) {
                    if (k % 3 == 0) {
                        tree.delete(LsmTreeModelTest.key(k), ++lsn);
                    } else {
                        tree.put(LsmTreeModelTest.key(k), new byte[] {7}, ++lsn);
                    }
                }
                tree.flush();
                tree.awaitMerges();
                for (int i = expected.size() / 2; it.hasNext(); i++) {
                    checkNext(c, it.next(), i);
                }
                assertFalse(c.next(), "the snapshot has nothing more");
                c.close();
                c.close(); // idempotent
                IllegalStateException e = assertThrows(IllegalStateException.class, c::next);
                assertTrue(e.getMessage().contains("closed"), e.getMessage());
                assertTrue(tree.statistics().merges() > 0, "merges ran: " + tree.statistics());
                // A new reverse scan sees the new state.
                try (EntryCursor now = tree.reverseScan(null, null)) {
                    for (int k = 5999; k >= 0; k--) {
                        if (k % 3 != 0) {
                            assertTrue(now.next());
                            assertArrayEquals(LsmTreeModelTest.key(k), Arrays.copyOf(now.key(), now.keyLength()));
                        }
                    }
                    assertFalse(now.next());
                }
            }
        }
        assertEquals(offHeapBefore, OffHeapMemory.reservedBytes(), "every off-heap byte released");
    }

    private static void checkNext(EntryCursor c, Map.Entry<byte[], byte[]> e, int i) throws Exception {
        assertTrue(c.next(), "entry " + i + " missing");
        assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()), "key of entry " + i);
        assertArrayEquals(e.getValue(), Arrays.copyOf(c.value(), c.valueLength()), "value of entry " + i);
    }
}
