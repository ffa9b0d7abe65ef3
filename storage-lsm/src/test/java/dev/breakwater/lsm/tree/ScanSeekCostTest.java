package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a short scan costs over a tree whose memory level M1 holds many tables and whose disk holds
 * several runs (issue 19: scans right after writes were several times slower than after a flush):
 * its merge has one source for M0, one per memory level (not one per memory SSTable) and one per
 * run; it opens only the tables whose key ranges meet the scan's range (none past the range's end); and its merge reads at most one entry
 * past the range from each source. Counted with the tree's scan counters, so no timing is involved.
 * On the code before the fix, a scan near the low end of the key space opened every M1 table above
 * its start.
 */
class ScanSeekCostTest {

    private static byte[] key(int k) {
        return ByteBuffer.allocate(4).putInt(k).array();
    }

    private static byte[] newValue(int k) {
        byte[] v = new byte[100];
        ByteBuffer.wrap(v).putInt(k);
        return v;
    }

    @Test
    void shortScansOpenOnlyTablesInTheirRangeAndReadLittlePastIt() throws Exception {
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryLevels(2)
                .withMemoryTableBytes(64 * 1024);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/t"), options, 4L << 20, MemoryComponentSpec.SKIP_LIST);
             LsmTree tree = fx.open()) {
            byte[] value = new byte[100];
            long lsn = 1;
            // Older versions on disk, then newer ones through M0 seals into the memory levels.
            for (int i = 0; i < 3000; i++) {
                tree.put(key(i), value, lsn++);
            }
            tree.flush();
            // A background flush (for memory or the log; the machine may be slow) can empty the memory
            // levels between the writes and the check: write the newer versions again until they hold
            // several tables.
            Shape start = null;
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 3000; i++) {
                    tree.put(key(i), newValue(i), lsn++);
                }
                tree.flusher.awaitIdle();
                tree.awaitMerges(); // no write follows, so the shape stays as it is now
                tree.flusher.awaitIdle();
                start = shape(tree);
                if (start.levels().all().size() >= 4) {
                    break;
                }
            }
            assertTrue(start.levels().all().size() >= 4,
                    "the memory levels hold several tables (the case the test is about): " + start.levels());
            assertTrue(start.disk().stream().anyMatch(l -> l.stream().anyMatch(r -> !r.isEmpty())), "data on disk too");

            for (int[] range : new int[][] {{100, 110}, {1500, 1520}, {2990, 3000}}) {
                for (boolean descending : new boolean[] {false, true}) {
                    // Background work the test does not control (a flush for memory or the log) may change the
                    // tree's shape; a scan counts only if the shape was the same before and after it.
                    boolean checked = false;
                    for (int attempt = 0; attempt < 20 && !checked; attempt++) {
                        checked = scanAndCheck(tree, range, descending);
                    }
                    assertTrue(checked, "the tree's shape stayed still for one scan of " + Arrays.toString(range));
                }
            }
        }
    }

    private record Shape(MemoryLevels levels, int immutables, List<List<Run>> disk) {
    }

    private static Shape shape(LsmTree tree) {
        synchronized (tree.stateLock) {
            return new Shape(tree.memoryLevels, tree.immutables.size(), tree.version().levels());
        }
    }

    /** One scan, checked against the shape it ran over; false if the shape changed meanwhile. */
    private static boolean scanAndCheck(LsmTree tree, int[] range, boolean descending) throws IOException {
        Shape shape = shape(tree);
        byte[] from = key(range[0]);
        byte[] to = key(range[1]);
        long[] before = tree.scanCounters();
        int returned = 0;
        try (EntryCursor c = descending ? tree.reverseScan(from, to) : tree.scan(from, to)) {
            while (c.next()) {
                int k = ByteBuffer.wrap(c.key(), 0, 4).getInt();
                assertEquals(descending ? range[1] - 1 - returned : range[0] + returned, k);
                assertArrayEquals(newValue(k), Arrays.copyOf(c.value(), c.valueLength()));
                returned++;
            }
        }
        long[] after = tree.scanCounters();
        Shape now = shape(tree);
        if (now.levels() != shape.levels() || now.immutables() != shape.immutables() || !now.disk().equals(shape.disk())) {
            return false;
        }
        int runs = 0;
        for (List<Run> l : shape.disk()) {
            runs += (int) l.stream().filter(r -> !r.isEmpty()).count();
        }
        int memoryRuns = 0;
        for (int r = 0; r < shape.levels().runCount(); r++) {
            memoryRuns += shape.levels().run(r).isEmpty() ? 0 : 1;
        }
        String at = " scanning [" + range[0] + ", " + range[1] + ")" + (descending ? " descending" : "") + " over "
                + shape.levels() + ", " + shape.immutables() + " sealed M0s and " + runs + " disk runs";
        assertEquals(range[1] - range[0], returned, "every key" + at);
        assertEquals(1, after[0] - before[0], "one scan" + at);
        long sources = 1 + shape.immutables() + memoryRuns + runs;
        assertEquals(sources, after[3] - before[3], "one source for each M0, each memory run and each disk run" + at);
        long overlapping = overlappingMemoryTables(shape.levels(), from, to) + overlappingDiskTables(shape.disk(), from, to);
        assertEquals(overlapping, after[1] - before[1], "tables opened = tables meeting the range" + at);
        // Each source yields at most one entry per key of the range plus one past it.
        long bound = sources * (range[1] - range[0] + 1L);
        assertTrue(after[2] - before[2] <= bound, "entries read " + (after[2] - before[2]) + " <= " + bound + at);
        return true;
    }

    private static long overlappingMemoryTables(MemoryLevels levels, byte[] from, byte[] toExclusive) {
        long n = 0;
        for (int r = 0; r < levels.runCount(); r++) {
            for (MemorySSTable t : levels.run(r)) {
                if (t.compareLargestTo(from, from.length) >= 0 && t.compareSmallestTo(toExclusive, toExclusive.length) < 0) {
                    n++;
                }
            }
        }
        return n;
    }

    private static long overlappingDiskTables(List<List<Run>> disk, byte[] from, byte[] toExclusive) {
        long n = 0;
        for (List<Run> level : disk) {
            for (Run r : level) {
                for (TableMeta t : r.tables()) {
                    if (Arrays.compareUnsigned(t.largest(), from) >= 0 && Arrays.compareUnsigned(t.smallest(), toExclusive) < 0) {
                        n++;
                    }
                }
            }
        }
        return n;
    }
}
