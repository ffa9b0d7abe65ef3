package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Model test for L0's volume triggers (bytes, and {@code l0MergeTables}): sequential passes over
 * the same keys (the two-pass ledger), with deletes in the last pass, must read back equal to a
 * TreeMap after every few flushes and after a reopen, and L0 must not keep the flushes' small
 * tables.
 */
class L0VolumeTriggerModelTest {

    private static final Path DIR = Path.of("/db/v");
    private static final long WRITE_MEMORY_SHARE = 32 << 10;
    private static final int KEYS = 6_000;

    private static LsmTreeOptions options() {
        return TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(64L << 20).withL0MergeTables(6);
    }

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    @Test
    void sequentialPassesAgreeWithTheModelAndLeaveFewL0Tables() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Random rnd = new Random(13);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        try (TreeFixture fx = new TreeFixture(fs, DIR, options(), 8L << 20); LsmTree tree = fx.open()) {
            int flushes = 0;
            for (int pass = 0; pass < 3; pass++) {
                for (long k = 0; k < KEYS; k++) {
                    tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
                    if (pass == 2 && rnd.nextInt(3) == 0) {
                        tree.delete(key(k), 0);
                        model.remove(key(k));
                    } else {
                        byte[] v = new byte[24 + rnd.nextInt(16)];
                        rnd.nextBytes(v);
                        tree.put(key(k), v, 0);
                        model.put(key(k), v);
                    }
                    if (k % 200 == 199) {
                        tree.flush();
                        if (++flushes % 15 == 0) {
                            tree.awaitMerges();
                            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "pass " + pass + " key " + k);
                        }
                    }
                }
            }
            tree.flush();
            tree.awaitMerges();
            Version v = tree.versions.current();
            // 90 flushes of 200 keys each; the table trigger keeps L0 under 6 tables once merges settle.
            assertTrue(v.levelTables(0) < 6, "L0 tables " + v.levelTables(0) + ": " + v);
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "settled");
        }
        try (TreeFixture fx = new TreeFixture(fs, DIR, options(), 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after reopen");
        }
    }
}
