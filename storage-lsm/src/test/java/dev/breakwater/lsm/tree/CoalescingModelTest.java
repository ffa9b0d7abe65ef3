package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Trivial moves and coalescing against a {@link TreeMap} model: a mostly append-only load (increasing
 * keys, with some overwrites and deletes of older keys so that moves, coalescings and ordinary merges
 * mix) must read back equal to the model after every few flushes, after a reopen, and after a crash
 * at any file operation; and it must not pile up small tables.
 */
class CoalescingModelTest {

    private static final Path DIR = Path.of("/db/t");
    /** The write memory the level targets are based on: M*T = 128 KiB, so the data spans several levels. */
    private static final long WRITE_MEMORY_SHARE = 32 << 10;

    /** Small tables (48 KiB target) so a few hundred KiB of data make many flushes and levels. */
    private static LsmTreeOptions options() {
        return TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(64L << 20);
    }

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    /**
     * One step of the load: 200 increasing keys; in one step of eight, each key is followed with
     * probability 1/4 by a rewrite or delete of an older key.
     */
    private static long step(LsmTree tree, TreeMap<byte[], byte[]> model, Random rnd, long next) throws IOException {
        tree.setWriteMemoryShare(WRITE_MEMORY_SHARE);
        boolean rewrites = rnd.nextInt(8) == 0;
        for (int i = 0; i < 200; i++) {
            byte[] v = new byte[24 + rnd.nextInt(16)];
            rnd.nextBytes(v);
            tree.put(key(next), v, 0);
            model.put(key(next), v);
            next++;
            if (rewrites && rnd.nextInt(4) == 0 && next > 1) {
                byte[] old = key(rnd.nextLong(next));
                if (rnd.nextBoolean()) {
                    tree.delete(old, 0);
                    model.remove(old);
                } else {
                    tree.put(old, v, 0);
                    model.put(old, v);
                }
            }
        }
        return next;
    }

    @Test
    void appendOnlyLoadAgreesWithTheModelAndStaysCompact() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Random rnd = new Random(5);
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        long next = 0;
        long moves;
        try (TreeFixture fx = new TreeFixture(fs, DIR, options(), 8L << 20); LsmTree tree = fx.open()) {
            for (int f = 0; f < 120; f++) {
                next = step(tree, model, rnd, next);
                tree.flush();
                if (f % 20 == 19) {
                    tree.awaitMerges();
                    assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after flush " + f);
                }
            }
            tree.awaitMerges();
            moves = tree.stats.trivialMoves.sum();
            Version v = tree.versions.current();
            long bytes = 0;
            for (int i = 0; i < v.levelCount(); i++) {
                bytes += v.levelBytes(i);
            }
            int tables = v.allTables().size();
            // 120 flushes of ~8 KiB of data each; without coalescing they stay 120 tables in one L0 group
            // (16 KiB on average). Compact means tables average at least 60% of the 48 KiB target. How
            // many tables end up at or near the target depends on how background merges interleave with
            // the flushes (CI saw 43 tables for 1.9 MB, 39 would be all full), so the bound is on the
            // average size, not an exact count.
            long target = options().targetTableBytes();
            assertTrue(tables * target * 6 <= bytes * 10, "tables " + tables + " for " + bytes + " B: " + v);
            assertTrue(moves > 0, "some tables moved without a rewrite: " + v);
        }
        try (TreeFixture fx = new TreeFixture(fs, DIR, options(), 8L << 20); LsmTree tree = fx.open()) {
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after reopen");
            next = step(tree, model, rnd, next);
            tree.flush();
            tree.awaitMerges();
            assertEquals("equal", TreeFixture.describeDifference(model, TreeFixture.contents(tree)), "after more writes");
        }
    }

    private record Clone(MemFileSystem fs, int flushesDone) {
    }

    @Test
    void crashesDuringMovesAndCoalescingReopenToAnInstalledVersion() throws Exception {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Random rnd = new Random(17);
        Random cloneRnd = new Random(3);
        List<Clone> clones = new ArrayList<>();
        int[] flushesDone = {0};
        fs.setInjector((op, path) -> {
            synchronized (clones) {
                if (clones.size() < 40 && cloneRnd.nextInt(30) == 0) {
                    clones.add(new Clone(mem.crashClone(), flushesDone[0]));
                }
            }
            return null;
        });
        List<TreeMap<byte[], byte[]>> snapshots = new ArrayList<>();
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        snapshots.add(new TreeMap<>(model));
        long next = 0;
        long moves;
        try (TreeFixture fx = new TreeFixture(fs, DIR, options(), 8L << 20); LsmTree tree = fx.open()) {
            for (int f = 0; f < 40; f++) {
                next = step(tree, model, rnd, next);
                tree.flush();
                synchronized (clones) {
                    flushesDone[0]++;
                }
                snapshots.add(new TreeMap<>(model));
            }
            tree.awaitMerges();
            moves = tree.stats.trivialMoves.sum();
        }
        fs.clearInjector();
        assertTrue(clones.size() >= 10, "clones taken: " + clones.size());
        assertTrue(moves > 0, "the load made trivial moves");
        for (Clone c : clones) {
            try (TreeFixture fx = new TreeFixture(c.fs(), DIR, options(), 8L << 20); LsmTree reopened = fx.open()) {
                TreeMap<byte[], byte[]> got = TreeFixture.contents(reopened);
                String before = TreeFixture.describeDifference(snapshots.get(c.flushesDone()), got);
                String after = c.flushesDone() + 1 < snapshots.size()
                        ? TreeFixture.describeDifference(snapshots.get(c.flushesDone() + 1), got) : "n/a";
                assertTrue(before.equals("equal") || after.equals("equal"),
                        "clone after " + c.flushesDone() + " flushes: vs before: " + before + "; vs after: " + after);
                reopened.put(key(Long.MAX_VALUE), new byte[] {4}, 0);
                reopened.flush();
                reopened.awaitMerges();
            }
        }
    }
}
