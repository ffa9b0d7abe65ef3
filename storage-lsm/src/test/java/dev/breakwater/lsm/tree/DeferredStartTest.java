package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.lsm.version.Manifest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link LsmTree#open(String, Path, LsmTreeOptions, TreeResources, boolean)} with {@code start}
 * false only reads the tree's files: orphans stay until {@link LsmTree#start()}. A flush in between
 * (as recovery runs one) must not collide with an orphan a crashed flush left under the number the
 * manifest would hand out next; before, the new table was created under that number and the flush
 * failed ("already exists").
 */
class DeferredStartTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/db/t");
    private final LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING)
            .withMemoryTableBytes(64L << 20).withManifestRotateBytes(1L << 40);

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    @Test
    void anUnstartedTreeChangesNoFileAndFlushesPastALeftoverTable() throws IOException {
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20); LsmTree tree = fx.open()) {
            for (int i = 0; i < 300; i++) {
                tree.put(key(i), key(i * 7), i);
                model.put(key(i), key(i * 7));
            }
            tree.flush();
        }
        long next = Manifest.read(fs, dir).version().nextFileNumber();
        String leftover = TableFiles.name(next);
        try (StorageFile f = fs.open(dir.resolve(leftover), OpenOption.CREATE, OpenOption.WRITE)) {
            f.write(0, ByteBuffer.wrap(new byte[100])); // what a crashed flush left behind
        }
        List<String> before = fs.list(dir);

        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20);
             LsmTree tree = LsmTree.open("t", dir, options, fx.resources, false)) {
            assertEquals(before, fs.list(dir), "opening without start changes no file");
            for (int i = 300; i < 600; i++) {
                tree.put(key(i), key(i * 7), i);
                model.put(key(i), key(i * 7));
            }
            tree.flush();
            assertTrue(fs.list(dir).contains(leftover), "the leftover waits for start()");
            tree.start();
            assertFalse(fs.list(dir).contains(leftover), "start() removes the orphan");
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
        }
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
        }
    }
}
