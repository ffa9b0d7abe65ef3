package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.io.MemFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A tree whose write-memory share is not settled (just registered with the write-memory manager)
 * adds no level, however small that share says the tree is; once the share is settled, the level
 * change the picker asks for happens at the next flush. Issue 13: every reopen between YCSB phases
 * added an empty L1 on the registration guess, and the old L1 was then merged into a 1.2 GB last
 * level (3.9 GB of merges in one phase).
 */
class LevelCountSettledTest {

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(Long.reverse(k)).array();
    }

    @Test
    void noLevelIsAddedWhileTheShareIsAGuess() throws IOException {
        Random rnd = new Random(5);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db/settled"), options, 8L << 20); LsmTree tree = fx.open()) {
            tree.setWriteMemoryShare(1L << 20); // B*T = 4 MiB: L1 stays the last level while it is smaller
            for (long k = 0; k < 20_000; k++) {
                byte[] v = new byte[40];
                rnd.nextBytes(v);
                tree.put(key(k), v, 0);
                model.put(key(k), v);
                if (k % 2_000 == 1_999) {
                    tree.flush();
                }
            }
            tree.flush();
            tree.awaitMerges();
            int levels = tree.versions.current().levelCount();
            long l1 = tree.versions.current().levelBytes(1);
            // As after a registration: a share far below what L1 was sized for, not yet settled.
            tree.setWriteMemoryShare(64 * 1024);
            tree.setLevelCountSettled(false);
            writeAndFlush(tree, model, rnd);
            assertEquals(levels, tree.versions.current().levelCount(), "no level added on an unsettled share (|L1| = " + l1
                    + " B > B*T = 256 KiB): " + tree.versions.current());
            tree.setLevelCountSettled(true);
            writeAndFlush(tree, model, rnd);
            assertEquals(levels + 1, tree.versions.current().levelCount(), "the settled share adds the level: " + tree.versions.current());
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
        }
    }

    private static void writeAndFlush(LsmTree tree, TreeMap<byte[], byte[]> model, Random rnd) throws IOException {
        for (int i = 0; i < 200; i++) {
            long k = rnd.nextInt(20_000);
            byte[] v = new byte[40];
            rnd.nextBytes(v);
            tree.put(key(k), v, 0);
            model.put(key(k), v);
        }
        tree.flush();
        tree.awaitMerges();
    }
}
