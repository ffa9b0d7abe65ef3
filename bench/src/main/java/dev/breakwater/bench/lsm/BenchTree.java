package dev.breakwater.bench.lsm;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One LSM tree on the real file system with its own resources (buffer cache, write-memory pool,
 * I/O statistics, one flush and one merge thread), as the benchmarks and the write-amplification
 * driver wire it. Closing flushes and closes the tree, then releases the resources, and deletes
 * the directory if this object created it.
 *
 * <p>Thread safety: the tree is thread-safe; {@link #close} must not race with its use.
 */
final class BenchTree implements AutoCloseable {

    final Path dir;
    final IoStatistics io = new IoStatistics();
    final BufferCache cache;
    final WriteMemoryPool pool;
    final TreeResources resources;
    final LsmTree tree;
    private final boolean deleteOnClose;

    /**
     * @param dir           the tree's directory, created if missing; null for a fresh temporary
     *                      directory that {@link #close} deletes
     * @param cacheBytes    buffer cache capacity
     * @param poolBytes     write-memory pool capacity
     */
    BenchTree(Path dir, LsmTreeOptions options, long cacheBytes, long poolBytes) throws IOException {
        this.deleteOnClose = dir == null;
        this.dir = dir == null ? Files.createTempDirectory("breakwater-lsmbench-") : Files.createDirectories(dir);
        this.cache = new BufferCache(BufferCacheOptions.of(options.pageSize(), cacheBytes), io);
        this.pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(poolBytes).withName("bench-write-memory"));
        this.resources = TreeResources.withPools(RealFileSystem.create(), cache, pool, io, 1, 1);
        this.tree = LsmTree.open("bench", this.dir, options, resources);
    }

    /** L0 groups, then per level the bytes and table count, e.g. {@code L0: 2 groups 3 tables 1.0 MiB | L1: ...}. */
    String shape() {
        TreeStatisticsSnapshot s = tree.statistics();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.levelBytes().size(); i++) {
            if (i > 0) {
                b.append(" | ");
            }
            b.append('L').append(i).append(": ");
            if (i == 0) {
                b.append(s.l0Groups()).append(" groups ");
            }
            b.append(s.levelTables().get(i)).append(" tables ")
                    .append(String.format("%.1f MiB", s.levelBytes().get(i) / 1048576.0));
        }
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        try {
            tree.close();
        } finally {
            resources.shutdownPools();
            cache.close();
            pool.close();
            if (deleteOnClose) {
                deleteRecursively(dir);
            }
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
