package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link LsmTree#setActiveComponentBytes}: a partitioned tree seals M0 at the size it was last given,
 * not at the size it opened with (issue 12: a tree opened at a small write-memory split and grown by
 * the tuner kept sealing small M0s). Counted in seals per byte written, and checked against a model.
 */
class ActiveComponentResizeTest {

    private static final int OPENING_M0 = 64 * 1024;
    private static final int VALUE_BYTES = 200;

    @Test
    void m0SealsAtTheSizeItWasLastGiven() throws Exception {
        LsmTreeOptions o = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(OPENING_M0)
                .withMemoryLevels(2);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        SplittableRandom rnd = new SplittableRandom(20261127L);
        try (TreeFixture f = new TreeFixture(new MemFileSystem(), Path.of("/m0"), o, 16L << 20); LsmTree tree = f.open()) {
            assertEquals(OPENING_M0, tree.activeComponentBytes());

            long seals0 = tree.statistics().memorySeals();
            write(tree, model, rnd, 1 << 20);
            long sealsSmall = tree.statistics().memorySeals() - seals0;

            tree.setActiveComponentBytes(4L * OPENING_M0);
            assertEquals(4L * OPENING_M0, tree.activeComponentBytes());
            long seals1 = tree.statistics().memorySeals();
            write(tree, model, rnd, 1 << 20);
            long sealsLarge = tree.statistics().memorySeals() - seals1;

            System.out.printf("seals per MiB written: M0 %d KiB %d, M0 %d KiB %d%n", OPENING_M0 >> 10, sealsSmall,
                    4 * OPENING_M0 >> 10, sealsLarge);
            // About 20 against 5 (entries take more than their key and value in M0); without the
            // setter's effect they would be equal.
            assertTrue(sealsSmall >= 12, "the opening M0 sealed often: " + sealsSmall);
            assertTrue(sealsLarge * 2 < sealsSmall, "a 4x M0 seals at most half as often: " + sealsLarge + " vs " + sealsSmall);

            tree.setActiveComponentBytes(OPENING_M0 / 2);
            long seals2 = tree.statistics().memorySeals();
            write(tree, model, rnd, 1 << 20);
            long sealsHalf = tree.statistics().memorySeals() - seals2;
            assertTrue(sealsHalf > sealsSmall, "half the M0 seals more often: " + sealsHalf + " vs " + sealsSmall);

            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "contents after M0 moved twice");
            tree.flush();
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "contents after a flush");
        }
    }

    @Test
    void refusesANonPositiveSizeAndAMonolithicTreeIgnoresIt() throws Exception {
        LsmTreeOptions o = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        try (TreeFixture f = new TreeFixture(new MemFileSystem(), Path.of("/mono"), o, 4L << 20); LsmTree tree = f.open()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tree.setActiveComponentBytes(0));
            assertTrue(e.getMessage().contains("tree t"), e.getMessage());
            tree.setActiveComponentBytes(1L << 20);
            assertEquals(o.memoryTableBytes(), tree.activeComponentBytes(), "a monolithic component keeps its own limit");
        }
    }

    /**
     * Random upserts of {@value #VALUE_BYTES}-byte values over 20,000 keys until {@code bytes} of key
     * and value were written. Each waits until no sealed table is queued: with sealed tables queued
     * up to the limit a writer keeps filling M0 past its size, which would blur the count.
     */
    private static void write(LsmTree tree, TreeMap<byte[], byte[]> model, SplittableRandom rnd, long bytes) throws Exception {
        for (long written = 0; written < bytes; ) {
            byte[] key = ByteBuffer.allocate(8).putLong(rnd.nextInt(20_000)).array();
            byte[] value = new byte[VALUE_BYTES];
            rnd.nextBytes(value);
            tree.put(key, value, 0);
            model.put(key, value);
            while (queuedSealedTables(tree) > 0) {
                Thread.sleep(1);
            }
            written += key.length + value.length;
        }
    }

    private static int queuedSealedTables(LsmTree tree) {
        synchronized (tree.stateLock) {
            return tree.immutables.size();
        }
    }
}
