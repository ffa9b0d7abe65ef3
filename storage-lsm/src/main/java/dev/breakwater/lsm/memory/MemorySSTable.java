package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.ENTRY_COUNT_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.ENTRY_HEADER_LENGTH;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.KEY_LENGTH_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.SEQ_OFFSET;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.TOMBSTONE;
import static dev.breakwater.lsm.memory.MemorySSTableDescriptor.VALUE_LENGTH_OFFSET;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.KeyHash;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * An immutable memory SSTable of a partitioned memory component (paper 000 §4.1, DESIGN.md §4): a
 * sorted run of entries (key, value or tombstone, sequence number), one version per key, packed into
 * compact sorted pages of the write-memory {@link PagePool} with a blocked Bloom filter in pool pages
 * too (layout: {@link MemorySSTableDescriptor}). Memory levels M1..Mk hold these, range-partitioned.
 *
 * <h2>Building</h2>
 * {@link #build} consumes a sorted cursor (typically a {@link dev.breakwater.lsm.cursor.MergingCursor}
 * over the inputs of a memory merge, or a sealed M0's flush cursor) until the table reaches about
 * {@code targetBytes}; calling it again on the same cursor yields the next, disjoint, table, so a
 * merge cuts its output into range-partitioned tables. {@link MemorySSTableBuilder} is the
 * entry-at-a-time form.
 *
 * <h2>Memory and lifetime</h2>
 * {@link #bytesUsed()} is exactly the pages held times the page size; the heap holds only the page
 * address arrays, the two boundary keys and the counters (O(pages), not O(entries)). A table starts
 * with one reference, its creator's. {@link #ref()} and {@link #unref()} count the holders (the tree's
 * versions, readers still using a table that was merged or flushed away); the pages go back to the
 * pool when the count reaches zero.
 *
 * <p>Lookups: key range check, then the Bloom filter, then a binary search over the pages (by the
 * first key of each page) and within the page (by its slots). Nothing is allocated once the caller's
 * {@link ValueHolder} is large enough; cursors allocate only their own scratch arrays.
 *
 * <p>Invariants: (1) keys are strictly increasing across the whole table; (2) nothing in the pages
 * changes after construction; (3) the pages are given back exactly once, when the reference count
 * first reaches zero, and no reference can be taken afterwards; (4) {@code smallestKey <= largestKey},
 * both keys of entries of the table; (5) {@code id} is unique among all memory SSTables of the
 * process.
 *
 * <p>Thread safety: immutable after build, so {@link #get}, {@link #cursor}, {@link #reverseCursor} and every accessor are
 * safe from any number of threads. {@link #ref()} and {@link #unref()} are atomic. Requires: a reader
 * holds a reference for as long as it reads (a cursor included); reading after the last
 * {@link #unref()} is a use-after-free (detected, best effort, with an {@link IllegalStateException}).
 */
public final class MemorySSTable {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final AtomicLong NEXT_ID = new AtomicLong(1);

    private final long id;
    private final PagePool pool;
    private final int pageSize;
    private final long[] dataPages;
    private final MemoryBloomFilter bloom;
    private final int entries;
    private final long payload;
    private final byte[] smallest;
    private final byte[] largest;
    private final long minSeq;
    private final long maxSeq;
    private final long minLogLsn;
    private final long maxLogLsn;
    private final AtomicInteger refs = new AtomicInteger(1);
    private volatile boolean released;

    MemorySSTable(PagePool pool, long[] dataPages, MemoryBloomFilter bloom, int entries, long payload, byte[] smallest,
                  byte[] largest, long minSeq, long maxSeq, long minLogLsn, long maxLogLsn) {
        this.id = NEXT_ID.getAndIncrement();
        this.pool = pool;
        this.pageSize = pool.pageSize();
        this.dataPages = dataPages;
        this.bloom = bloom;
        this.entries = entries;
        this.payload = payload;
        this.smallest = smallest;
        this.largest = largest;
        this.minSeq = minSeq;
        this.maxSeq = maxSeq;
        this.minLogLsn = minLogLsn;
        this.maxLogLsn = maxLogLsn;
    }

    /** What {@link #build} did. */
    public enum BuildStatus {
        /** A table was built; the source may have more entries. */
        BUILT,
        /** The source had no entry left: nothing was built and no page taken. */
        END_OF_SOURCE,
        /**
         * The pool ran out of pages: nothing was built and every page taken was given back, but the
         * source has been advanced past an unknown number of entries. The caller abandons this
         * attempt (giving back the tables already built from the same source) and retries later with
         * a fresh cursor.
         */
        POOL_EXHAUSTED
    }

    /** Outcome of {@link #build}: the table for {@link BuildStatus#BUILT}, else null. */
    public record BuildResult(BuildStatus status, MemorySSTable table) {
    }

    /**
     * Builds one table from {@code source}, which yields entries in strictly increasing key order,
     * one version per key: consumes entries until the table's {@link MemorySSTableBuilder#estimatedBytes()}
     * reaches {@code targetBytes} (so the table ends up within about one page plus one entry of it) or
     * the source ends. Never reads an entry it does not store, so successive calls cut one cursor into
     * disjoint tables covering every entry.
     *
     * @param targetBytes     size at which to cut; {@link Long#MAX_VALUE} takes the whole source
     * @param bloomBitsPerKey Bloom filter bits per key (10: about 1% false positives; 0: no filter)
     * @param minLogLsn       smallest log LSN the entries come from (stored as given, for log truncation)
     * @param maxLogLsn       largest log LSN the entries come from (stored as given)
     * @throws IllegalArgumentException if keys are not strictly increasing or a record does not fit a
     *         page (no page is leaked)
     */
    public static BuildResult build(PagePool pool, EntryCursor source, long targetBytes, double bloomBitsPerKey,
                                    long minLogLsn, long maxLogLsn) throws IOException {
        MemorySSTableBuilder builder = new MemorySSTableBuilder(pool, bloomBitsPerKey);
        try {
            while (builder.estimatedBytes() < targetBytes && source.next()) {
                if (!builder.add(source.key(), source.keyLength(), source.value(), source.valueLength(), source.isTombstone(),
                        source.lsn())) {
                    return new BuildResult(BuildStatus.POOL_EXHAUSTED, null);
                }
            }
            return finishBuild(builder, minLogLsn, maxLogLsn);
        } catch (RuntimeException | IOException e) {
            builder.abandon();
            throw e;
        }
    }

    /**
     * As {@link #build(PagePool, EntryCursor, long, double, long, long)}, from records read in place:
     * each record is copied once, from its source pages straight into the new table's (the path of
     * seals and memory merges). The table's minimum log LSN is the smallest
     * {@link RecordCursor#logLsnFloor()} of the records it takes when the source knows them all
     * (never below {@code minLogLsn}), else {@code minLogLsn}.
     */
    public static BuildResult build(PagePool pool, RecordCursor source, long targetBytes, double bloomBitsPerKey,
                                    long minLogLsn, long maxLogLsn) {
        MemorySSTableBuilder builder = new MemorySSTableBuilder(pool, bloomBitsPerKey);
        try {
            long floor = Long.MAX_VALUE;
            boolean floorKnown = true;
            while (builder.estimatedBytes() < targetBytes && source.next()) {
                if (!builder.add(source)) {
                    return new BuildResult(BuildStatus.POOL_EXHAUSTED, null);
                }
                long f = source.logLsnFloor();
                floorKnown &= f != RecordCursor.UNKNOWN_LOG_LSN;
                floor = Math.min(floor, f);
            }
            // Every record says from which table's log range it came: the table's minimum log LSN is
            // the smallest of those (never below the inputs' minimum), not the minimum of all inputs.
            return finishBuild(builder, floorKnown ? Math.max(minLogLsn, floor) : minLogLsn, maxLogLsn);
        } catch (RuntimeException e) {
            builder.abandon();
            throw e;
        }
    }

    /** The end of a build: nothing added (the source ended), the finished table, or a pool that ran dry. */
    private static BuildResult finishBuild(MemorySSTableBuilder builder, long minLogLsn, long maxLogLsn) {
        if (builder.entryCount() == 0) {
            builder.abandon();
            return new BuildResult(BuildStatus.END_OF_SOURCE, null);
        }
        MemorySSTable table = builder.finish(minLogLsn, maxLogLsn);
        return table == null ? new BuildResult(BuildStatus.POOL_EXHAUSTED, null) : new BuildResult(BuildStatus.BUILT, table);
    }

    /** A heap copy of the {@code length} key bytes at {@code address} (a key a {@link RecordCursor} returned). */
    public static byte[] copyKey(long address, int length) {
        byte[] k = new byte[length];
        OffHeapKeys.copyOut(address, k, length);
        return k;
    }

    /**
     * Records of {@code run}, disjoint tables in key order, read in place. Requires: the caller holds
     * a reference to every table until it no longer uses what the cursor returned.
     */
    public static RecordCursor records(List<MemorySSTable> run) {
        return new TableRecordCursor(run);
    }

    /**
     * Looks up {@code key[0..keyLen)}: {@link LookupResult#FOUND} with the value (and the entry's
     * sequence number as its LSN) copied into {@code out}; {@link LookupResult#DELETED} if the entry is
     * a tombstone ({@code out} then holds an empty value and the sequence number);
     * {@link LookupResult#ABSENT} if the table has no entry for the key. Allocates nothing once
     * {@code out} is large enough.
     */
    public LookupResult get(byte[] key, int keyLen, ValueHolder out) {
        checkLive();
        if (Arrays.compareUnsigned(key, 0, keyLen, smallest, 0, smallest.length) < 0
                || Arrays.compareUnsigned(key, 0, keyLen, largest, 0, largest.length) > 0) {
            return LookupResult.ABSENT;
        }
        if (!bloom.mayContain(KeyHash.hash(key, 0, keyLen))) {
            return LookupResult.ABSENT;
        }
        int page = pageOf(key, keyLen);
        long p = dataPages[page];
        int slot = lowerBound(p, key, keyLen);
        if (slot == entryCount(p)) {
            return LookupResult.ABSENT;
        }
        long entry = entry(p, slot);
        if (OffHeapKeys.compare(keyAddress(entry), keyLength(entry), key, keyLen) != 0) {
            return LookupResult.ABSENT;
        }
        long seq = seq(entry);
        int valueLength = MEMORY.readInt(entry + VALUE_LENGTH_OFFSET);
        if (valueLength == TOMBSTONE) {
            out.prepare(0, seq);
            return LookupResult.DELETED;
        }
        OffHeapKeys.copyOut(keyAddress(entry) + keyLength(entry), out.prepare(valueLength, seq), valueLength);
        return LookupResult.FOUND;
    }

    /** True unless the Bloom filter rules {@code key} out (no search of the pages). */
    public boolean mayContain(byte[] key, int keyLen) {
        checkLive();
        return bloom.mayContain(KeyHash.hash(key, 0, keyLen));
    }

    /**
     * A cursor over the entries with keys at or after {@code fromInclusive[0..fromLen)} (from the
     * first entry if null), tombstones included, each reporting its sequence number as
     * {@link EntryCursor#lsn()}. Requires: the caller holds a reference until it closes the cursor.
     */
    public EntryCursor cursor(byte[] fromInclusive, int fromLen) {
        checkLive();
        if (fromInclusive == null) {
            return new MemorySSTableCursor(this, 0, 0, false);
        }
        int page = pageOf(fromInclusive, fromLen);
        int slot = lowerBound(dataPages[page], fromInclusive, fromLen);
        return new MemorySSTableCursor(this, page, slot, false);
    }

    /**
     * A cursor over the entries with keys strictly below {@code toExclusive[0..toLen)} (every entry
     * if null) in descending key order, tombstones included, each reporting its sequence number as
     * {@link EntryCursor#lsn()}. Requires: the caller holds a reference until it closes the cursor.
     */
    public EntryCursor reverseCursor(byte[] toExclusive, int toLen) {
        checkLive();
        int last = dataPages.length - 1;
        if (last < 0) {
            return new MemorySSTableCursor(this, -1, 0, true);
        }
        if (toExclusive == null) {
            return new MemorySSTableCursor(this, last, entryCount(dataPages[last]), true);
        }
        int page = pageOf(toExclusive, toLen);
        int slot = lowerBound(dataPages[page], toExclusive, toLen);
        return new MemorySSTableCursor(this, page, slot, true);
    }

    /** Takes a reference. @throws IllegalStateException if the table was already released */
    public void ref() {
        while (true) {
            int n = refs.get();
            if (n <= 0) {
                throw new IllegalStateException("memory SSTable #" + id + " was already released");
            }
            if (refs.compareAndSet(n, n + 1)) {
                return;
            }
        }
    }

    /**
     * Drops a reference; the last one gives every page back to the pool.
     *
     * @return true if this call released the table
     * @throws IllegalStateException if the table had no reference left
     */
    public boolean unref() {
        int n = refs.decrementAndGet();
        if (n > 0) {
            return false;
        }
        if (n < 0) {
            throw new IllegalStateException("memory SSTable #" + id + " unreferenced more often than referenced");
        }
        released = true;
        for (int i = 0; i < dataPages.length; i++) {
            pool.freePage(dataPages[i]);
            dataPages[i] = PagePool.NO_PAGE;
        }
        bloom.free(pool);
        return true;
    }

    /** References held; 0 once released. */
    public int refCount() {
        return Math.max(0, refs.get());
    }

    public boolean isReleased() {
        return released;
    }

    /** Unique among the memory SSTables of this process; increasing in order of creation. */
    public long id() {
        return id;
    }

    /** A copy of the first key. */
    public byte[] smallestKey() {
        return smallest.clone();
    }

    /** A copy of the last key. */
    public byte[] largestKey() {
        return largest.clone();
    }

    public int entryCount() {
        return entries;
    }

    /** {@code Arrays.compareUnsigned(smallestKey(), key)} without copying the first key. */
    public int compareSmallestTo(byte[] key, int keyLen) {
        return Arrays.compareUnsigned(smallest, 0, smallest.length, key, 0, keyLen);
    }

    /** {@code Arrays.compareUnsigned(largestKey(), key)} without copying the last key. */
    public int compareLargestTo(byte[] key, int keyLen) {
        return Arrays.compareUnsigned(largest, 0, largest.length, key, 0, keyLen);
    }

    /** Exactly what the table draws on the pool: data and Bloom pages times the page size; 0 once released. */
    public long bytesUsed() {
        return released ? 0 : (long) (dataPages.length + bloom.pageCount()) * pageSize;
    }

    /** Key and value bytes of the entries (no headers, slots, filter or page waste). */
    public long payloadBytes() {
        return payload;
    }

    public int dataPageCount() {
        return dataPages.length;
    }

    public int bloomPageCount() {
        return bloom.pageCount();
    }

    public long minSeq() {
        return minSeq;
    }

    public long maxSeq() {
        return maxSeq;
    }

    /** As given to the builder: the smallest log LSN the log must keep for this table. */
    public long minLogLsn() {
        return minLogLsn;
    }

    public long maxLogLsn() {
        return maxLogLsn;
    }

    /** This table's description for {@link MemoryMergePicker} and {@link FlushPicker}. */
    public MemorySSTableMeta meta() {
        return new MemorySSTableMeta(id, bytesUsed(), smallest, largest, minLogLsn, maxLogLsn);
    }

    @Override
    public String toString() {
        return "MemorySSTable#" + id + "[" + entries + " entries, " + bytesUsed() + " B, refs " + refCount() + "]";
    }

    // ---------------------------------------------------------------- page access (also for the cursor)

    int pageCount() {
        return dataPages.length;
    }

    long page(int index) {
        return dataPages[index];
    }

    void checkLive() {
        if (released) {
            throw new IllegalStateException("memory SSTable #" + id + " was released");
        }
    }

    static int entryCount(long page) {
        return MEMORY.readInt(page + ENTRY_COUNT_OFFSET);
    }

    static long entry(long page, int slot) {
        return page + MEMORY.readInt(page + MemorySSTableDescriptor.slotOffset(slot));
    }

    static long seq(long entry) {
        return MEMORY.readLong(entry + SEQ_OFFSET);
    }

    static int keyLength(long entry) {
        return MEMORY.readInt(entry + KEY_LENGTH_OFFSET);
    }

    static long keyAddress(long entry) {
        return entry + ENTRY_HEADER_LENGTH;
    }

    /** The value length of the entry, {@link MemorySSTableDescriptor#TOMBSTONE} for a tombstone. */
    static int rawValueLength(long entry) {
        return MEMORY.readInt(entry + VALUE_LENGTH_OFFSET);
    }

    /** The last page whose first key is at or before {@code key}; page 0 if none is. */
    private int pageOf(byte[] key, int keyLen) {
        int lo = 0;
        int hi = dataPages.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            long first = entry(dataPages[mid], 0);
            if (OffHeapKeys.compare(keyAddress(first), keyLength(first), key, keyLen) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The first slot of {@code page} whose key is at or after {@code key}; the entry count if none. */
    private static int lowerBound(long page, byte[] key, int keyLen) {
        int lo = 0;
        int hi = entryCount(page);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long e = entry(page, mid);
            if (OffHeapKeys.compare(keyAddress(e), keyLength(e), key, keyLen) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
