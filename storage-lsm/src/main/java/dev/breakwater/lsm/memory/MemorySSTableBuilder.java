package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.DATA_START_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.ENTRY_COUNT_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.ENTRY_HEADER_LENGTH;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.KEY_LENGTH_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.SEQ_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.SLOT_LENGTH;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.TOMBSTONE;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.VALUE_LENGTH_OFFSET;

import dev.breakwater.lsm.sstable.KeyHash;
import java.util.Arrays;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * Writes a {@link MemorySSTable} from entries given in strictly increasing key order: fills slotted
 * data pages drawn from a {@link PagePool} one at a time ({@link MemorySSTableDescriptor}), collects
 * each key's hash, and at {@link #finish} lays out the Bloom filter and hands every page to the new
 * table. LevelDB's {@code TableBuilder}, in memory.
 *
 * <p>Lifecycle: {@link #add} any number of times, then exactly one of {@link #finish} or
 * {@link #abandon}. If {@link #add} returns false (pool exhausted) the builder has already given back
 * every page and must not be used again except for {@link #abandon} (a no-op then).
 *
 * <p>Memory: the pages, counted by the pool; on the heap, 8 bytes per key for the hashes until
 * {@link #finish}, and a copy of the first key.
 *
 * <p>Invariants: (1) {@code pages[0..pageCount)} are exactly the pages drawn and not given back;
 * (2) every data page holds at least one entry (a page is drawn only for an entry that goes into it);
 * (3) keys added are strictly increasing, across pages too.
 *
 * <p>Thread safety: none; one thread.
 */
public final class MemorySSTableBuilder {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;

    private final PagePool pool;
    private final int pageSize;
    private final int maxRecordLength;
    private final double bloomBitsPerKey;

    private long[] pages = new long[8];
    private int pageCount;
    /** The page being filled, {@link PagePool#NO_PAGE} before the first entry. */
    private long page = PagePool.NO_PAGE;
    private int pageEntries;
    private int dataStart;

    private long[] hashes = new long[256];
    private int entries;
    private long payload;
    private long minSeq = Long.MAX_VALUE;
    private long maxSeq = Long.MIN_VALUE;
    private byte[] smallest;
    /** Address of the last entry added, 0 if none. */
    private long lastEntry;
    private boolean done;

    /**
     * @param bloomBitsPerKey Bloom filter bits per key in [0, 64]; 10 gives about 1% false positives,
     *                        0 builds no filter
     */
    public MemorySSTableBuilder(PagePool pool, double bloomBitsPerKey) {
        if (!(bloomBitsPerKey >= 0) || bloomBitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom filter bits per key must be in [0, 64], got " + bloomBitsPerKey);
        }
        this.pool = pool;
        this.pageSize = pool.pageSize();
        this.maxRecordLength = MemorySSTableDescriptor.maxRecordLength(pageSize);
        this.bloomBitsPerKey = bloomBitsPerKey;
    }

    /** The largest {@code keyLength + valueLength} an entry may have with this pool's page size. */
    public int maxRecordLength() {
        return maxRecordLength;
    }

    /**
     * Appends an entry. The value of a tombstone is ignored and stored as none.
     *
     * @return true if added; false if the pool had no page for it, in which case the builder has
     *         given back all its pages and is finished
     * @throws IllegalArgumentException if the key is not greater than the previous one, or the record
     *         exceeds {@link #maxRecordLength()} (the builder stays usable)
     */
    public boolean add(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long seq) {
        ensureOpen();
        int valueLength = tombstone ? 0 : valueLen;
        checkRecordLength(keyLen, valueLength);
        if (lastEntry != 0 && OffHeapKeys.compare(keyAddress(lastEntry), keyLength(lastEntry), key, keyLen) >= 0) {
            throw new IllegalArgumentException("keys must be strictly increasing: " + Arrays.toString(Arrays.copyOf(key, keyLen))
                    + " does not follow the previous key");
        }
        long entry = beginEntry(keyLen, valueLength, tombstone, seq);
        if (entry == 0) {
            return false;
        }
        OffHeapKeys.copyIn(key, keyLen, entry + ENTRY_HEADER_LENGTH);
        OffHeapKeys.copyIn(value, valueLength, entry + ENTRY_HEADER_LENGTH + keyLen);
        finishEntry(entry, keyLen, valueLength, seq);
        return true;
    }

    /**
     * Appends the current record of {@code r}, copied straight from its pages (key and value in one
     * copy when they are adjacent, as in skip-list nodes and memory SSTable entries); otherwise as
     * {@link #add(byte[], int, byte[], int, boolean, long)}.
     */
    public boolean add(RecordCursor r) {
        ensureOpen();
        int keyLen = r.keyLength();
        long keyAddr = r.keyAddress();
        boolean tombstone = r.isTombstone();
        int valueLength = tombstone ? 0 : r.valueLength();
        checkRecordLength(keyLen, valueLength);
        if (lastEntry != 0 && OffHeapKeys.compare(keyAddress(lastEntry), keyLength(lastEntry), keyAddr, keyLen) >= 0) {
            throw new IllegalArgumentException("keys must be strictly increasing: a record of " + keyLen
                    + " key bytes does not follow the previous key");
        }
        long seq = r.seq();
        long entry = beginEntry(keyLen, valueLength, tombstone, seq);
        if (entry == 0) {
            return false;
        }
        long valueAddr = r.valueAddress();
        if (valueLength == 0 || valueAddr == keyAddr + keyLen) {
            OffHeapKeys.copy(keyAddr, entry + ENTRY_HEADER_LENGTH, keyLen + valueLength);
        } else {
            OffHeapKeys.copy(keyAddr, entry + ENTRY_HEADER_LENGTH, keyLen);
            OffHeapKeys.copy(valueAddr, entry + ENTRY_HEADER_LENGTH + keyLen, valueLength);
        }
        finishEntry(entry, keyLen, valueLength, seq);
        return true;
    }

    private void checkRecordLength(int keyLen, int valueLength) {
        if ((long) keyLen + valueLength > maxRecordLength) {
            throw new IllegalArgumentException("record of " + ((long) keyLen + valueLength) + " bytes exceeds the limit of "
                    + maxRecordLength + " bytes for memory SSTable pages of " + pageSize + " bytes");
        }
    }

    /**
     * Reserves the entry on the current page (or a new one) and writes its header; the caller copies
     * key and value in, then calls {@link #finishEntry}. Returns 0 if the pool had no page: the builder
     * has then given back its pages and is finished.
     */
    private long beginEntry(int keyLen, int valueLength, boolean tombstone, long seq) {
        int length = MemorySSTableDescriptor.entryLength(keyLen, valueLength);
        if (page == PagePool.NO_PAGE || freeBytes() < length + SLOT_LENGTH) {
            if (!nextPage()) {
                abandon();
                return 0;
            }
        }
        dataStart -= length;
        long entry = page + dataStart;
        MEMORY.writeLong(entry + SEQ_OFFSET, seq);
        MEMORY.writeInt(entry + KEY_LENGTH_OFFSET, keyLen);
        MEMORY.writeInt(entry + VALUE_LENGTH_OFFSET, tombstone ? TOMBSTONE : valueLength);
        return entry;
    }

    /** Publishes the entry in its page's slots and records its key hash, the first key and the counts. */
    private void finishEntry(long entry, int keyLen, int valueLength, long seq) {
        MEMORY.writeInt(page + MemorySSTableDescriptor.slotOffset(pageEntries), dataStart);
        pageEntries++;
        MEMORY.writeInt(page + ENTRY_COUNT_OFFSET, pageEntries);
        MEMORY.writeInt(page + DATA_START_OFFSET, dataStart);

        long keyAddr = entry + ENTRY_HEADER_LENGTH;
        if (entries == hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[entries++] = KeyHash.hash(keyAddr, keyLen);
        if (smallest == null) {
            smallest = new byte[keyLen];
            OffHeapKeys.copyOut(keyAddr, smallest, keyLen);
        }
        payload += keyLen + valueLength;
        minSeq = Math.min(minSeq, seq);
        maxSeq = Math.max(maxSeq, seq);
        lastEntry = entry;
    }

    /** Entries added so far. */
    public int entryCount() {
        return entries;
    }

    /**
     * What the table would take if finished now: the data pages counted up to the bytes used in the
     * last one, plus the Bloom filter's blocks (before rounding to pages). What a caller cutting a
     * stream into tables of a target size compares with the target.
     */
    public long estimatedBytes() {
        long data = pageCount == 0 ? 0 : (long) (pageCount - 1) * pageSize + (pageSize - freeBytes());
        return data + (long) MemoryBloomFilter.blockCount(entries, bloomBitsPerKey) * MemorySSTableDescriptor.BLOOM_BLOCK_BYTES;
    }

    /**
     * Lays out the Bloom filter and returns the table, which owns every page and starts with one
     * reference (the caller's). Returns null if the pool had no pages for the filter, having given
     * back every page.
     *
     * @param minLogLsn smallest log LSN of the writes the entries come from, stored as given
     * @param maxLogLsn largest such log LSN, stored as given
     * @throws IllegalStateException if no entry was added
     */
    public MemorySSTable finish(long minLogLsn, long maxLogLsn) {
        ensureOpen();
        if (entries == 0) {
            throw new IllegalStateException("a memory SSTable needs at least one entry");
        }
        MemoryBloomFilter bloom = MemoryBloomFilter.build(pool, hashes, entries, bloomBitsPerKey);
        if (bloom == null) {
            abandon();
            return null;
        }
        done = true;
        byte[] largest = new byte[keyLength(lastEntry)];
        OffHeapKeys.copyOut(keyAddress(lastEntry), largest, largest.length);
        MemorySSTable table = new MemorySSTable(pool, Arrays.copyOf(pages, pageCount), bloom, entries, payload,
                smallest, largest, minSeq, maxSeq, minLogLsn, maxLogLsn);
        pages = null;
        hashes = null;
        return table;
    }

    /** Gives back every page drawn so far. Idempotent; the builder is finished afterwards. */
    public void abandon() {
        if (pages != null) {
            for (int i = 0; i < pageCount; i++) {
                pool.freePage(pages[i]);
            }
        }
        pages = null;
        hashes = null;
        pageCount = 0;
        page = PagePool.NO_PAGE;
        done = true;
    }

    private boolean nextPage() {
        long next = pool.tryAllocatePage();
        if (next == PagePool.NO_PAGE) {
            return false;
        }
        if (pageCount == pages.length) {
            pages = Arrays.copyOf(pages, pageCount * 2);
        }
        pages[pageCount++] = next;
        page = next;
        pageEntries = 0;
        dataStart = pageSize;
        return true;
    }

    /** Bytes between the slot array (with room for no further slot) and the entries of the current page. */
    private int freeBytes() {
        return dataStart - MemorySSTableDescriptor.slotOffset(pageEntries);
    }

    private static long keyAddress(long entry) {
        return entry + ENTRY_HEADER_LENGTH;
    }

    private static int keyLength(long entry) {
        return MEMORY.readInt(entry + KEY_LENGTH_OFFSET);
    }

    private void ensureOpen() {
        if (done) {
            throw new IllegalStateException("memory SSTable builder is finished or abandoned");
        }
    }
}
