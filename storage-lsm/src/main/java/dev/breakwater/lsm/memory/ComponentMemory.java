package dev.breakwater.lsm.memory;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The memory of one memory component: pages drawn from a {@link PagePool} one at a time, carved into
 * records by bump allocation. Records are never freed individually; {@link #release()} gives every
 * page back at once (LevelDB's {@code Arena}, made concurrent).
 *
 * <h2>Concurrency</h2>
 * The current page is an immutable {@link Slab} holding an atomic top offset: a writer claims
 * {@code size} bytes with one {@code getAndAdd} on it, wait-free. When the claim overshoots the page,
 * the writer takes {@link #pageLock}, and if the slab is still current, draws one new page from the
 * pool and installs a new slab; writers that lost the race retry on the new slab. The pool is thus hit
 * once per page, never per record. The tail of a page that could not hold the next record is wasted.
 *
 * <p>Invariants: (1) claimed ranges never overlap and never cross a page end; (2) {@code pages[0..pageCount)}
 * are exactly the pages drawn from the pool and not yet returned; (3) after {@link #release()} no
 * page is drawn and {@code pageCount == 0}.
 *
 * <p>Thread safety: {@link #allocate} is safe from many threads; {@link #release()} requires that no
 * allocation is in progress and no reader still uses the records (the owner guarantees both).
 */
final class ComponentMemory {

    /** Returned by {@link #allocate} when the pool has no page for us. */
    static final long NO_MEMORY = 0L;

    private final PagePool pool;
    private final int pageSize;

    /** Serializes page changes and release. Guards {@link #pages}, and the writes of {@link #pageCount} and {@link #released}. */
    private final ReentrantLock pageLock = new ReentrantLock();
    private long[] pages = new long[8];
    private volatile int pageCount;
    private volatile boolean released;
    /** The page being carved; null before the first allocation and after release. */
    private volatile Slab current;

    ComponentMemory(PagePool pool) {
        this.pool = pool;
        this.pageSize = pool.pageSize();
    }

    int pageSize() {
        return pageSize;
    }

    /** Pages held times the page size: exactly what this component draws on the pool's budget. */
    long bytesHeld() {
        return (long) pageCount * pageSize;
    }

    /**
     * Claims {@code size} bytes (a multiple of 8, at most the page size) and returns their address,
     * 8-byte aligned, or {@link #NO_MEMORY} if a new page was needed and the pool had none.
     */
    long allocate(int size) {
        while (true) {
            Slab slab = current;
            // Read before claiming, so that writers retrying against an exhausted pool do not push
            // the top of a full page ever higher (it could wrap): overshoot stays below one record
            // per concurrent writer.
            if (slab != null && slab.top.get() <= pageSize - size) {
                int top = slab.top.getAndAdd(size);
                if (top <= pageSize - size) {
                    return slab.base + top;
                }
            }
            if (!nextPage(slab)) {
                return NO_MEMORY;
            }
        }
    }

    /**
     * Draws one whole page for the caller's own layout (a bucket array, an index chunk), outside the
     * bump-allocated records; it is held and released like every other page. Returns its address,
     * or {@link #NO_MEMORY} if the pool has none. The page's bytes are not cleared.
     */
    long allocatePage() {
        pageLock.lock();
        try {
            if (released) {
                throw new IllegalStateException("memory component is closed");
            }
            long page = pool.tryAllocatePage();
            if (page == PagePool.NO_PAGE) {
                return NO_MEMORY;
            }
            if (pageCount == pages.length) {
                pages = Arrays.copyOf(pages, pages.length * 2);
            }
            pages[pageCount] = page;
            pageCount = pageCount + 1;
            return page;
        } finally {
            pageLock.unlock();
        }
    }

    /** Installs a fresh page unless another writer already replaced {@code full}; false if the pool is exhausted. */
    private boolean nextPage(Slab full) {
        pageLock.lock();
        try {
            if (released) {
                throw new IllegalStateException("memory component is closed");
            }
            if (current != full) {
                return true; // another writer installed a page: retry on it
            }
            long page = pool.tryAllocatePage();
            if (page == PagePool.NO_PAGE) {
                return false;
            }
            if (pageCount == pages.length) {
                pages = Arrays.copyOf(pages, pages.length * 2);
            }
            pages[pageCount] = page;
            pageCount = pageCount + 1;
            current = new Slab(page);
            return true;
        } finally {
            pageLock.unlock();
        }
    }

    /** Returns every page to the pool. Idempotent. */
    void release() {
        pageLock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            current = null;
            for (int i = 0; i < pageCount; i++) {
                pool.freePage(pages[i]);
                pages[i] = 0L;
            }
            pageCount = 0;
        } finally {
            pageLock.unlock();
        }
    }

    boolean isReleased() {
        return released;
    }

    /** One page being carved: its address and the offset of the next free byte (may overshoot when full). */
    private static final class Slab {
        final long base;
        final AtomicInteger top = new AtomicInteger();

        Slab(long base) {
            this.base = base;
        }
    }
}
