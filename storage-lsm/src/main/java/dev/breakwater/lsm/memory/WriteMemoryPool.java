package dev.breakwater.lsm.memory;

import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.util.LongLongOpenHashMap;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The global write memory (DESIGN.md §3): one budget of fixed-size off-heap pages from which every
 * memory component of every LSM-tree allocates on demand, with no per-tree limit.
 *
 * <h2>Memory</h2>
 * Pages are carved from {@link OffHeapArena}s of {@code pagesPerArena} pages, reserved lazily: a new
 * arena is reserved only when every page of the live arenas is handed out. Freed pages go back on
 * their arena's free stack. Allocation takes a free page from the lowest-numbered arena that has one,
 * so pages concentrate in old arenas and the newest ones drain; that is what lets a shrink give
 * memory back.
 *
 * <h2>Budget and resizing</h2>
 * At most {@code capacityBytes / pageSize} pages are handed out at once; beyond that
 * {@link #tryAllocatePage()} returns {@link PagePool#NO_PAGE} (no exception: the caller flushes and
 * retries). {@link #setCapacity(long)} takes effect at once. Growing simply admits more pages.
 * Shrinking lowers the budget (pages already handed out stay valid) and closes arenas whose pages are
 * all free while more memory is reserved than the new budget needs; arenas still holding used pages
 * are closed later, when the components free their last page.
 *
 * <h2>Flush triggering</h2>
 * {@link #utilization()} and {@link #addThresholdListener} are the seam for a write-memory manager:
 * a listener is told, edge-triggered, when usage reaches its fraction of the budget, and re-armed
 * once usage falls below it again. The pool itself never decides what to flush.
 *
 * <h2>Concurrency</h2>
 * Memory components call the pool once per page (64 KiB by default), never per record, so a short
 * lock around O(1) free-list work is cheap: with 1 KB records one insert in ~64 touches it. The
 * exhausted case is answered from a volatile read without the lock. Listeners run after the lock is
 * released.
 *
 * <p>Invariants: (1) {@code usedPages <= capacityPages} except after a shrink, until components free
 * enough pages; (2) a page is either handed out or on its arena's free stack, never both, never
 * twice; (3) every handed-out page belongs to a live (unclosed) arena; (4) {@code reservedBytes()}
 * equals the sum of the live arenas' reserved bytes, which is what {@code OffHeapMemory} counts for
 * this pool; (5) new arenas are reserved only when no live arena has a free page, so outside shrinks
 * the pool reserves at most the budget rounded up to whole arenas.
 *
 * <p>Thread safety: every method is safe from any thread. {@link #close()} requires that every
 * component has freed its pages (it releases the memory regardless, then reports a leak).
 */
public final class WriteMemoryPool implements PagePool, AutoCloseable {

    private final String name;
    private final int pageSize;
    private final int pagesPerArena;

    /** Guards the arena table, the free stacks, {@link #owners} and the writes of the volatile counters. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Live arenas by slot; null slots are free. Guarded by lock. */
    private Arena[] arenas = new Arena[4];
    /** Slots of live arenas that have at least one free page. Guarded by lock. */
    private final BitSet arenasWithFreePages = new BitSet();
    /** Page address to {@code slot << 32 | pageIndex}. Guarded by lock. */
    private final LongLongOpenHashMap owners = new LongLongOpenHashMap(64, -1L);
    private int liveArenas;

    private volatile long capacityBytes;
    private volatile long capacityPages;
    private volatile long usedPages;
    private volatile long reservedBytes;
    private volatile boolean closed;

    private final Object listenersLock = new Object();
    private volatile ThresholdRegistration[] listeners = new ThresholdRegistration[0];

    public WriteMemoryPool(WriteMemoryPoolOptions options) {
        this.name = options.name();
        this.pageSize = options.pageSize();
        this.pagesPerArena = options.pagesPerArena();
        this.capacityBytes = options.capacityBytes();
        this.capacityPages = options.capacityBytes() / pageSize;
    }

    /** A pool with default page and arena sizes and a budget of {@code capacityBytes}. */
    public static WriteMemoryPool withCapacity(long capacityBytes) {
        return new WriteMemoryPool(WriteMemoryPoolOptions.of(capacityBytes));
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    public int pagesPerArena() {
        return pagesPerArena;
    }

    /** The budget, as last set. */
    public long capacityBytes() {
        return capacityBytes;
    }

    /** Exactly the pages handed out and not yet freed, times the page size. */
    public long usedBytes() {
        return usedPages * pageSize;
    }

    /** Off-heap bytes the pool holds in live arenas, alignment padding included. */
    public long reservedBytes() {
        return reservedBytes;
    }

    /** Number of live arenas. */
    public int arenaCount() {
        lock.lock();
        try {
            return liveArenas;
        } finally {
            lock.unlock();
        }
    }

    /** {@code usedBytes / capacityBytes}; 1.0 for a zero budget with pages in use, 0.0 if empty. */
    public double utilization() {
        long cap = capacityBytes;
        long used = usedBytes();
        if (cap <= 0) {
            return used > 0 ? 1.0 : 0.0;
        }
        return (double) used / cap;
    }

    @Override
    public long tryAllocatePage() {
        if (usedPages >= capacityPages && !closed) {
            return NO_PAGE; // exhausted: answered without the lock
        }
        long address;
        lock.lock();
        try {
            ensureOpen();
            if (usedPages >= capacityPages) {
                return NO_PAGE;
            }
            int slot = arenasWithFreePages.nextSetBit(0);
            Arena arena = slot >= 0 ? arenas[slot] : reserveArenaLocked();
            int index = arena.pop();
            if (arena.freeCount == 0) {
                arenasWithFreePages.clear(arena.slot);
            }
            usedPages = usedPages + 1;
            address = arena.memory.pageAddress(index);
        } finally {
            lock.unlock();
        }
        checkThresholds();
        return address;
    }

    @Override
    public void freePage(long address) {
        lock.lock();
        try {
            ensureOpen();
            long owner = owners.get(address);
            if (owner == -1L) {
                throw new IllegalArgumentException("address 0x" + Long.toHexString(address) + " is not a page of write memory pool " + name);
            }
            Arena arena = arenas[(int) (owner >>> 32)];
            arena.push((int) owner, address, name);
            arenasWithFreePages.set(arena.slot);
            usedPages = usedPages - 1;
            if (arena.freeCount == pagesPerArena && overReservedLocked()) {
                closeArenaLocked(arena);
            }
        } finally {
            lock.unlock();
        }
        checkThresholds();
    }

    /**
     * Changes the budget. Growing admits more pages at once. Shrinking lowers the budget and closes
     * entirely free arenas (newest first) while the pool reserves more than the new budget needs;
     * used pages stay valid and their arenas are closed when freed. Returns the reserved bytes after
     * the change.
     */
    public long setCapacity(long newCapacityBytes) {
        if (newCapacityBytes < 0) {
            throw new IllegalArgumentException("write memory capacity must be >= 0, got " + newCapacityBytes + " (pool " + name + ")");
        }
        long reserved;
        lock.lock();
        try {
            ensureOpen();
            capacityBytes = newCapacityBytes;
            capacityPages = newCapacityBytes / pageSize;
            for (int slot = arenas.length - 1; slot >= 0 && overReservedLocked(); slot--) {
                Arena arena = arenas[slot];
                if (arena != null && arena.freeCount == pagesPerArena) {
                    closeArenaLocked(arena);
                }
            }
            reserved = reservedBytes;
        } finally {
            lock.unlock();
        }
        checkThresholds();
        return reserved;
    }

    /**
     * Registers {@code listener} to be told when usage reaches {@code fraction} of the budget (for
     * example 0.95). Edge-triggered: it fires once per crossing and is re-armed when usage is seen
     * below the fraction again; a usage hovering at the threshold may fire it repeatedly. Usage is
     * checked at registration, then after every allocation, free and capacity change.
     */
    public ListenerRegistration addThresholdListener(double fraction, UsageThresholdListener listener) {
        if (!(fraction > 0.0 && fraction <= 1.0)) {
            throw new IllegalArgumentException("threshold must be in (0, 1], got " + fraction);
        }
        ThresholdRegistration registration = new ThresholdRegistration(fraction, listener);
        synchronized (listenersLock) {
            ThresholdRegistration[] current = listeners;
            ThresholdRegistration[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = registration;
            listeners = next;
        }
        registration.check(usedBytes(), capacityBytes);
        return registration;
    }

    /**
     * Releases all memory. Idempotent. Requires: every component has freed its pages; if some were
     * still handed out, the memory is released anyway and an {@link IllegalStateException} reports
     * the leak (any later access to those pages is a use-after-free).
     */
    @Override
    public void close() {
        long leaked;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            leaked = usedPages;
            for (Arena arena : arenas) {
                if (arena != null) {
                    closeArenaLocked(arena);
                }
            }
            usedPages = 0;
        } finally {
            lock.unlock();
        }
        if (leaked != 0) {
            throw new IllegalStateException("write memory pool " + name + " closed with " + leaked
                    + " pages still held by memory components");
        }
    }

    private Arena reserveArenaLocked() {
        int slot = 0;
        while (slot < arenas.length && arenas[slot] != null) {
            slot++;
        }
        if (slot == arenas.length) {
            arenas = Arrays.copyOf(arenas, arenas.length * 2);
        }
        OffHeapArena memory = OffHeapArena.allocate(name + "#arena" + slot, pageSize, pagesPerArena);
        Arena arena = new Arena(slot, memory, pagesPerArena);
        arenas[slot] = arena;
        for (int i = 0; i < pagesPerArena; i++) {
            owners.put(memory.pageAddress(i), ((long) slot << 32) | i);
        }
        arenasWithFreePages.set(slot);
        liveArenas++;
        reservedBytes = reservedBytes + memory.reservedBytes();
        return arena;
    }

    private void closeArenaLocked(Arena arena) {
        for (int i = 0; i < pagesPerArena; i++) {
            owners.remove(arena.memory.pageAddress(i));
        }
        arenas[arena.slot] = null;
        arenasWithFreePages.clear(arena.slot);
        liveArenas--;
        reservedBytes = reservedBytes - arena.memory.reservedBytes();
        arena.memory.close();
    }

    /** True if the live arenas hold more pages than the budget rounded up to whole arenas. */
    private boolean overReservedLocked() {
        long neededArenas = (capacityPages + pagesPerArena - 1) / pagesPerArena;
        return liveArenas > neededArenas;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("write memory pool " + name + " is closed");
        }
    }

    private void checkThresholds() {
        ThresholdRegistration[] current = listeners;
        if (current.length == 0) {
            return;
        }
        long used = usedBytes();
        long cap = capacityBytes;
        for (ThresholdRegistration registration : current) {
            registration.check(used, cap);
        }
    }

    @Override
    public String toString() {
        return "WriteMemoryPool[" + name + ", used " + usedBytes() + " of " + capacityBytes + " B, reserved " + reservedBytes + " B]";
    }

    /**
     * One reserved arena and its free pages. Invariant: {@code free[0..freeCount)} are exactly the
     * indexes of pages not handed out, and {@code inUse[i]} is true for the others. Guarded by the
     * pool's lock.
     */
    private static final class Arena {
        final int slot;
        final OffHeapArena memory;
        final int[] free;
        final boolean[] inUse;
        int freeCount;

        Arena(int slot, OffHeapArena memory, int pages) {
            this.slot = slot;
            this.memory = memory;
            this.free = new int[pages];
            this.inUse = new boolean[pages];
            // Hand out low page indexes first: a stack popped from the end.
            for (int i = 0; i < pages; i++) {
                free[i] = pages - 1 - i;
            }
            this.freeCount = pages;
        }

        int pop() {
            int index = free[--freeCount];
            inUse[index] = true;
            return index;
        }

        void push(int index, long address, String pool) {
            if (!inUse[index]) {
                throw new IllegalStateException("page 0x" + Long.toHexString(address) + " of write memory pool " + pool + " freed twice");
            }
            inUse[index] = false;
            free[freeCount++] = index;
        }
    }

    /** A registered listener and whether it may fire (armed) on the next crossing. */
    private final class ThresholdRegistration implements ListenerRegistration {
        final double fraction;
        final UsageThresholdListener listener;
        final AtomicBoolean armed = new AtomicBoolean(true);

        ThresholdRegistration(double fraction, UsageThresholdListener listener) {
            this.fraction = fraction;
            this.listener = listener;
        }

        void check(long used, long cap) {
            boolean above = used > 0 && used >= fraction * cap;
            if (above) {
                if (armed.get() && armed.compareAndSet(true, false)) {
                    listener.thresholdReached(used, cap);
                }
            } else if (!armed.get()) {
                armed.set(true);
            }
        }

        @Override
        public void close() {
            synchronized (listenersLock) {
                ThresholdRegistration[] current = listeners;
                int at = -1;
                for (int i = 0; i < current.length; i++) {
                    if (current[i] == this) {
                        at = i;
                    }
                }
                if (at < 0) {
                    return;
                }
                ThresholdRegistration[] next = new ThresholdRegistration[current.length - 1];
                System.arraycopy(current, 0, next, 0, at);
                System.arraycopy(current, at + 1, next, at, current.length - at - 1);
                listeners = next;
            }
        }
    }
}
