package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.memory.HashMemoryComponent;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.MemoryKinds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each memory-component kind's real write memory (its records, and its own structure: a hash kind's
 * bucket array and bucket heads, a vector's index pages and their slack, a pre-sized vector's
 * reserved index) is what the write-memory manager sees and decides flushes by, and what it reports
 * to the tuner ({@link WriteMemorySnapshot}).
 */
class MemoryKindAccountingTest {

    private static final int PAGE = 16 * 1024; // TreeFixture's write-memory page
    /** Four pages of bucket array with 16 KiB pages. */
    private static final MemoryComponentSpec BIG_HASH = new MemoryComponentSpec(MemoryComponentKind.HASH_SKIP_LIST, 8, 8192, 0);

    private static LsmTreeOptions unboundedOptions() {
        return TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING).withMemoryTableBytes(1L << 40);
    }

    private static WriteMemoryManager manager(TreeFixture fx, FlushPolicyKind policy) {
        return new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC, policy, 0.95, 8, 1L << 20, 64 * 1024),
                () -> 0L);
    }

    private static byte[] key(int tree, int i) {
        return ByteBuffer.allocate(8).putInt(tree).putInt(i).array();
    }

    private static void write(LsmTree t, int tree, int entries) throws Exception {
        for (int i = 0; i < entries; i++) {
            t.put(key(tree, i), new byte[50], i + 1);
        }
    }

    private static LsmTree openRegistered(TreeFixture fx, WriteMemoryManager m, String name, MemoryComponentSpec spec) throws Exception {
        LsmTree t = LsmTree.open(name, fx.dir.resolve(name), fx.options, fx.resources, true, spec);
        m.register(t, name);
        return t;
    }

    /** Bytes of the kind's own structure, known from its parameters alone: a lower bound of what it must hold beyond records. */
    private static long structureBytes(MemoryComponentSpec spec) {
        return switch (spec.kind()) {
            case HASH_SKIP_LIST, HASH_LINKED_LIST -> HashMemoryComponent.tablePages(spec.hashBuckets(), PAGE) * PAGE;
            case VECTOR -> (8L * spec.vectorReserve() + PAGE - 1) / PAGE * PAGE;
            case SKIP_LIST -> 0;
        };
    }

    @Test
    void eachKindsMemoryIsWhatThePoolHandsOutAndWhatTheManagerReports() throws Exception {
        List<MemoryComponentSpec> specs = new ArrayList<>(MemoryKinds.all());
        specs.add(BIG_HASH);
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), unboundedOptions(), 16L << 20)) {
            WriteMemoryManager m = manager(fx, FlushPolicyKind.MAX_MEMORY);
            List<LsmTree> trees = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                MemoryComponentSpec spec = specs.get(i);
                LsmTree t = openRegistered(fx, m, "t" + i, spec);
                trees.add(t);
                long before = fx.pool.usedBytes();
                write(t, i, 2000);
                long drawn = fx.pool.usedBytes() - before;
                assertEquals(drawn, t.memoryBytes(), spec + ": the tree reports exactly the pages its component drew from the pool");
                assertTrue(t.memoryBytes() >= structureBytes(spec) + 2000L * (8 + 50),
                        spec + ": " + t.memoryBytes() + " bytes hold the records and the kind's structure (" + structureBytes(spec) + ")");
                assertEquals(t.memoryBytes(), t.flushableBytes(), spec + ": all of it can be flushed");
            }
            assertTrue(trees.get(specs.size() - 1).memoryBytes() > trees.get(0).memoryBytes(),
                    "8,192 buckets cost more than the skip-list for the same entries");
            m.tick(); // the first tick's average is the memory held now
            WriteMemorySnapshot snapshot = m.snapshot();
            long total = 0;
            for (LsmTree t : trees) {
                WriteMemorySnapshot.TreeShare share = snapshot.trees().get(t.name());
                assertEquals(t.memoryBytes(), share.memoryBytes(), t.name() + ": the share the manager reports");
                assertEquals(t.memoryBytes(), share.averageMemoryBytes(), 1e-6, t.name() + ": the average the tuner reads as a_i");
                total += share.memoryBytes();
            }
            assertEquals(fx.pool.usedBytes(), total, "the shares add up to what the pool handed out");
            assertEquals(fx.pool.usedBytes(), snapshot.usedBytes());
            for (LsmTree t : trees) {
                double expected = (double) t.memoryBytes() / total;
                assertEquals(expected, snapshot.trees().get(t.name()).memoryShare(), 1e-12, t.name());
                t.flush();
                assertEquals(0, t.memoryBytes(), t.name() + ": a flush returns the structure with the records");
            }
            assertEquals(0, fx.pool.usedBytes(), "every page back, bucket arrays and reserved indexes included");
            for (LsmTree t : trees) {
                t.close();
            }
        }
    }

    @Test
    void maxMemoryFlushesTheTreeWhoseBucketArrayMakesItTheLargest() throws Exception {
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), unboundedOptions(), 16L << 20)) {
            WriteMemoryManager m = manager(fx, FlushPolicyKind.MAX_MEMORY);
            LsmTree skip = openRegistered(fx, m, "skip", MemoryKinds.SKIP_LIST);
            LsmTree hash = openRegistered(fx, m, "hash", BIG_HASH);
            write(skip, 0, 300);
            write(hash, 1, 300); // the same records, plus a 64 KiB bucket array
            long skipBytes = skip.memoryBytes();
            assertTrue(hash.memoryBytes() > skipBytes, hash.memoryBytes() + " vs " + skipBytes);
            fx.pool.setCapacity(fx.pool.usedBytes()); // full: above the flush threshold
            m.relievePressure();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (hash.memoryBytes() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(0, hash.memoryBytes(), "the hash tree, the larger by its bucket array, was flushed");
            assertEquals(skipBytes, skip.memoryBytes(), "the skip-list tree was not asked");
            skip.close();
            hash.close();
        }
    }

    /**
     * A write to a hash tree draws the bucket array first; when that takes the pool's last pages, the
     * entry finds none, and the tree holds an empty component with pages. The manager must not pick
     * that tree (flushing it frees nothing, and it would be picked again on every retry, so the
     * writer would stall until its timeout) but a tree with data, whose flush lets the write finish.
     */
    @Test
    void aTreeHoldingOnlyAnEmptyComponentsBucketArrayIsNotPickedAndTheWriteFinishes() throws Exception {
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), unboundedOptions(), 16L << 20)) {
            WriteMemoryManager m = manager(fx, FlushPolicyKind.MAX_MEMORY);
            LsmTree skip = openRegistered(fx, m, "skip", MemoryKinds.SKIP_LIST);
            LsmTree hash = openRegistered(fx, m, "hash", BIG_HASH);
            write(skip, 0, 300);
            assertTrue(skip.memoryBytes() < 4L * PAGE, "less than the hash tree's bucket array: " + skip.memoryBytes());
            fx.pool.setCapacity(fx.pool.usedBytes() + 4L * PAGE); // room for the bucket array, not for an entry
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    hash.put(key(1, 1), new byte[50], 1);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            writer.setDaemon(true);
            writer.start();
            writer.join(20_000);
            assertFalse(writer.isAlive(), "the write to the hash tree stalled: the manager kept picking a tree with nothing to flush");
            assertEquals(null, failure.get());
            assertEquals(LookupResult.FOUND, hash.get(key(1, 1), new ValueHolder()));
            assertEquals(300, TreeFixture.contents(skip).size(), "the skip-list tree flushed and kept its data");
            assertTrue(hash.memoryBytes() >= 4L * PAGE);
            skip.close();
            hash.close();
        }
    }
}
