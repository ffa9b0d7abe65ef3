package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.lsm.version.CorruptManifestException;
import dev.breakwater.lsm.version.ManifestFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 4 at the tree: a damaged manifest or a missing CURRENT must not open as an empty
 * tree, and orphan cleanup must not delete the tables the damaged manifest lists.
 */
class TreeManifestDamageTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/db/t");
    private final LsmTreeOptions options = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING)
            .withMemoryTableBytes(64L << 20).withManifestRotateBytes(1L << 40);

    /** A tree with two flushed tables; returns its contents. */
    private TreeMap<byte[], byte[]> writeTwoFlushes() throws IOException {
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20); LsmTree tree = fx.open()) {
            for (int f = 0; f < 2; f++) {
                for (int i = 0; i < 300; i++) {
                    byte[] key = ByteBuffer.allocate(4).putInt(f * 1000 + i).array();
                    byte[] value = ByteBuffer.allocate(8).putLong(i).array();
                    tree.put(key, value, f * 1000L + i);
                    model.put(key, value);
                }
                tree.flush();
            }
        }
        return model;
    }

    private Path liveManifest() throws IOException {
        return fs.list(dir).stream().filter(n -> n.startsWith(ManifestFormat.MANIFEST_PREFIX)).map(dir::resolve)
                .findFirst().orElseThrow();
    }

    private void assertRefusedAndFilesKept(String expectedInMessage) throws IOException {
        List<String> before = fs.list(dir);
        assertTrue(before.stream().anyMatch(n -> n.endsWith(".sst")), "the tree has tables: " + before);
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20)) {
            CorruptManifestException e = assertThrows(CorruptManifestException.class, fx::open);
            assertTrue(e.getMessage().contains(expectedInMessage), e.getMessage());
        }
        assertEquals(before, fs.list(dir), "a refused open must delete no table");
    }

    @Test
    void manifestCutShortByThreeBytesRefusesAndKeepsTables() throws IOException {
        writeTwoFlushes();
        Path manifest = liveManifest();
        long size = fs.size(manifest);
        try (StorageFile f = fs.open(manifest, OpenOption.WRITE)) {
            f.truncate(size - 3);
        }
        assertRefusedAndFilesKept(manifest.toString());
    }

    @Test
    void missingCurrentRefusesAndKeepsTables() throws IOException {
        TreeMap<byte[], byte[]> model = writeTwoFlushes();
        Path current = dir.resolve(ManifestFormat.CURRENT);
        byte[] saved;
        try (StorageFile f = fs.open(current, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            saved = b.array();
        }
        fs.delete(current);
        assertRefusedAndFilesKept("CURRENT is missing");
        try (StorageFile f = fs.open(current, OpenOption.CREATE, OpenOption.WRITE)) {
            f.write(0, ByteBuffer.wrap(saved));
        }
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
        }
    }

    @Test
    void aTableTheManifestListsBeingMissingRefusesTheOpen() throws IOException {
        writeTwoFlushes();
        String table = fs.list(dir).stream().filter(n -> n.endsWith(".sst")).findFirst().orElseThrow();
        fs.delete(dir.resolve(table));
        assertRefusedAndFilesKept(table);
    }

    @Test
    void unknownFilesInTheTreeDirectoryAreLeftAlone() throws IOException {
        TreeMap<byte[], byte[]> model = writeTwoFlushes();
        fs.open(dir.resolve("notes.txt"), OpenOption.CREATE, OpenOption.WRITE).close();
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)));
        }
        assertTrue(fs.exists(dir.resolve("notes.txt")));
    }
}
