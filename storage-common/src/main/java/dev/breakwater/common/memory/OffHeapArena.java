package dev.breakwater.common.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * A contiguous block of off-heap memory carved into {@code pageCount} fixed-size pages, each aligned
 * to {@link #ALIGNMENT} bytes so it can be the target of a direct-I/O read.
 *
 * <p>The memory comes from Chronicle-Bytes (a direct {@link ByteBuffer} store) and is released
 * deterministically by {@link #close()}, not by the garbage collector. The exact number of reserved
 * bytes is reported to {@link OffHeapMemory}.
 *
 * <p>Invariants: (1) {@code pageAddress(i) % ALIGNMENT == 0} for every page; (2) pages never overlap;
 * (3) after {@link #close()} no address handed out may be used again.
 *
 * <p>Thread safety: the arena is immutable after construction; {@link #close()} is idempotent and
 * safe to call from any thread, but callers must guarantee that no other thread still accesses its
 * pages (the buffer cache and the write-memory pool ensure this with pin counts).
 */
public final class OffHeapArena implements AutoCloseable {

    /** Alignment of every page, large enough for O_DIRECT on common file systems. */
    public static final int ALIGNMENT = 4096;

    private final String owner;
    private final int pageSize;
    private final int pageCount;
    private final BytesStore<?, ByteBuffer> store;
    private final ByteBuffer aligned;
    private final long baseAddress;
    private final long reservedBytes;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OffHeapArena(String owner, int pageSize, int pageCount) {
        if (pageSize <= 0 || pageSize % ALIGNMENT != 0) {
            throw new IllegalArgumentException("page size must be a positive multiple of " + ALIGNMENT
                    + " bytes, got " + pageSize + " (arena for " + owner + ")");
        }
        long bytes = (long) pageSize * pageCount;
        if (pageCount <= 0 || bytes + ALIGNMENT > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("arena for " + owner + " must hold 1.." + (Integer.MAX_VALUE - ALIGNMENT) / pageSize
                    + " pages of " + pageSize + " bytes, got " + pageCount);
        }
        this.owner = owner;
        this.pageSize = pageSize;
        this.pageCount = pageCount;
        int capacity = (int) bytes + ALIGNMENT;
        this.store = BytesStore.elasticByteBuffer(capacity, capacity);
        ByteBuffer whole = store.underlyingObject();
        this.aligned = whole.alignedSlice(ALIGNMENT).order(ByteOrder.LITTLE_ENDIAN);
        long rawAddress = store.addressForRead(0);
        this.baseAddress = rawAddress + ((ALIGNMENT - (rawAddress % ALIGNMENT)) % ALIGNMENT);
        this.reservedBytes = capacity;
        OffHeapMemory.reserved(reservedBytes);
    }

    /**
     * Allocates an arena of {@code pageCount} pages of {@code pageSize} bytes. The memory is not
     * zeroed beyond what the operating system guarantees for fresh pages.
     *
     * @param owner names the user of the memory in error messages
     */
    public static OffHeapArena allocate(String owner, int pageSize, int pageCount) {
        return new OffHeapArena(owner, pageSize, pageCount);
    }

    public int pageSize() {
        return pageSize;
    }

    public int pageCount() {
        return pageCount;
    }

    /** Bytes this arena reserved, including alignment padding. */
    public long reservedBytes() {
        return reservedBytes;
    }

    /** The absolute address of page {@code page}. */
    public long pageAddress(int page) {
        checkPage(page);
        return baseAddress + (long) page * pageSize;
    }

    /**
     * A new {@link ByteBuffer} view (position 0, limit {@code pageSize}, little endian) of page
     * {@code page}, for handing to file I/O. Callers on hot paths create it once and keep it.
     */
    public ByteBuffer pageBuffer(int page) {
        checkPage(page);
        int from = page * pageSize;
        return aligned.slice(from, pageSize).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** True once {@link #close()} ran. */
    public boolean isClosed() {
        return closed.get();
    }

    /** Releases the memory. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            store.releaseLast();
            OffHeapMemory.released(reservedBytes);
        }
    }

    private void checkPage(int page) {
        if (closed.get()) {
            throw new IllegalStateException("arena for " + owner + " is closed");
        }
        if (page < 0 || page >= pageCount) {
            throw new IndexOutOfBoundsException("page " + page + " outside arena for " + owner + " of " + pageCount + " pages");
        }
    }

    @Override
    public String toString() {
        return "OffHeapArena[" + owner + ", " + pageCount + " x " + pageSize + " B]";
    }
}
