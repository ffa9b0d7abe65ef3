package dev.breakwater.lsm.memory;

import dev.breakwater.common.memory.OffHeapArena;

/**
 * Settings of a {@link WriteMemoryPool}.
 *
 * @param name          names the pool in error messages and off-heap arena owners
 * @param pageSize      bytes per page handed to memory components; a multiple of
 *                      {@link OffHeapArena#ALIGNMENT}. Bounds the largest record a component can
 *                      hold, and is the granularity at which components draw on the budget
 * @param capacityBytes the budget: at most {@code capacityBytes / pageSize} pages are handed out at
 *                      once. May be changed later with {@link WriteMemoryPool#setCapacity(long)}
 * @param arenaBytes    granularity of off-heap reservation: memory is reserved lazily in arenas of
 *                      {@code arenaBytes / pageSize} pages (at least one), and an arena is the unit
 *                      returned to the operating system when the pool shrinks
 */
public record WriteMemoryPoolOptions(String name, int pageSize, long capacityBytes, long arenaBytes) {

    /** Default page size: large enough for 1 KB records with little end-of-page waste, small enough
     *  that an idle tree's partially filled page costs little. */
    public static final int DEFAULT_PAGE_SIZE = 64 * 1024;

    /** Default arena: 1 MiB, the buffer cache's chunk size, so reservations are few but shrinking
     *  can still return memory in modest steps. */
    public static final long DEFAULT_ARENA_BYTES = 1L << 20;

    public WriteMemoryPoolOptions {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("write memory pool needs a name");
        }
        if (pageSize <= 0 || pageSize % OffHeapArena.ALIGNMENT != 0) {
            throw new IllegalArgumentException("write memory page size must be a positive multiple of "
                    + OffHeapArena.ALIGNMENT + " bytes, got " + pageSize + " (pool " + name + ")");
        }
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("write memory capacity must be >= 0, got " + capacityBytes + " (pool " + name + ")");
        }
        if (arenaBytes < pageSize) {
            throw new IllegalArgumentException("write memory arena of " + arenaBytes + " B is below one page of "
                    + pageSize + " B (pool " + name + ")");
        }
    }

    /** Defaults ({@value #DEFAULT_PAGE_SIZE} B pages, 1 MiB arenas) for a budget of {@code capacityBytes}. */
    public static WriteMemoryPoolOptions of(long capacityBytes) {
        return new WriteMemoryPoolOptions("write-memory", DEFAULT_PAGE_SIZE, capacityBytes, DEFAULT_ARENA_BYTES);
    }

    public WriteMemoryPoolOptions withName(String newName) {
        return new WriteMemoryPoolOptions(newName, pageSize, capacityBytes, arenaBytes);
    }

    public WriteMemoryPoolOptions withPageSize(int bytes) {
        return new WriteMemoryPoolOptions(name, bytes, capacityBytes, Math.max(arenaBytes, bytes));
    }

    public WriteMemoryPoolOptions withArenaBytes(long bytes) {
        return new WriteMemoryPoolOptions(name, pageSize, capacityBytes, bytes);
    }

    int pagesPerArena() {
        return (int) Math.min(Integer.MAX_VALUE / 2, Math.max(1, arenaBytes / pageSize));
    }
}
