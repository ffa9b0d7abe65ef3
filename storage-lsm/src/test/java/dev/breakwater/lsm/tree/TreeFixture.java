package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;

/** Shared resources for tree tests: a small cache and pool, so flushes and merges happen often. */
final class TreeFixture implements AutoCloseable {

    static final int PAGE = 4096;

    final FileSystem fs;
    final Path dir;
    final IoStatistics io = new IoStatistics();
    final BufferCache cache;
    final WriteMemoryPool pool;
    final TreeResources resources;
    final LsmTreeOptions options;
    /** The kind of active memory component the trees opened here build. */
    final MemoryComponentSpec memorySpec;

    TreeFixture(FileSystem fs, Path dir, LsmTreeOptions options, long poolBytes) {
        this(fs, dir, options, poolBytes, MemoryComponentSpec.SKIP_LIST);
    }

    TreeFixture(FileSystem fs, Path dir, LsmTreeOptions options, long poolBytes, MemoryComponentSpec memorySpec) {
        this(fs, dir, options, poolBytes, memorySpec, null);
    }

    /** With the disk merges on {@code mergeExecutor} (shut down with the fixture). */
    TreeFixture(FileSystem fs, Path dir, LsmTreeOptions options, long poolBytes, ExecutorService mergeExecutor) {
        this(fs, dir, options, poolBytes, MemoryComponentSpec.SKIP_LIST, mergeExecutor);
    }

    private TreeFixture(FileSystem fs, Path dir, LsmTreeOptions options, long poolBytes, MemoryComponentSpec memorySpec,
                        ExecutorService mergeExecutor) {
        this.memorySpec = memorySpec;
        this.fs = fs;
        this.dir = dir;
        this.options = options;
        this.cache = new BufferCache(BufferCacheOptions.of(PAGE, 512L * PAGE).withChunkBytes(64L * PAGE)
                .withPinWait(Duration.ofSeconds(10)), io);
        this.pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(poolBytes).withPageSize(16 * 1024).withArenaBytes(256 * 1024));
        TreeResources pools = TreeResources.withPools(fs, cache, pool, io, 1, 2);
        if (mergeExecutor != null) {
            pools.mergeExecutor().shutdown();
            pools = new TreeResources(fs, cache, pool, io, pools.flushExecutor(), mergeExecutor, pools.memoryMergeExecutor());
        }
        this.resources = pools;
    }

    /** Small memory tables and tables, T=4, L0 merges at 2 groups: deep trees from little data. */
    static LsmTreeOptions smallTreeOptions(LsmTreeOptions.Policy policy) {
        return LsmTreeOptions.defaults(PAGE, 128 * 1024).withPolicy(policy).withSizeRatio(4)
                .withTargetTableBytes(48 * 1024).withL0(2, 6, 10).withManifestRotateBytes(8 * 1024);
    }

    LsmTree open() throws IOException {
        return LsmTree.open("t", dir, options, resources, true, memorySpec);
    }

    static TreeMap<byte[], byte[]> newModel() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /** Everything a full scan returns. */
    static TreeMap<byte[], byte[]> contents(LsmTree tree) throws IOException {
        TreeMap<byte[], byte[]> m = newModel();
        try (EntryCursor c = tree.scan(null, null)) {
            while (c.next()) {
                m.put(Arrays.copyOf(c.key(), c.keyLength()), Arrays.copyOf(c.value(), c.valueLength()));
            }
        }
        return m;
    }

    static String describeDifference(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual) {
        for (var e : expected.entrySet()) {
            byte[] a = actual.get(e.getKey());
            if (a == null) {
                return "missing key " + Arrays.toString(e.getKey());
            }
            if (!Arrays.equals(a, e.getValue())) {
                return "key " + Arrays.toString(e.getKey()) + " has " + Arrays.toString(a) + ", expected " + Arrays.toString(e.getValue());
            }
        }
        for (byte[] k : actual.keySet()) {
            if (!expected.containsKey(k)) {
                return "unexpected key " + Arrays.toString(k);
            }
        }
        return "equal";
    }

    @Override
    public void close() {
        resources.shutdownPools();
        cache.close();
        pool.close();
    }

    /**
     * Checks the first {@code limit} entries of a scan of {@code [from, to)} ({@code to} null: to the
     * end) against the model, and that the scan ends with the model if the model has fewer.
     */
    static void checkScan(LsmTree tree, TreeMap<byte[], byte[]> model, byte[] from, byte[] to, int limit, String at) throws IOException {
        checkScan(tree, model, from, to, false, limit, at);
    }

    /**
     * As {@link #checkScan(LsmTree, TreeMap, byte[], byte[], int, String)}, ascending or (with
     * {@code descending}) through {@link LsmTree#reverseScan} against the model's descending map; a
     * null bound is open.
     */
    static void checkScan(LsmTree tree, TreeMap<byte[], byte[]> model, byte[] from, byte[] to, boolean descending, int limit,
                          String at) throws IOException {
        NavigableMap<byte[], byte[]> expected = from == null ? (to == null ? model : model.headMap(to, false))
                : to == null ? model.tailMap(from, true) : model.subMap(from, true, to, false);
        if (descending) {
            expected = expected.descendingMap();
            at = " (reverse scan)" + at;
        }
        int left = limit;
        try (EntryCursor c = descending ? tree.reverseScan(from, to) : tree.scan(from, to)) {
            for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
                if (left-- == 0) {
                    return;
                }
                assertTrue(c.next(), "scan ended early, missing " + Arrays.toString(e.getKey()) + at);
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()), "scan key" + at);
                assertArrayEquals(e.getValue(), Arrays.copyOf(c.value(), c.valueLength()), "scan value" + at);
            }
            if (left > 0) {
                assertFalse(c.next(), "scan returned more than the model" + at);
            }
        }
    }
}
