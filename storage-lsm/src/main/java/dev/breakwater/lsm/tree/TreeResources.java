package dev.breakwater.lsm.tree;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.memory.PagePool;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What trees share: the file system, the buffer cache, the write-memory pool, I/O statistics and
 * the flush and merge thread pools. Flushes and merges run on separate pools so that a flush never
 * queues behind a long merge.
 *
 * <p>Thread safety: all members are thread-safe.
 */
public record TreeResources(FileSystem fs, BufferCache cache, PagePool pool, IoStatistics io,
                            ExecutorService flushExecutor, ExecutorService mergeExecutor) {

    /** Daemon pools named {@code breakwater-flush-N} and {@code breakwater-merge-N}. */
    public static TreeResources withPools(FileSystem fs, BufferCache cache, PagePool pool, IoStatistics io,
                                          int flushThreads, int mergeThreads) {
        return new TreeResources(fs, cache, pool, io, Executors.newFixedThreadPool(flushThreads, named("breakwater-flush")),
                Executors.newFixedThreadPool(mergeThreads, named("breakwater-merge")));
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Stops the pools (after the trees using them are closed). */
    public void shutdownPools() {
        flushExecutor.shutdown();
        mergeExecutor.shutdown();
    }
}
