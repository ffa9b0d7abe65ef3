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
 * <p>Memory: 8 bytes per key while building, plus the filter itself in {@link #build}. The hash
 * array is a per-thread scratch array, taken at construction and handed back (grown, if it grew,
 * up to {@code MAX_RETAINED} hashes) by {@link #build}: flush and merge threads write table after
 * table, and growing a fresh array per table allocated about 16 bytes per key written (the largest
 * allocation of the write path, measured with JMH {@code -prof gc}). A second builder on the same
 * thread while the scratch is taken, or a builder abandoned before {@code build}, uses its own
 * array.
 *
 * <p>Thread safety: not thread-safe; owned by one writer, used on the thread that created it.
 */
public final class BloomFilterBuilder {

    /** Odd multiplier that derives successive probe positions from the low hash word. */
    static final int PROBE_MULTIPLIER = 0x9E3779B1;

    /** Largest hash array (in hashes, 8 MiB) a thread keeps for its next builder. */
    static final int MAX_RETAINED = 1 << 20;

    /** Per thread: the scratch hash array, or null while a builder of that thread holds it. */
    private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> new long[][] {new long[1024]});

    private final double bitsPerKey;
    private final long[][] scratch;
    private final boolean ownsScratch;
    private long[] hashes;
    private int count;

    /** @param bitsPerKey filter size per key; 0 builds no filter */
    public BloomFilterBuilder(double bitsPerKey) {
        if (!(bitsPerKey >= 0) || bitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom filter bits per key must be in [0, 64], got " + bitsPerKey);
        }
        this.bitsPerKey = bitsPerKey;
        this.scratch = SCRATCH.get();
        this.ownsScratch = scratch[0] != null;
        this.hashes = ownsScratch ? scratch[0] : new long[1024];
        if (ownsScratch) {
            scratch[0] = null;
        }
    }

    public void add(long hash) {
        if (hashes == null) {
            throw new IllegalStateException("Bloom filter builder: add after build");
        }
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
     * The filter's bits, {@code 8} longs per block, block after block. Requires: called once; no
     * {@link #add} after it.
     */
    public long[] build() {
        try {
            return layOut();
        } finally {
            if (ownsScratch && scratch[0] == null) {
                scratch[0] = hashes.length <= MAX_RETAINED ? hashes : new long[MAX_RETAINED];
            }
            hashes = null; // handed back: build once, add nothing after it
        }
    }

    private long[] layOut() {
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
