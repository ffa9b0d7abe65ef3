package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;

/**
 * Reusable buffers of one reading thread or one cursor: a page flyweight, a leaf view, and heap
 * arrays for compressed bytes and decompressed (or copied) leaf bodies, grown on demand and then
 * kept, so reads stop allocating once warm.
 *
 * <p>Cursors take theirs from a small per-thread pool ({@link #take()}) and give it back when
 * closed ({@link #giveBack}), so a scan that opens a cursor per run does not allocate (and zero) a
 * leaf-sized body array per run: over a dozen runs that was a tenth of a short scan's time (issue 19).
 *
 * <p>Thread safety: none; one owner at a time. {@link SSTableReader} keeps one per thread for
 * lookups; each open cursor has its own (a pooled one is owned by no one until taken again).
 */
final class ReadScratch {

    /** Scratches a thread keeps for its next cursors. */
    private static final int POOL_SIZE = 16;
    private static final ThreadLocal<ReadScratch[]> POOL = ThreadLocal.withInitial(() -> new ReadScratch[POOL_SIZE]);

    final OffHeapPage page = new OffHeapPage();
    final LeafView leaf = new LeafView();
    byte[] compressed = new byte[0];
    byte[] body = new byte[0];

    /** A scratch from this thread's pool, or a new one. */
    static ReadScratch take() {
        ReadScratch[] pool = POOL.get();
        for (int i = pool.length - 1; i >= 0; i--) {
            ReadScratch s = pool[i];
            if (s != null) {
                pool[i] = null;
                return s;
            }
        }
        return new ReadScratch();
    }

    /**
     * Puts {@code s} into this thread's pool (dropped if the pool is full). Requires: the caller
     * gives it back once and never uses it afterwards.
     */
    static void giveBack(ReadScratch s) {
        ReadScratch[] pool = POOL.get();
        for (int i = 0; i < pool.length; i++) {
            if (pool[i] == null) {
                pool[i] = s;
                return;
            }
        }
    }

    byte[] compressed(int length) {
        if (compressed.length < length) {
            compressed = new byte[length];
        }
        return compressed;
    }

    byte[] body(int length) {
        if (body.length < length) {
            body = new byte[length];
        }
        return body;
    }
}
