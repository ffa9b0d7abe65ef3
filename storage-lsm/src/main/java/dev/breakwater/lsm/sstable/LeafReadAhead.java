package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.stats.IoPurpose;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The leaves of one SSTable read for a forward scan in chunks of up to {@code chunkPages} pages, each
 * chunk one read straight from the file into an aligned off-heap buffer, not through the buffer
 * cache. For merges: one page per read made a merge's input rate the disk's single-page read rate (a
 * disk-bound YCSB load spent 85% of the merge thread in single 16 KiB direct reads, issue 13), and
 * pages a merge reads once evicted pages that queries come back to. Every page is verified as the
 * cache verifies a page it loads ({@link dev.breakwater.common.page.PageChecksum#verify}), and the
 * read is recorded in the I/O statistics under its purpose
 * ({@link dev.breakwater.buffercache.BufferCache#recordUncachedRead}).
 *
 * <p>Invariants: (1) the buffer holds the verified pages {@code [chunkFirst, chunkFirst + chunkCount)}
 * of the leaf range, or none ({@code chunkCount == 0}); (2) the buffer's memory is accounted by
 * {@link OffHeapArena} and released by {@link #close()}, after which nothing reads it.
 *
 * <p>Thread safety: one thread uses it (the cursor's).
 */
final class LeafReadAhead implements AutoCloseable {

    private final SSTableReader reader;
    private final IoPurpose purpose;
    private final int pageSize;
    private final int chunkPages;
    private final OffHeapArena chunk;
    private final ByteBuffer view;
    private final long address;
    private int chunkFirst;
    private int chunkCount;

    /**
     * @param chunkPages pages per read, at least 1; capped at the table's leaf count
     */
    LeafReadAhead(SSTableReader reader, IoPurpose purpose, int chunkPages) {
        if (chunkPages < 1) {
            throw new IllegalArgumentException("read-ahead must be at least one page, got " + chunkPages);
        }
        this.reader = reader;
        this.purpose = purpose;
        this.pageSize = reader.metadata().pageSize();
        this.chunkPages = Math.max(1, Math.min(chunkPages, reader.leafEnd() - reader.leafFirst()));
        this.chunk = OffHeapArena.allocate("merge read-ahead of " + reader.name(), pageSize * this.chunkPages, 1);
        this.view = chunk.pageBuffer(0);
        this.address = chunk.pageAddress(0);
    }

    /**
     * Points {@code s.leaf} at leaf {@code leaf} (in the table's leaf range), reading its chunk first
     * if needed; the view is valid until the next call or {@link #close()}.
     */
    LeafView viewLeaf(int leaf, ReadScratch s) throws IOException {
        if (leaf < chunkFirst || leaf >= chunkFirst + chunkCount) {
            fill(leaf);
        }
        return reader.viewLeafAt(address + (long) (leaf - chunkFirst) * pageSize, leaf, s);
    }

    private void fill(int first) throws IOException {
        chunkCount = 0;
        int count = Math.min(chunkPages, reader.leafEnd() - first);
        reader.readPagesUncached(first, count, view, purpose);
        chunkFirst = first;
        chunkCount = count;
    }

    @Override
    public void close() {
        chunkCount = 0;
        chunk.close();
    }
}
