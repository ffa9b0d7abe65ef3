package dev.breakwater.lsm.memory;

/**
 * What a memory component knows about the write memory it draws from: fixed-size off-heap pages,
 * handed out one at a time and given back one at a time. The budget, the arenas behind the pages and
 * any flush triggering stay on the other side of this interface (in {@link WriteMemoryPool}), so a
 * component can be tested against, or later moved to, any page source.
 *
 * <p>Thread safety: implementations are safe to call from any thread.
 */
public interface PagePool {

    /** Returned by {@link #tryAllocatePage()} when the budget is exhausted. Never a page address. */
    long NO_PAGE = 0L;

    /** Bytes per page; every page of the pool has this size. A multiple of 8. */
    int pageSize();

    /**
     * Hands out one page and returns its absolute address, aligned to at least 8 bytes; its contents
     * are unspecified. Returns {@link #NO_PAGE} instead of throwing when the budget is exhausted, so
     * that the caller can free memory (flush) and retry. Cheap, but meant to be called once per page,
     * not once per record.
     */
    long tryAllocatePage();

    /**
     * Gives back a page obtained from {@link #tryAllocatePage()}. Requires: the caller and every
     * reader it served are done with the page; the page is not freed twice.
     */
    void freePage(long address);

    /** Bytes of the pages handed out and not yet given back. A volatile read: cheap enough per write. */
    long usedBytes();

    /** The budget in bytes. */
    long capacityBytes();
}
