package dev.breakwater.lsm.sstable;

import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongConsumer;

/**
 * Assigns consecutive page numbers to the pages of a file being written and writes them in large
 * sequential batches: pages are sealed ({@link PageChecksum#seal}) into an aligned off-heap buffer
 * of {@code batchPages} pages, which is written with one positional write when full or on
 * {@link #flush}. Each batch write is counted in {@link IoStatistics} under the writer's purpose and
 * reported to the writer's {@code written} sink as it happens (a tree counts its merge bytes there,
 * so a statistics snapshot taken during a long merge sees what it has written so far).
 *
 * <p>Invariants: (1) page {@code n} is written at byte {@code n * pageSize}; (2) pages
 * {@code [0, flushedPages)} are in the file, {@code [flushedPages, nextPage)} in the buffer;
 * (3) every byte of a page not set by its payload is zero.
 *
 * <p>Thread safety: not thread-safe; owned by one writer. {@link #close} frees the buffer.
 */
final class PageBatchWriter implements AutoCloseable {

    private final StorageFile file;
    private final int pageSize;
    private final int batchPages;
    private final IoStatistics io;
    private final IoPurpose purpose;
    private final LongConsumer written;
    private final OffHeapArena arena;
    private final ByteBuffer batch;
    private final byte[] zeros;
    private int flushedPages;
    private int nextPage;

    /** @param written told the bytes of each batch once it is in the file */
    PageBatchWriter(StorageFile file, int pageSize, int batchPages, IoStatistics io, IoPurpose purpose, LongConsumer written) {
        this.file = file;
        this.pageSize = pageSize;
        this.batchPages = batchPages;
        this.io = io;
        this.purpose = purpose;
        this.written = written;
        this.arena = OffHeapArena.allocate("SSTable writer " + file.path(), pageSize * batchPages, 1);
        this.batch = arena.pageBuffer(0);
        this.zeros = new byte[pageSize];
    }

    /** Number the next page will get. */
    int nextPage() {
        return nextPage;
    }

    /**
     * Appends a page of {@code type} and {@code flags} whose payload is {@code payload[0, length)}.
     *
     * @return the page's number
     */
    int writePage(byte type, byte flags, byte[] payload, int length) throws IOException {
        if (length > PageDescriptor.maxPayload(pageSize)) {
            throw new IllegalArgumentException("payload of " + length + " B exceeds page payload " + PageDescriptor.maxPayload(pageSize));
        }
        if (nextPage - flushedPages == batchPages) {
            flush();
        }
        int pageNo = nextPage++;
        int base = (pageNo - flushedPages) * pageSize;
        batch.clear();
        batch.put(base, zeros, 0, pageSize);
        batch.put(base + PageDescriptor.HEADER_LENGTH, payload, 0, length);
        batch.position(base);
        PageDescriptor.writeHeader(batch, type, flags, pageNo, length);
        PageChecksum.seal(batch, pageSize);
        batch.clear();
        return pageNo;
    }

    /** Writes the buffered pages to the file. */
    void flush() throws IOException {
        int pages = nextPage - flushedPages;
        if (pages == 0) {
            return;
        }
        batch.clear().limit(pages * pageSize);
        file.write((long) flushedPages * pageSize, batch);
        io.recordWrite(purpose, pages, (long) pages * pageSize);
        written.accept((long) pages * pageSize);
        flushedPages = nextPage;
        batch.clear();
    }

    @Override
    public void close() {
        arena.close();
    }
}
