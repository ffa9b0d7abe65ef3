package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryKinds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash clones taken at random file operations during flushes and merges (the injector runs inside
 * the operation, on the background thread): each clone keeps only synced data, as after a power
 * loss. Reopened, a clone must hold exactly the contents of the last flush that completed before,
 * or of the one in progress (a flush is atomic at its manifest record), and keep working.
 */
class LsmTreeCrashTest {

    private record Clone(MemFileSystem fs, int flushesDone) {
    }

    /** Monolithic and partitioned trees, with every kind of active memory component. */
    static Stream<Arguments> cases() {
        return MemoryKinds.kinds().flatMap(spec -> Stream.of(Arguments.of(0, spec), Arguments.of(2, spec)));
    }

    @ParameterizedTest(name = "memory levels {0}, {1}")
    @MethodSource("cases")
    void crashClonesReopenToTheLastInstalledVersion(int memoryLevels, MemoryComponentSpec spec) throws Exception {
        crashClonesReopen(TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(64L << 20)
                .withMemoryLevels(memoryLevels), spec);
    }

    /** The same with Garnering (c = 0.5, so levels are appended below the last one) and Monkey filters. */
    @Test
    void garneringWithMonkeyCrashClonesReopenToTheLastInstalledVersion() throws Exception {
        crashClonesReopen(TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(64L << 20)
                .withGarnering(0.5).withBloomAllocation(LsmTreeOptions.BloomAllocation.MONKEY), MemoryComponentSpec.SKIP_LIST);
    }

    private void crashClonesReopen(LsmTreeOptions options, MemoryComponentSpec spec) throws Exception {
        MemFileSystem mem = new MemFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Random rnd = new Random(11);
        List<Clone> clones = new ArrayList<>();
        int[] flushesDone = {0};
        fs.setInjector((op, path) -> {
            synchronized (clones) {
                if (clones.size() < 40 && rnd.nextInt(40) == 0) {
                    clones.add(new Clone(mem.crashClone(), flushesDone[0]));
                }
            }
            return null;
        });
        // Large memory tables: only explicit flushes seal, so each flush adds exactly one snapshot.
        List<TreeMap<byte[], byte[]>> snapshots = new ArrayList<>();
        TreeMap<byte[], byte[]> model = TreeFixture.newModel();
        snapshots.add(new TreeMap<>(model));
        Path dir = Path.of("/db/t");
        try (TreeFixture fx = new TreeFixture(fs, dir, options, 8L << 20, spec); LsmTree tree = fx.open()) {
            for (int f = 0; f < 30; f++) {
                for (int i = 0; i < 400; i++) {
                    byte[] key = ByteBuffer.allocate(4).putInt(rnd.nextInt(3000)).array();
                    if (rnd.nextInt(6) == 0) {
                        tree.delete(key, 0);
                        model.remove(key);
                    } else {
                        byte[] value = new byte[20 + rnd.nextInt(60)];
                        rnd.nextBytes(value);
                        tree.put(key, value, 0);
                        model.put(key, value);
                    }
                }
                tree.flush();
                synchronized (clones) {
                    flushesDone[0]++;
                }
                snapshots.add(new TreeMap<>(model));
            }
            tree.awaitMerges();
        }
        fs.clearInjector();
        assertTrue(clones.size() >= 10, "clones taken: " + clones.size());
        for (Clone c : clones) {
            try (TreeFixture fx = new TreeFixture(c.fs(), dir, options, 8L << 20, spec); LsmTree reopened = fx.open()) {
                TreeMap<byte[], byte[]> got = TreeFixture.contents(reopened);
                String before = TreeFixture.describeDifference(snapshots.get(c.flushesDone()), got);
                String after = c.flushesDone() + 1 < snapshots.size()
                        ? TreeFixture.describeDifference(snapshots.get(c.flushesDone() + 1), got) : "n/a";
                assertTrue(before.equals("equal") || after.equals("equal"),
                        "clone after " + c.flushesDone() + " flushes: vs before: " + before + "; vs after: " + after);
                // The recovered tree keeps working.
                reopened.put(new byte[] {1, 2, 3}, new byte[] {4}, 0);
                reopened.flush();
                reopened.awaitMerges();
            }
        }
    }
}
