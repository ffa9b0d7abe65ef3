package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.BLOOM_BLOCK_BITS;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.BLOOM_BLOCK_BYTES;

import dev.breakwater.lsm.sstable.BloomFilterBuilder;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The Bloom filter of a {@link MemorySSTable}: a blocked Bloom filter (512-bit blocks, one cache
 * line) laid out in pool pages ({@link MemorySSTableDescriptor}, "Bloom filter page"). The same scheme
 * as the disk filter of {@link BloomFilterBuilder}, restated here because this one never leaves memory
 * and so is free to change: the high 32 bits of a key's 64-bit hash choose the block
 * ({@code (hi * blocks) >>> 32}); the low 32 bits, multiplied by an odd constant before each of the
 * {@code k} probes, give a bit of that block (the top 9 bits of the product). A probe touches one
 * cache line. {@code k = round(bitsPerKey * ln 2)} clamped to [1, 16]; at 10 bits per key the
 * false-positive rate is about 1%.
 *
 * <p>Invariants: (1) {@code pages.length == ceil(blocks / blocksPerPage)}; (2) the bits never change
 * after {@link #build} returns; (3) every key added at build time probes true (no false negatives).
 *
 * <p>Thread safety: immutable after build, so {@link #mayContain} is safe from any thread until the
 * owner frees the pages ({@link #free}), which requires that no probe is in progress or will follow.
 */
final class MemoryBloomFilter {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    /** Odd multiplier (2^32 / golden ratio, rounded to odd) deriving successive probe positions. */
    private static final int PROBE_MULTIPLIER = 0x9E3779B9;

    private final long[] pages;
    private final int blocks;
    private final int blocksPerPage;
    private final int probes;

    private MemoryBloomFilter(long[] pages, int blocks, int blocksPerPage, int probes) {
        this.pages = pages;
        this.blocks = blocks;
        this.blocksPerPage = blocksPerPage;
        this.probes = probes;
    }

    /** Blocks a filter of {@code keys} keys at {@code bitsPerKey} needs (0 for no filter). */
    static int blockCount(long keys, double bitsPerKey) {
        if (bitsPerKey == 0 || keys == 0) {
            return 0;
        }
        long bits = (long) Math.ceil(keys * bitsPerKey);
        long count = Math.max(1, (bits + BLOOM_BLOCK_BITS - 1) / BLOOM_BLOCK_BITS);
        if (count > Integer.MAX_VALUE) {
            throw new IllegalStateException("Bloom filter of " + count + " blocks is too large");
        }
        return (int) count;
    }

    /**
     * Lays out a filter over {@code hashes[0..count)} in fresh pages of {@code pool}. Returns null if
     * the pool ran out of pages, having given back the pages it took. With {@code bitsPerKey == 0} or
     * no keys, returns a filter of no pages that answers "maybe" to every probe.
     */
    static MemoryBloomFilter build(PagePool pool, long[] hashes, int count, double bitsPerKey) {
        int blocks = blockCount(count, bitsPerKey);
        int pageSize = pool.pageSize();
        int perPage = MemorySSTableDescriptor.bloomBlocksPerPage(pageSize);
        int pageCount = (blocks + perPage - 1) / perPage;
        long[] pages = new long[pageCount];
        for (int p = 0; p < pageCount; p++) {
            long page = pool.tryAllocatePage();
            if (page == PagePool.NO_PAGE) {
                for (int q = 0; q < p; q++) {
                    pool.freePage(pages[q]);
                }
                return null;
            }
            MEMORY.setMemory(page, pageSize, (byte) 0);
            pages[p] = page;
        }
        int k = BloomFilterBuilder.hashCount(bitsPerKey);
        MemoryBloomFilter filter = new MemoryBloomFilter(pages, blocks, perPage, k);
        if (blocks > 0) {
            for (int i = 0; i < count; i++) {
                filter.add(hashes[i]);
            }
        }
        return filter;
    }

    private void add(long hash) {
        long block = blockAddress(hash);
        int x = (int) hash;
        for (int p = 0; p < probes; p++) {
            x *= PROBE_MULTIPLIER;
            int bit = x >>> 23;
            long word = block + ((bit >>> 6) << 3);
            MEMORY.writeLong(word, MEMORY.readLong(word) | (1L << (bit & 63)));
        }
    }

    /** False if the key of {@code hash} was certainly not added; true if it may have been. */
    boolean mayContain(long hash) {
        if (blocks == 0) {
            return true;
        }
        long block = blockAddress(hash);
        int x = (int) hash;
        for (int p = 0; p < probes; p++) {
            x *= PROBE_MULTIPLIER;
            int bit = x >>> 23;
            if ((MEMORY.readLong(block + ((bit >>> 6) << 3)) & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    private long blockAddress(long hash) {
        int block = (int) (((hash >>> 32) * blocks) >>> 32);
        return pages[block / blocksPerPage] + (long) (block % blocksPerPage) * BLOOM_BLOCK_BYTES;
    }

    int pageCount() {
        return pages.length;
    }

    int probes() {
        return probes;
    }

    /** Gives every page back. Requires: no probe in progress or to come; called once. */
    void free(PagePool pool) {
        for (int p = 0; p < pages.length; p++) {
            pool.freePage(pages[p]);
            pages[p] = PagePool.NO_PAGE;
        }
    }
}
