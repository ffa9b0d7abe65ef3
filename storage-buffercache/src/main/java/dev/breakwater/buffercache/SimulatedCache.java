package dev.breakwater.buffercache;

import dev.breakwater.common.util.LongLongOpenHashMap;

/**
 * The simulated cache of paper 000, section 5.3: a bounded ghost list of the ids of pages most
 * recently evicted from the buffer cache (ids only, no data). When the buffer cache misses on a page
 * whose id is here, a cache larger by {@link #capacityPages()} pages would have saved that read; the
 * memory tuner turns those saves into the derivative of read cost with respect to cache size.
 *
 * <p>Structure: {@code stripes} independent FIFO rings, a page id going to the stripe chosen by its
 * hash. Each ring remembers the last {@code capacity/stripes} evictions that fell into it; an id
 * found by a miss is removed (the page is back in the real cache). Striping keeps misses on
 * different pages from contending; with one stripe the list is exactly FIFO over all evictions,
 * which the tests use to check saved-read counts.
 *
 * <p>Invariants per stripe: (1) {@code index} maps a page id to the sequence number of its newest
 * entry in {@code ring}; (2) an id is in {@code index} iff its newest entry is among the last
 * {@code ring.length} evictions and it has not been consumed since.
 *
 * <p>Thread safety: safe; each stripe is guarded by its own monitor.
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

    /** Remembers that {@code pageKey} was just evicted from the real cache. */
    void recordEviction(long pageKey) {
        stripeFor(pageKey).add(pageKey);
    }

    /**
     * Called on a real-cache miss: true if {@code pageKey} was recently evicted (the read would have
     * been saved by a larger cache); the id is then forgotten.
     */
    boolean consumeIfPresent(long pageKey) {
        return stripeFor(pageKey).consume(pageKey);
    }

    private Stripe stripeFor(long key) {
        return stripes[(int) (LongLongOpenHashMap.mix(key) >>> 40) & (stripes.length - 1)];
    }

    /** One FIFO ring of evicted ids plus an index from id to its newest sequence number. */
    private static final class Stripe {
        private final long[] ring;
        private final LongLongOpenHashMap index;
        private long nextSeq;

        Stripe(int capacity) {
            this.ring = new long[capacity];
            this.index = new LongLongOpenHashMap(Math.min(capacity, 1 << 16), NONE);
        }

        synchronized void add(long key) {
            if (ring.length == 0) {
                return;
            }
            int slot = (int) (nextSeq % ring.length);
            if (nextSeq >= ring.length) {
                // The entry being overwritten falls out of the window unless the id was re-added later.
                index.remove(ring[slot], nextSeq - ring.length);
            }
            ring[slot] = key;
            index.put(key, nextSeq);
            nextSeq++;
        }

        synchronized boolean consume(long key) {
            return index.remove(key) != NONE;
        }
    }
}
