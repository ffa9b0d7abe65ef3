package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;

/**
 * Reusable buffers of one reading thread or one cursor: a page flyweight, a leaf view, and heap
 * arrays for compressed bytes and decompressed (or copied) leaf bodies, grown on demand and then
 * kept, so reads stop allocating once warm.
 *
 * <p>Thread safety: none; one owner at a time. {@link SSTableReader} keeps one per thread for
 * lookups; each cursor has its own.
 */
final class ReadScratch {

    final OffHeapPage page = new OffHeapPage();
    final LeafView leaf = new LeafView();
    byte[] compressed = new byte[0];
    byte[] body = new byte[0];

    byte[] compressed(int length) {
        if (compressed.length < length) {
            compressed = new byte[length];
        }
        return compressed;
    }

    byte[] body(int length) {
        if (body.length < length) {
            body = new byte[length];
        }
        return body;
    }
}
