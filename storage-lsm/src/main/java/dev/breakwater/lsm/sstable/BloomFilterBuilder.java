package dev.breakwater.lsm.sstable;

import java.util.Arrays;

/**
 * Collects the {@link KeyHash} of every key of a table being written and then lays out a blocked
 * Bloom filter sized for them.
 *
 * <p>Scheme (also in docs/formats.md): the filter is {@code blocks} blocks of 512 bits (one cache
 * line). The high 32 bits of a key's hash choose the block ({@code (hi * blocks) >>> 32}); the low
 * 32 bits, re-multiplied by an odd constant before each probe, give {@code k} bit positions inside
 * that block (the top 9 bits of the product). A probe therefore touches one block of one page:
 * one buffer-cache pin, one cache line. {@code k = round(bitsPerKey * ln 2)}, clamped to [1, 16].
 * Blocking costs some accuracy: at 10 bits per key the false-positive rate is about 1%, a little
 * above the 0.8% of an unblocked filter.
 *
 * <p>Memory: 8 bytes per key while building, plus the filter itself in {@link #build}.
 *
 * <p>Thread safety: not thread-safe; owned by one writer.
 */
public final class BloomFilterBuilder {

    /** Odd multiplier that derives successive probe positions from the low hash word. */
    static final int PROBE_MULTIPLIER = 0x9E3779B1;

    private final double bitsPerKey;
    private long[] hashes = new long[1024];
    private int count;

    /** @param bitsPerKey filter size per key; 0 builds no filter */
    public BloomFilterBuilder(double bitsPerKey) {
        if (!(bitsPerKey >= 0) || bitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom filter bits per key must be in [0, 64], got " + bitsPerKey);
        }
        this.bitsPerKey = bitsPerKey;
    }

    public void add(long hash) {
        if (count == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[count++] = hash;
    }

    public int count() {
        return count;
    }

    public double bitsPerKey() {
        return bitsPerKey;
    }

    /** Probes per key for {@code bitsPerKey}. */
    public static int hashCount(double bitsPerKey) {
        return (int) Math.max(1, Math.min(16, Math.round(bitsPerKey * Math.log(2))));
    }

    /** Blocks of the filter for the keys added so far (0 when bits per key is 0 or no keys). */
    public int blockCount() {
        if (bitsPerKey == 0 || count == 0) {
            return 0;
        }
        long bits = (long) Math.ceil(count * bitsPerKey);
        long blocks = (bits + BloomPageDescriptor.BLOCK_BITS - 1) / BloomPageDescriptor.BLOCK_BITS;
        if (blocks > Integer.MAX_VALUE / 8) {
            throw new IllegalStateException("Bloom filter of " + blocks + " blocks is too large");
        }
        return (int) Math.max(1, blocks);
    }

    /**
     * The filter's bits, {@code 8} longs per block, block after block.
     */
    public long[] build() {
        int blocks = blockCount();
        long[] words = new long[blocks * 8];
        if (blocks == 0) {
            return words;
        }
        int k = hashCount(bitsPerKey);
        for (int i = 0; i < count; i++) {
            long h = hashes[i];
            int block = blockOf(h, blocks);
            int x = (int) h;
            for (int p = 0; p < k; p++) {
                x *= PROBE_MULTIPLIER;
                int bit = x >>> 23;
                words[block * 8 + (bit >>> 6)] |= 1L << (bit & 63);
            }
        }
        return words;
    }

    /** The block of {@code hash} in a filter of {@code blocks} blocks. */
    static int blockOf(long hash, int blocks) {
        return (int) (((hash >>> 32) * blocks) >>> 32);
    }
}
