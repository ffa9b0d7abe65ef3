package dev.breakwater.buffercache;

import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.common.util.Backoff;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The buffer cache shared by every disk component of every LSM-tree: off-heap page frames with clock
 * replacement, read-only pages (disk components are immutable and bulk loaded around the cache, so
 * there is no dirty-page write-back), and a simulated cache that measures what a larger cache would
 * save (paper 000, section 5.3).
 *
 * <h2>Use</h2>
 * A reader registers each open file once ({@link #registerFile}), then brackets every page access
 * with {@link #pin} and {@link #unpin}. Pages are verified (CRC32C, version, page number) when read
 * from disk; a failed read or verification throws and leaves no frame holding the bad data.
 *
 * <h2>Concurrency</h2>
 * A hit is a lock-free page-table lookup ({@link PageTable}), a CAS on the frame's pin count and a
 * re-check of the frame's key: no lock, no allocation. A miss claims a victim with the clock hand
 * (an atomic counter), publishes the frame in the page table in state LOADING, reads the page
 * outside any lock, and marks it READY; concurrent pinners of the same page wait for it rather than
 * reading it twice. When every frame stays pinned for {@link BufferCacheOptions#pinWait()},
 * {@link #pin} throws {@link BufferCacheFullException} instead of hanging.
 *
 * <h2>File identity</h2>
 * File ids are never reused within a cache, so a page of a deleted file can never be returned for
 * a new file that happens to get the same id. {@link #unregisterFile} drops the file's unpinned
 * frames at once (pinned ones age out) and its ids from the simulated cache.
 *
 * <h2>Resizing</h2>
 * Memory is held in chunks of frames (one {@link OffHeapArena} each). {@link #resize} grows by adding
 * chunks and shrinks by retiring the newest chunks: their frames are evicted once unpinned, then the
 * chunk's memory is released. A shrink blocked by pinned frames waits up to the pin wait and reports
 * how far it got. Resizes are serialized with each other but do not block pins.
 *
 * <p>Invariants: (1) a frame is in the page table only under the key it holds; (2) a frame with
 * {@code pins > 0} is never evicted or retired; (3) {@code slots} covers exactly the frames of the
 * live chunks, chunk {@code i} holding slots {@code [i*k, (i+1)*k)}; (4) the off-heap bytes of the
 * cache equal the sum of its chunks' arenas.
 *
 * <p>Thread safety: {@link #pin}, {@link #unpin}, {@link #registerFile}, {@link #unregisterFile},
 * {@link #snapshot} and {@link #resize} are safe from any thread. {@link #close} requires that no
 * other call is in progress.
 */
public final class BufferCache implements AutoCloseable {

    private final BufferCacheOptions options;
    private final int pageSize;
    private final int framesPerChunk;
    private final long pinWaitNanos;
    private final IoStatistics io;
    private final BufferCacheStatistics stats = new BufferCacheStatistics();
    private final SimulatedCache simulated;
    private final PageTable table;
    private final Map<Integer, RegisteredFile> files = new ConcurrentHashMap<>();
    private final AtomicInteger nextFileId = new AtomicInteger(1);
    private final AtomicInteger clockHand = new AtomicInteger();

    /** Serializes resizes and close. Guards {@link #chunks}. */
    private final ReentrantLock resizeLock = new ReentrantLock();
    private final List<OffHeapArena> chunks = new ArrayList<>();
    private volatile CachedPage[] slots = new CachedPage[0];
    private volatile boolean closed;

    /** A registered file; {@code queryReads} (nullable) counts its pages read from disk for queries. */
    private record RegisteredFile(StorageFile file, String name, LongAdder queryReads) {
    }

    public BufferCache(BufferCacheOptions options, IoStatistics io) {
        this.options = options;
        this.pageSize = options.pageSize();
        this.framesPerChunk = options.framesPerChunk();
        this.pinWaitNanos = options.pinWait().toNanos();
        this.io = io;
        this.simulated = new SimulatedCache(options.simulatedCacheBytes() / pageSize, options.ghostStripes());
        int initialChunks = chunksFor(options.capacityBytes());
        this.table = new PageTable(64, initialChunks * framesPerChunk);
        resizeLock.lock();
        try {
            addChunks(initialChunks);
        } finally {
            resizeLock.unlock();
        }
    }

    static long pageKey(int fileId, int pageNo) {
        return ((long) fileId << 32) | (pageNo & 0xFFFFFFFFL);
    }

    static int fileIdOf(long key) {
        return (int) (key >>> 32);
    }

    static int pageNoOf(long key) {
        return (int) key;
    }

    public int pageSize() {
        return pageSize;
    }

    /** Current capacity in bytes (whole chunks of frames). */
    public long capacityBytes() {
        return (long) slots.length * pageSize;
    }

    /** Current number of frames. */
    public int frameCount() {
        return slots.length;
    }

    /**
     * Registers an open file whose pages will be read through the cache and returns its id, unique
     * for the life of the cache.
     *
     * @param name names the file in error messages (usually its path)
     */
    public int registerFile(StorageFile file, String name) {
        return registerFile(file, name, null);
    }

    /**
     * As {@link #registerFile(StorageFile, String)}, and every page of this file read from disk for a
     * {@link IoPurpose#QUERY} miss also increments {@code queryReads}: the owner's share of the
     * cache's query misses (an LSM-tree counts its own, which the memory tuner needs per tree).
     *
     * @param queryReads the owner's counter, or null for none
     */
    public int registerFile(StorageFile file, String name, LongAdder queryReads) {
        checkOpen();
        int id = nextFileId.getAndIncrement();
        if (id <= 0) {
            throw new IllegalStateException("buffer cache ran out of file ids");
        }
        files.put(id, new RegisteredFile(file, name, queryReads));
        return id;
    }

    /**
     * Forgets a file: later misses on it fail, its unpinned frames are freed now and its page ids
     * leave the simulated cache (they would occupy no frame of a larger cache). Call before closing
     * or deleting the file. Pages still pinned stay valid until unpinned.
     */
    public void unregisterFile(int fileId) {
        if (files.remove(fileId) == null) {
            return;
        }
        simulated.forgetFile(fileId);
        for (CachedPage f : slots) {
            if (fileIdOf(f.key) == fileId && f.tryClaim()) {
                long key = f.key;
                if (fileIdOf(key) == fileId) {
                    table.remove(key, f.slot);
                    f.key = CachedPage.NO_PAGE;
                    f.state = CachedPage.EMPTY;
                    f.referenced = false;
                }
                f.releaseClaim(0);
            }
        }
    }

    /**
     * Pins page {@code pageNo} of file {@code fileId}, reading it from disk on a miss. The page stays
     * in memory and unchanged until {@link #unpin}.
     *
     * @throws IOException                  if the read fails or the page fails verification
     *                                      ({@link dev.breakwater.common.page.CorruptPageException})
     * @throws BufferCacheFullException     if every frame stays pinned for the configured wait
     * @throws IllegalArgumentException     if the file id is not registered
     */
    public CachedPage pin(int fileId, int pageNo, IoPurpose purpose) throws IOException {
        return pin(fileId, pageNo, purpose, null);
    }

    /**
     * As {@link #pin(int, int, IoPurpose)}, and if the page is read from disk (a miss) {@code onMiss}
     * is incremented too, besides the cache's and the file's own counters: a caller can count the misses
     * of one kind of access (an LSM-tree counts its point lookups' apart from its scans').
     *
     * @param onMiss incremented once per miss of this call; null for none
     */
    public CachedPage pin(int fileId, int pageNo, IoPurpose purpose, LongAdder onMiss) throws IOException {
        long key = pageKey(fileId, pageNo);
        for (int retry = 0; ; retry++) {
            int slot = table.lookup(key);
            if (slot == PageTable.ABSENT) {
                CachedPage loaded = load(key, fileId, pageNo, purpose, onMiss);
                if (loaded != null) {
                    return loaded;
                }
                continue; // another thread published the page first
            }
            CachedPage[] s = slots;
            CachedPage f = slot < s.length ? s[slot] : null;
            if (f != null && f.tryPin()) {
                if (f.key == key) {
                    int state = f.state;
                    if (state == CachedPage.LOADING) {
                        state = awaitLoad(f);
                    }
                    if (state == CachedPage.READY && f.key == key) {
                        if (!f.referenced) {
                            f.referenced = true;
                        }
                        stats.hits[purpose.ordinal()].increment();
                        return f;
                    }
                }
                f.unpin();
            }
            Backoff.pause(retry); // stale mapping: the evictor is about to remove it
        }
    }

    /**
     * Records {@code pages} pages of a registered file read without the cache (a merge's read-ahead,
     * which reads each input once from start to end in large reads): counted in the I/O statistics
     * under {@code purpose}, as a miss would be, but neither as a cache miss nor in the simulated
     * cache, since a larger cache would not have saved them.
     */
    public void recordUncachedRead(IoPurpose purpose, int pages) {
        io.recordRead(purpose, pages, (long) pages * pageSize);
    }

    /** Releases a pin taken by {@link #pin}. */
    public void unpin(CachedPage page) {
        page.unpin();
    }

    private static int awaitLoad(CachedPage f) {
        int state;
        for (int attempt = 0; (state = f.state) == CachedPage.LOADING; attempt++) {
            Backoff.pause(attempt);
        }
        return state;
    }

    /** The miss path. Returns the pinned, loaded frame, or null if another thread mapped the key first. */
    private CachedPage load(long key, int fileId, int pageNo, IoPurpose purpose, LongAdder onMiss) throws IOException {
        RegisteredFile file = files.get(fileId);
        if (file == null) {
            throw new IllegalArgumentException("file id " + fileId + " is not registered with the buffer cache"
                    + " (never registered, or unregistered because it was closed or deleted); page " + pageNo);
        }
        // Ask the ghost list before evicting anything, so this miss's own eviction cannot push the
        // page id out. (If another thread wins the race to load the page, the save is not counted.)
        boolean wouldBeSaved = simulated.consumeIfPresent(key);
        CachedPage f = claimVictim();
        f.key = key;
        f.state = CachedPage.LOADING;
        f.referenced = true;
        f.releaseClaim(1);
        if (table.putIfAbsent(key, f.slot) != PageTable.ABSENT) {
            f.state = CachedPage.EMPTY;
            f.key = CachedPage.NO_PAGE;
            f.referenced = false;
            f.unpin();
            return null;
        }
        try {
            ByteBuffer buf = f.buffer;
            buf.clear();
            file.file().read((long) pageNo * pageSize, buf);
            buf.clear();
            PageChecksum.verify(buf, pageSize, file.name(), pageNo);
        } catch (IOException | RuntimeException e) {
            // Leave no frame holding bad data: unmap first, then wake waiters with FAILED.
            table.remove(key, f.slot);
            f.state = CachedPage.FAILED;
            f.key = CachedPage.NO_PAGE;
            f.referenced = false;
            f.unpin();
            throw e;
        }
        stats.misses[purpose.ordinal()].increment();
        if (purpose == IoPurpose.QUERY && file.queryReads() != null) {
            file.queryReads().increment();
        }
        if (onMiss != null) {
            onMiss.increment();
        }
        io.recordRead(purpose, 1, pageSize);
        if (wouldBeSaved) {
            stats.saved[purpose.ordinal()].increment();
        }
        f.state = CachedPage.READY;
        return f;
    }

    /**
     * Runs the clock until it claims an unpinned frame: a frame whose reference bit is set gets a
     * second chance (the bit is cleared), empty frames are taken at once. The victim is unmapped and
     * its page id goes to the simulated cache. Waits with a bound when every frame is pinned.
     */
    private CachedPage claimVictim() {
        long deadline = 0;
        while (true) {
            checkOpen();
            CachedPage[] s = slots;
            int n = s.length;
            for (int step = 0; step < 2 * n + 1; step++) {
                CachedPage f = s[Math.floorMod(clockHand.getAndIncrement(), n)];
                if (f.retired || f.pins() != 0) {
                    continue;
                }
                if (f.referenced && f.key != CachedPage.NO_PAGE) {
                    f.referenced = false;
                    continue;
                }
                if (f.tryClaim()) {
                    if (f.retired) {
                        f.releaseClaim(0);
                        continue;
                    }
                    evictClaimed(f);
                    return f;
                }
            }
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + pinWaitNanos;
            } else if (now - deadline > 0) {
                stats.pinTimeouts.increment();
                throw new BufferCacheFullException("buffer cache full: all " + n + " frames of " + pageSize
                        + " B stayed pinned for " + options.pinWait().toMillis() + " ms; " + pinnedFrames()
                        + " pinned now. The cache is too small for its readers, or a pin leaked.");
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** Unmaps the page a claimed frame holds, remembering it in the simulated cache. */
    private void evictClaimed(CachedPage f) {
        long old = f.key;
        if (old != CachedPage.NO_PAGE) {
            table.remove(old, f.slot);
            if (f.state == CachedPage.READY) {
                simulated.recordEviction(old);
                stats.evictions.increment();
            }
        }
        f.key = CachedPage.NO_PAGE;
        f.state = CachedPage.EMPTY;
        f.referenced = false;
    }

    /**
     * Grows or shrinks the cache to {@code capacityBytes}, rounded down to whole chunks (at least one).
     * Growing takes effect at once. Shrinking evicts the frames of the newest chunks and frees their
     * memory; a frame pinned past the pin wait stops the shrink, which then reports the capacity
     * reached.
     */
    public ResizeResult resize(long capacityBytes) {
        resizeLock.lock();
        try {
            checkOpen();
            int target = chunksFor(capacityBytes);
            int current = chunks.size();
            if (target > current) {
                addChunks(target - current);
            } else {
                long deadline = System.nanoTime() + pinWaitNanos;
                while (chunks.size() > target && retireLastChunk(deadline)) {
                    // one chunk retired per iteration
                }
            }
            long expected = (long) target * framesPerChunk * pageSize;
            return new ResizeResult(capacityBytes, capacityBytes(), capacityBytes() == expected);
        } finally {
            resizeLock.unlock();
        }
    }

    private int chunksFor(long capacityBytes) {
        long chunk = (long) framesPerChunk * pageSize;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE / framesPerChunk, capacityBytes / chunk));
    }

    /** Requires: resizeLock held. */
    private void addChunks(int count) {
        CachedPage[] old = slots;
        CachedPage[] s = java.util.Arrays.copyOf(old, old.length + count * framesPerChunk);
        int slot = old.length;
        for (int c = 0; c < count; c++) {
            OffHeapArena arena = OffHeapArena.allocate("buffer cache chunk " + chunks.size(), pageSize, framesPerChunk);
            chunks.add(arena);
            for (int i = 0; i < framesPerChunk; i++, slot++) {
                s[slot] = new CachedPage(slot, arena, i);
            }
        }
        slots = s;
    }

    /**
     * Retires the newest chunk: marks its frames retired, claims each once unpinned, then removes
     * them from the slot array and frees the memory. Requires: resizeLock held.
     *
     * @return false if a frame stayed pinned past the deadline (the chunk is then kept as it was)
     */
    private boolean retireLastChunk(long deadline) {
        CachedPage[] s = slots;
        int from = s.length - framesPerChunk;
        for (int i = from; i < s.length; i++) {
            s[i].retired = true;
        }
        int claimed = from;
        while (claimed < s.length) {
            CachedPage f = s[claimed];
            if (f.tryClaim()) {
                evictClaimed(f);
                claimed++;
            } else if (System.nanoTime() - deadline > 0) {
                for (int i = from; i < claimed; i++) {
                    s[i].releaseClaim(0);
                }
                for (int i = from; i < s.length; i++) {
                    s[i].retired = false;
                }
                return false;
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
        slots = java.util.Arrays.copyOf(s, from);
        chunks.remove(chunks.size() - 1).close();
        return true;
    }

    private int pinnedFrames() {
        int n = 0;
        for (CachedPage f : slots) {
            if (f.pins() > 0) {
                n++;
            }
        }
        return n;
    }

    /** True if the page is in the cache and loaded. For tests and diagnostics. */
    boolean isCached(int fileId, int pageNo) {
        long key = pageKey(fileId, pageNo);
        int slot = table.lookup(key);
        CachedPage[] s = slots;
        return slot != PageTable.ABSENT && slot < s.length && s[slot].key == key && s[slot].state == CachedPage.READY;
    }

    /** A copy of the statistics. */
    public BufferCacheSnapshot snapshot() {
        CachedPage[] s = slots;
        return new BufferCacheSnapshot((long) s.length * pageSize, s.length, pinnedFrames(), simulated.capacityPages(),
                BufferCacheStatistics.sums(stats.hits), BufferCacheStatistics.sums(stats.misses),
                BufferCacheStatistics.sums(stats.saved), stats.evictions.sum(), stats.pinTimeouts.sum());
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("buffer cache is closed");
        }
    }

    /** Frees every frame. Idempotent. Requires: no pin or resize in progress. */
    @Override
    public void close() {
        resizeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            slots = new CachedPage[0];
            for (OffHeapArena a : chunks) {
                a.close();
            }
            chunks.clear();
            files.clear();
        } finally {
            resizeLock.unlock();
        }
    }
}
