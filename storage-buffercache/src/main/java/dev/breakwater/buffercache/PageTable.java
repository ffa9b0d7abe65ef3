package dev.breakwater.buffercache;

import dev.breakwater.common.util.LongLongOpenHashMap;
import java.util.concurrent.locks.StampedLock;

/**
 * Maps a page key ({@code fileId << 32 | pageNo}) to the slot of the frame holding it. Split into
 * stripes, each an allocation-free open-addressing map under its own {@link StampedLock}; lookups
 * use an optimistic read and fall back to a read lock only when a writer raced them, so hits take
 * no lock at all and there is no global lock anywhere.
 *
 * <p>Invariant: at most one mapping per key. A mapping may be stale (its frame since reassigned)
 * only between the evictor's claim and its {@link #remove}; pinners re-check the frame's key.
 *
 * <p>Thread safety: safe.
 */
final class PageTable {

    static final int ABSENT = -1;

    private final Stripe[] stripes;
    private final int mask;

    PageTable(int stripeCount, int expectedPages) {
        int n = Integer.highestOneBit(Math.max(1, stripeCount - 1) * 2);
        stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(Math.max(16, expectedPages / n));
        }
        mask = n - 1;
    }

    private Stripe stripe(long key) {
        return stripes[(int) (LongLongOpenHashMap.mix(key) >>> 48) & mask];
    }

    /** The slot holding {@code key}, or {@link #ABSENT}. Lock-free unless a writer interferes. */
    int lookup(long key) {
        Stripe s = stripe(key);
        long stamp = s.lock.tryOptimisticRead();
        long slot = s.map.get(key);
        if (!s.lock.validate(stamp)) {
            stamp = s.lock.readLock();
            try {
                slot = s.map.get(key);
            } finally {
                s.lock.unlockRead(stamp);
            }
        }
        return (int) slot;
    }

    /** Maps {@code key} to {@code slot} unless mapped; returns the existing slot or {@link #ABSENT}. */
    int putIfAbsent(long key, int slot) {
        Stripe s = stripe(key);
        long stamp = s.lock.writeLock();
        try {
            long existing = s.map.get(key);
            if (existing != ABSENT) {
                return (int) existing;
            }
            s.map.put(key, slot);
            return ABSENT;
        } finally {
            s.lock.unlockWrite(stamp);
        }
    }

    /** Removes the mapping of {@code key} if it points at {@code slot}. */
    boolean remove(long key, int slot) {
        Stripe s = stripe(key);
        long stamp = s.lock.writeLock();
        try {
            return s.map.remove(key, slot);
        } finally {
            s.lock.unlockWrite(stamp);
        }
    }

    private static final class Stripe {
        final StampedLock lock = new StampedLock();
        final LongLongOpenHashMap map;

        Stripe(int expected) {
            map = new LongLongOpenHashMap(expected, ABSENT);
        }
    }
}
