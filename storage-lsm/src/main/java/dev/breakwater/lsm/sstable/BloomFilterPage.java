package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;

/**
 * Probes a blocked Bloom filter block held in a page ({@link BloomPageDescriptor}), with the probe
 * sequence of {@link BloomFilterBuilder}. No allocation.
 *
 * <p>Thread safety: stateless.
 */
final class BloomFilterPage {

    private BloomFilterPage() {
    }

    /** Page of the filter (relative to its first page) that holds {@code block}. */
    static int pageOf(int block, int blocksPerPage) {
        return block / blocksPerPage;
    }

    /**
     * True if every one of the {@code k} bits of {@code hash} is set in the block at page offset
     * {@code blockOffset} of {@code page}.
     */
    static boolean mayContain(OffHeapPage page, int blockOffset, long hash, int k) {
        int x = (int) hash;
        for (int p = 0; p < k; p++) {
            x *= BloomFilterBuilder.PROBE_MULTIPLIER;
            int bit = x >>> 23;
            long word = page.getLong(blockOffset + ((bit >>> 6) << 3));
            if ((word & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }
}
