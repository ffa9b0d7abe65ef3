package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Model test for the L0 intra-merge ({@link dev.breakwater.lsm.merge.L0IntraMerge}): a tree with a
 * large L1 receives small flushes of random updates and deletes (each flush a thin L0 group over the
 * whole key space), so that L0 merges are forced by the group count while L0 is thin and go into
 * one oldest L0 group instead of L1. Flushes do not wait for merges, so they can install while
 * intra-merges run. Contents must equal a TreeMap throughout, after the merges settle and after a
 * reopen, and intra-merges must really have happened (bytes merged into L0).
 */
class L0IntraMergeModelTest {

    private static final Path DIR = Path.of("/db/intra");
    private static final long WRITE_MEMORY_SHARE = 256 << 10;
    private static final int KEYS = 30_000;

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(Long.reverse(k)).array(); // spread over the key space
    }

    @Test
    void thinFlushesOverALargeL1AgreeWithTheModel() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Random rnd = new Random(20261127);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        long intraBytes;
        try (TreeFixture fx = new TreeFixture(fs, DIR, options, 8L << 20); LsmTree tree = fx.open()) {
            tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
            for (long k = 0; k < KEYS; k++) {
                put(tree, model, k, rnd);
                if (k % 2_000 == 1_999) {
                    tree.flush();
                }
            }
            tree.flush();
            tree.awaitMerges();
            for (int round = 1; round <= 120; round++) {
                tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
                for (int i = 0; i < 100; i++) {
                    long k = rnd.nextInt(KEYS + 2_000); // some new keys too
                    if (rnd.nextInt(4) == 0) {
                        tree.delete(key(k), 0);
                        model.remove(key(k));
                    } else {
                        put(tree, model, k, rnd);
                    }
                }
                tree.flush(); // no wait for merges: flushes install while an intra-merge runs
                if (round % 20 == 0) {
                    tree.awaitMerges();
                    assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "round " + round);
                }
            }
            tree.awaitMerges();
            intraBytes = tree.stats.mergeBytesWrittenTo(0).sum();
            assertTrue(intraBytes > 0, "no intra-merge happened: " + tree.versions.current());
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "settled");
            ValueHolder out = new ValueHolder();
            for (int probe = 0; probe < 2_000; probe++) {
                byte[] k = key(rnd.nextInt(KEYS + 2_000));
                byte[] expected = model.get(k);
                LookupResult r = tree.get(k, out);
                assertEquals(expected == null ? LookupResult.ABSENT : LookupResult.FOUND, r, "get");
                if (expected != null) {
                    assertArrayEquals(expected, out.toArray(), "value");
                }
            }
        }
        try (TreeFixture fx = new TreeFixture(fs, DIR, options, 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after reopen (" + intraBytes + " B intra-merged)");
        }
    }

    /**
     * Crash clones taken at random file operations of a phase in which intra-merges run (asserted:
     * bytes were merged into L0; that a clone fell inside one is likely, not asserted) reopen to the
     * contents of the last completed flush or of the one in progress: an intra-merge is atomic at
     * its manifest record and its output group keeps its place.
     */
    @Test
    void crashClonesDuringIntraMergesReopenToAFlushBoundary() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Random rnd = new Random(7);
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(64L << 20);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        List<TreeMap<byte[], byte[]>> snapshots = new ArrayList<>();
        List<MemFileSystem> clones = new ArrayList<>();
        List<Integer> clonedAfter = new ArrayList<>();
        int[] flushesDone = {0};
        boolean[] cloning = {false};
        fs.setInjector((op, path) -> {
            synchronized (clones) {
                if (cloning[0] && clones.size() < 40 && rnd.nextInt(25) == 0) {
                    clones.add(mem.crashClone());
                    clonedAfter.add(flushesDone[0]);
                }
            }
            return null;
        });
        long intraBytes;
        try (TreeFixture fx = new TreeFixture(fs, DIR, options, 8L << 20); LsmTree tree = fx.open()) {
            tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
            for (long k = 0; k < KEYS; k++) {
                put(tree, model, k, new Random(k));
                if (k % 5_000 == 4_999) {
                    tree.flush();
                }
            }
            tree.flush();
            tree.awaitMerges();
            synchronized (clones) {
                snapshots.add(new TreeMap<>(model));
                cloning[0] = true;
            }
            for (int round = 0; round < 60; round++) {
                tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
                for (int i = 0; i < 100; i++) {
                    long k = rnd.nextInt(KEYS);
                    if (rnd.nextInt(4) == 0) {
                        tree.delete(key(k), 0);
                        model.remove(key(k));
                    } else {
                        put(tree, model, k, new Random(k * 31 + round));
                    }
                }
                tree.flush();
                synchronized (clones) {
                    flushesDone[0]++;
                    snapshots.add(new TreeMap<>(model));
                }
            }
            tree.awaitMerges();
            intraBytes = tree.stats.mergeBytesWrittenTo(0).sum();
        }
        fs.clearInjector();
        assertTrue(intraBytes > 0, "no intra-merge happened");
        assertTrue(clones.size() >= 10, "clones taken: " + clones.size());
        for (int c = 0; c < clones.size(); c++) {
            int done = clonedAfter.get(c);
            try (TreeFixture fx = new TreeFixture(clones.get(c), DIR, options, 8L << 20); LsmTree reopened = fx.open()) {
                TreeMap<byte[], byte[]> got = TreeFixture.contents(reopened);
                String before = TreeFixture.describeDifference(snapshots.get(done), got);
                String after = done + 1 < snapshots.size() ? TreeFixture.describeDifference(snapshots.get(done + 1), got) : "n/a";
                assertTrue(before.equals("equal") || after.equals("equal"),
                        "clone after " + done + " flushes: vs before: " + before + "; vs after: " + after);
            }
        }
    }

    private static void put(LsmTree tree, TreeMap<byte[], byte[]> model, long k, Random rnd) throws IOException {
        byte[] v = new byte[24 + rnd.nextInt(16)];
        rnd.nextBytes(v);
        tree.put(key(k), v, 0);
        model.put(key(k), v);
    }
}
