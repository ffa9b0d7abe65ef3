package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Reads and decompresses the packed segments of a replay on a few threads, ahead of the replay that
 * consumes them in LSN order (paper 002 section 4.5: decompress several segments concurrently,
 * replay them one by one). At most {@code threads} segments are in flight or waiting, which bounds
 * the memory held to that many decompressed segments.
 *
 * <p>Invariants: (1) {@code pending} holds futures for the packed segments after the last one
 * taken, in index order; (2) {@link #take} is called in ascending index order.
 *
 * <p>Thread safety: the calling (replay) thread only; the pool threads only run {@link PackedSegment#read}.
 */
final class PackedSegmentPrefetch implements AutoCloseable {

    private final FileSystem fs;
    private final Path dir;
    private final long[] firstLsns;
    private final boolean[] packed;
    private final int depth;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private ExecutorService pool;
    private int nextToSubmit;

    private record Pending(int index, CompletableFuture<PackedSegment> future) {
    }

    /** Looks at every segment from {@code first} on (four bytes each) to learn which are packed. */
    PackedSegmentPrefetch(FileSystem fs, Path dir, long[] firstLsns, int first, int threads) throws IOException {
        this.fs = fs;
        this.dir = dir;
        this.firstLsns = firstLsns;
        this.packed = new boolean[firstLsns.length];
        this.depth = Math.max(1, threads);
        int count = 0;
        for (int i = first; i < firstLsns.length; i++) {
            packed[i] = PackedSegment.isPacked(fs, SegmentFiles.path(dir, firstLsns[i]));
            count += packed[i] ? 1 : 0;
        }
        this.nextToSubmit = first;
        if (count > 1) {
            pool = Executors.newFixedThreadPool(Math.min(depth, count), r -> {
                Thread t = new Thread(r, "breakwater-log-decompress");
                t.setDaemon(true);
                return t;
            });
        }
        fill();
    }

    boolean isPacked(int index) {
        return packed[index];
    }

    /** The packed segment at {@code index}, read and checked. Requires: {@link #isPacked}, ascending calls. */
    PackedSegment take(int index) throws IOException {
        Pending p = pending.pollFirst();
        if (p == null || p.index() != index) {
            throw new IllegalStateException("packed segment " + index + " taken out of order");
        }
        fill();
        try {
            return p.future().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while decompressing " + SegmentFiles.path(dir, firstLsns[index]));
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException(c);
        }
    }

    private void fill() {
        while (pending.size() < depth && nextToSubmit < firstLsns.length) {
            int i = nextToSubmit++;
            if (!packed[i]) {
                continue;
            }
            Path path = SegmentFiles.path(dir, firstLsns[i]);
            long first = firstLsns[i];
            CompletableFuture<PackedSegment> f;
            if (pool == null) {
                f = new CompletableFuture<>();
                try {
                    f.complete(PackedSegment.read(fs, path, first));
                } catch (IOException | RuntimeException e) {
                    f.completeExceptionally(e instanceof IOException io ? new UncheckedIOException(io) : e);
                }
            } else {
                f = CompletableFuture.supplyAsync(() -> {
                    try {
                        return PackedSegment.read(fs, path, first);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, pool);
            }
            pending.addLast(new Pending(i, f));
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
