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
 * the thread pools. Flushes, disk merges and memory merges run on separate pools so that a flush
 * never queues behind a long merge, and memory merges (paper 000 §4.1.1) never hold up a flush.
 *
 * <p>Thread safety: all members are thread-safe.
 */
public record TreeResources(FileSystem fs, BufferCache cache, PagePool pool, IoStatistics io,
                            ExecutorService flushExecutor, ExecutorService mergeExecutor, ExecutorService memoryMergeExecutor) {

    /** Pools with one memory-merge thread. */
    public static TreeResources withPools(FileSystem fs, BufferCache cache, PagePool pool, IoStatistics io,
                                          int flushThreads, int mergeThreads) {
        return withPools(fs, cache, pool, io, flushThreads, mergeThreads, 1);
    }

    /** Daemon pools named {@code breakwater-flush-N}, {@code breakwater-merge-N} and {@code breakwater-memory-merge-N}. */
    public static TreeResources withPools(FileSystem fs, BufferCache cache, PagePool pool, IoStatistics io,
                                          int flushThreads, int mergeThreads, int memoryMergeThreads) {
        return new TreeResources(fs, cache, pool, io, Executors.newFixedThreadPool(flushThreads, named("breakwater-flush")),
                Executors.newFixedThreadPool(mergeThreads, named("breakwater-merge")),
                Executors.newFixedThreadPool(memoryMergeThreads, named("breakwater-memory-merge")));
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
        memoryMergeExecutor.shutdown();
    }
}
