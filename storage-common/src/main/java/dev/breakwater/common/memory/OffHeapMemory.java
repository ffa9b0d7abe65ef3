package dev.breakwater.common.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide accounting of the off-heap bytes Breakwater has reserved. Every allocation made by
 * {@link OffHeapArena} adds its exact size here and every release subtracts it, so a test (or an
 * operator) can check that closing an engine returns the count to where it was.
 *
 * <p>Thread safety: safe; a single atomic counter, touched only on allocation and release (never on
 * page access).
 */
public final class OffHeapMemory {

    private static final AtomicLong RESERVED = new AtomicLong();
    private static final AtomicLong ARENAS = new AtomicLong();

    private OffHeapMemory() {
    }

    /** Bytes currently reserved by all live arenas, including alignment padding. */
    public static long reservedBytes() {
        return RESERVED.get();
    }

    /** Number of arenas allocated and not yet closed. */
    public static long liveArenas() {
        return ARENAS.get();
    }

    static void reserved(long bytes) {
        RESERVED.addAndGet(bytes);
        ARENAS.incrementAndGet();
    }

    static void released(long bytes) {
        RESERVED.addAndGet(-bytes);
        ARENAS.decrementAndGet();
    }
}
