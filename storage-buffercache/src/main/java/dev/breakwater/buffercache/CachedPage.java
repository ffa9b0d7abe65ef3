package dev.breakwater.buffercache;

import dev.breakwater.common.memory.OffHeapArena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One frame of the buffer cache: a fixed page of off-heap memory and the identity of the disk page
 * it currently holds. {@link BufferCache#pin} returns it; the holder reads the page through
 * {@link #address()} (for example with an {@code OffHeapPage} flyweight) until it calls
 * {@link BufferCache#unpin}. The page content must not be modified: disk components are immutable.
 *
 * <p>Frame states, driven by the cache only:
 * <pre>
 *   pins == -1            claimed: being evicted, loaded into, or retired by a shrink; nobody may pin
 *   pins >= 0, EMPTY      free, holds no page
 *   pins >= 1, LOADING    the claimer is reading the page; other pinners wait for READY or FAILED
 *   pins >= 0, READY      holds page {@code key}
 * </pre>
 *
 * <p>Invariants: (1) {@code key} changes only while {@code pins == -1} or, for the loader, before the
 * frame is published in the page table; (2) a pinner checks {@code key} after pinning, so a stale
 * page-table entry can never hand out a frame that now holds another page; (3) memory of a retired
 * frame is released only after it was claimed, so no pinner can touch it afterwards.
 *
 * <p>Thread safety: all fields are volatile or updated by CAS; methods are safe from any thread.
 */
public final class CachedPage {

    static final long NO_PAGE = Long.MIN_VALUE;
    static final int EMPTY = 0;
    static final int LOADING = 1;
    static final int READY = 2;
    static final int FAILED = 3;

    private static final VarHandle PINS;

    static {
        try {
            PINS = MethodHandles.lookup().findVarHandle(CachedPage.class, "pins", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int slot;
    final OffHeapArena arena;
    final ByteBuffer buffer;
    private final long address;
    private final int size;

    private volatile int pins;
    volatile long key = NO_PAGE;
    volatile int state = EMPTY;
    volatile boolean referenced;
    volatile boolean retired;

    CachedPage(int slot, OffHeapArena arena, int pageInArena) {
        this.slot = slot;
        this.arena = arena;
        this.buffer = arena.pageBuffer(pageInArena);
        this.address = arena.pageAddress(pageInArena);
        this.size = arena.pageSize();
    }

    /** Address of the first byte of the page. Valid only while pinned. */
    public long address() {
        return address;
    }

    /** Page size in bytes. */
    public int size() {
        return size;
    }

    /** The file id of the page held (valid while pinned). */
    public int fileId() {
        return BufferCache.fileIdOf(key);
    }

    /** The page number within its file (valid while pinned). */
    public int pageNo() {
        return BufferCache.pageNoOf(key);
    }

    /**
     * A read-only view of the page for callers that prefer {@link ByteBuffer} access. Allocates a
     * small view object: not for hot paths (use {@link #address()}).
     */
    public ByteBuffer asReadOnlyBuffer() {
        return buffer.asReadOnlyBuffer().order(buffer.order());
    }

    int pins() {
        return pins;
    }

    /** Adds a pin unless the frame is claimed. */
    boolean tryPin() {
        while (true) {
            int p = pins;
            if (p < 0) {
                return false;
            }
            if (PINS.weakCompareAndSet(this, p, p + 1)) {
                return true;
            }
        }
    }

    /** Removes a pin; returns the pins left. */
    int unpin() {
        int before = (int) PINS.getAndAdd(this, -1);
        if (before <= 0) {
            PINS.getAndAdd(this, 1);
            throw new IllegalStateException("unpin of a page that is not pinned (slot " + slot + ", pins " + before + ")");
        }
        return before - 1;
    }

    /** Claims an unpinned frame exclusively (pins 0 to -1). */
    boolean tryClaim() {
        return PINS.compareAndSet(this, 0, -1);
    }

    /** Ends a claim, leaving {@code newPins} pins (0, or 1 for the loader). */
    void releaseClaim(int newPins) {
        pins = newPins;
    }
}
