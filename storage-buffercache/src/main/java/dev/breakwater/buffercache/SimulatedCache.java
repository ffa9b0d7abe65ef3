package dev.breakwater.buffercache;

import dev.breakwater.common.util.LongLongOpenHashMap;

/**
 * The simulated cache of paper 000, section 5.3: a bounded ghost list of the ids of pages most
 * recently evicted from the buffer cache (ids only, no data). When the buffer cache misses on a page
 * whose id is here, a cache larger by {@link #capacityPages()} pages would have saved that read; the
 * memory tuner turns those saves into the derivative of read cost with respect to cache size.
 *
 * <p>What it holds: exactly the {@code capacity} most recently evicted page ids that are still
 * <em>live</em>, that is, not read back into the real cache since (a larger cache would hold such a
 * page in the real part, not in the extra part) and not of a file unregistered since (a deleted file
 * occupies no frame of any cache). An id leaves the list when it is consumed by a miss, when its file
 * is forgotten, or when it is the oldest and a new eviction needs the room. A list that left consumed
 * or dead ids in their slots held fewer than {@code capacity} live ids and under-predicted saves by
 * 8-30%.
 *
 * <p>Structure: {@code stripes} independent FIFO lists, a page id going to the stripe chosen by its
 * hash; each stripe holds its share of the capacity. Striping keeps misses on different pages from
 * contending; with one stripe the list is exactly FIFO over all live evictions, which the tests use
 * to check saved-read counts against a real larger cache.
 *
 * <p>Invariants per stripe: (1) {@code index} maps each id in the list to its slot, and the slots
 * linked from {@code head} through {@code next} to {@code tail} are exactly those ids, oldest first;
 * (2) {@code size <= keys.length}; (3) every slot not in the list is on the free list.
 *
 * <p>Thread safety: safe; each stripe is guarded by its own monitor. No operation allocates, except
 * the index growing towards the stripe's capacity.
 */
final class SimulatedCache {

    private static final long NONE = -1;

    private final Stripe[] stripes;
    private final long capacityPages;

    /**
     * @param capacityPages number of page ids remembered in total; 0 disables the simulated cache
     * @param stripeCount   number of independent stripes (rounded to a power of two)
     */
    SimulatedCache(long capacityPages, int stripeCount) {
        int n = Integer.highestOneBit(Math.max(1, stripeCount));
        while (n > 1 && capacityPages / n < 16) {
            n >>= 1;
        }
        this.stripes = new Stripe[n];
        long perStripe = capacityPages / n;
        for (int i = 0; i < n; i++) {
            long c = perStripe + (i < capacityPages % n ? 1 : 0);
            stripes[i] = new Stripe((int) Math.min(Integer.MAX_VALUE - 8, c));
        }
        this.capacityPages = capacityPages;
    }

    long capacityPages() {
        return capacityPages;
    }

    /** Number of ids held now (at most {@link #capacityPages()}). */
    long size() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.size();
        }
        return n;
    }

    /** Remembers that {@code pageKey} was just evicted from the real cache. */
    void recordEviction(long pageKey) {
        stripeFor(pageKey).add(pageKey);
    }

    /**
     * Called on a real-cache miss: true if {@code pageKey} was recently evicted (the read would have
     * been saved by a larger cache); the id is then forgotten, freeing its slot.
     */
    boolean consumeIfPresent(long pageKey) {
        return stripeFor(pageKey).consume(pageKey);
    }

    /**
     * Drops every id of file {@code fileId} (the file was closed or deleted), freeing their slots for
     * live ids. Costs a pass over the list; called once per file, not per access.
     */
    void forgetFile(int fileId) {
        for (Stripe s : stripes) {
            s.removeFile(fileId);
        }
    }

    private Stripe stripeFor(long key) {
        return stripes[(int) (LongLongOpenHashMap.mix(key) >>> 40) & (stripes.length - 1)];
    }

    /** One FIFO list of evicted ids, doubly linked through slot arrays, plus an index from id to slot. */
    private static final class Stripe {
        private static final int NIL = -1;

        private final long[] keys;
        private final int[] prev;
        private final int[] next;
        private final LongLongOpenHashMap index;
        private int head = NIL;
        private int tail = NIL;
        private int free;
        private int size;

        Stripe(int capacity) {
            this.keys = new long[capacity];
            this.prev = new int[capacity];
            this.next = new int[capacity];
            this.index = new LongLongOpenHashMap(Math.min(capacity, 1 << 16), NONE);
            for (int i = 0; i < capacity; i++) {
                next[i] = i + 1 < capacity ? i + 1 : NIL;
            }
            this.free = capacity > 0 ? 0 : NIL;
        }

        synchronized int size() {
            return size;
        }

        synchronized void add(long key) {
            if (keys.length == 0) {
                return;
            }
            long existing = index.remove(key);
            if (existing != NONE) {
                unlink((int) existing); // evicted again without a miss in between: it becomes the newest
            } else if (size == keys.length) {
                index.remove(keys[head]);
                unlink(head);
            }
            int slot = free;
            free = next[slot];
            keys[slot] = key;
            prev[slot] = tail;
            next[slot] = NIL;
            if (tail == NIL) {
                head = slot;
            } else {
                next[tail] = slot;
            }
            tail = slot;
            size++;
            index.put(key, slot);
        }

        synchronized boolean consume(long key) {
            long slot = index.remove(key);
            if (slot == NONE) {
                return false;
            }
            unlink((int) slot);
            return true;
        }

        synchronized void removeFile(int fileId) {
            for (int slot = head; slot != NIL; ) {
                int after = next[slot];
                if (BufferCache.fileIdOf(keys[slot]) == fileId) {
                    index.remove(keys[slot]);
                    unlink(slot);
                }
                slot = after;
            }
        }

        /** Takes {@code slot} out of the list and puts it on the free list. Requires: the monitor held. */
        private void unlink(int slot) {
            int p = prev[slot];
            int n = next[slot];
            if (p == NIL) {
                head = n;
            } else {
                next[p] = n;
            }
            if (n == NIL) {
                tail = p;
            } else {
                prev[n] = p;
            }
            next[slot] = free;
            free = slot;
            size--;
        }
    }
}
