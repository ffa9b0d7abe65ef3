package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.util.Arrays;
import java.util.concurrent.locks.StampedLock;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The {@code VECTOR} memory component (paper 001): records appended in arrival order, with an index of
 * 8-byte record addresses that is sorted in place the first time it is read after a write (a point
 * lookup, a scan, or the flush that seals it). Inserts are the cheapest of all kinds (a bump
 * allocation, a copy and one slot); a read that follows writes pays an O(n log n) sort of the whole
 * index, which is why interleaving point queries with inserts is expensive (paper 001 Fig. 1a).
 *
 * <h2>Layout</h2>
 * A record is a node of height 0 in the layout of {@link SkipListNodeDescriptor} (no next pointers),
 * whose otherwise unused bytes {@code [12, 16)} hold its append ordinal, so that two versions with the
 * same key and LSN keep the skip-list's rule (the later one sorts first and wins). The index is a list
 * of whole pages ("chunks") of {@code 2^k} slots each, drawn from the pool one at a time as it grows,
 * or, for the pre-sized variant ({@code reserveEntries > 0}), enough chunks for that many entries at
 * the first write. Index chunks and the unused tails of record pages are all held pages, so
 * {@link #bytesUsed()} includes the index and its slack exactly. Growing never copies: a full chunk
 * stays where it is and a new one is appended (so, unlike a C++ {@code std::vector}, growth causes
 * no copy spikes; the pre-sized variant only saves the per-chunk page draws).
 *
 * <h2>Concurrency</h2>
 * One {@link StampedLock} per component (never a global lock). A put holds the write lock while it
 * claims a slot, copies the record in and publishes it; writers therefore serialize on the component.
 * A read takes the read lock; if unsorted entries exist it upgrades to the write lock, sorts (in
 * place: introsort, or one binary-search insertion per entry when at most 8 are unsorted; a tail
 * already in order costs one pass and moves nothing), and continues under
 * the read lock. Cursors do not hold the lock between entries: each {@code next()} takes the read
 * lock, and if a sort has moved entries since (the sort generation changed) the cursor re-seeks by
 * binary search to the first key after the one it last returned. Everything a cursor at snapshot
 * {@code S} must see was written before it was opened, hence lies in the sorted region when it opens,
 * and stays there.
 *
 * <p>Invariants: (1) slots {@code [0, sortedCount)} are in entry order (key ascending, LSN
 * descending, ordinal descending) and {@code sortedCount <= count}; (2) every slot below
 * {@code count} holds the address of a fully written record; records never move or change; (3)
 * {@code sortGeneration} changes whenever a sort moves a slot below {@code sortedCount}.
 *
 * <p>Thread safety: as {@link MemoryComponent} states; a cursor is used by one thread.
 */
public final class VectorMemoryComponent extends PagedMemoryComponent {

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    /** The append ordinal of a record: the node header's unused bytes. */
    private static final int ORDINAL_OFFSET = 12;
    private static final int INSERTION_SORT_MAX = 16;
    /** Up to this many unsorted entries are inserted one by one (binary search and shift, O(n) each) instead of sorting all. */
    private static final int SMALL_TAIL = 8;

    private final StampedLock lock = new StampedLock();
    private final int reserveEntries;
    private final int slotShift;
    private final int slotMask;
    /** Index chunk addresses. Guarded by lock. */
    private long[] chunks = new long[8];
    /** Guarded by lock. */
    private int chunkCount;
    /** Entries appended. Guarded by lock. */
    private int count;
    /** Length of the sorted prefix of the index. Guarded by lock. */
    private int sortedCount;
    /** Bumped by every sort that moves slots. Guarded by lock. */
    private long sortGeneration;
    private volatile boolean nonEmpty;

    /**
     * @param reserveEntries index slots to draw at the first write (the pre-sized vector); 0 grows
     *                       the index one page at a time
     */
    public VectorMemoryComponent(PagePool pool, int reserveEntries) {
        super(pool);
        if (reserveEntries < 0) {
            throw new IllegalArgumentException("reserveEntries must be >= 0, got " + reserveEntries);
        }
        this.reserveEntries = reserveEntries;
        int slots = Integer.highestOneBit(pool.pageSize() / 8);
        this.slotShift = Integer.numberOfTrailingZeros(slots);
        this.slotMask = slots - 1;
    }

    @Override
    public boolean put(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long lsn) {
        int valueLength = tombstone ? 0 : valueLen;
        checkRecord(key, keyLen, value, valueLength, lsn);
        int length = SkipListNodeDescriptor.nodeLength(0, keyLen, valueLength);
        long stamp = lock.writeLock();
        try {
            int ordinal = count;
            if (!ensureSlotLocked(ordinal)) {
                return false;
            }
            long record = memory.allocate(length);
            if (record == ComponentMemory.NO_MEMORY) {
                return false;
            }
            SkipListNodes.init(record, 0, tombstone, key, keyLen, value, valueLength, lsn);
            MEMORY.writeInt(record + ORDINAL_OFFSET, ordinal);
            widenLsnRange(lsn);
            MEMORY.writeLong(slotAddress(ordinal), record);
            count = ordinal + 1;
        } finally {
            lock.unlockWrite(stamp);
        }
        nonEmpty = true;
        counted(keyLen + valueLength);
        return true;
    }

    @Override
    public LookupResult get(byte[] key, int keyLen, long snapshotLsn, ValueHolder out) {
        long stamp = sortedReadLock();
        try {
            int i = lowerBound(key, keyLen, snapshotLsn);
            if (i == sortedCount) {
                return LookupResult.ABSENT;
            }
            long record = slot(i);
            if (SkipListNodes.compareKey(record, key, keyLen) != 0) {
                return LookupResult.ABSENT;
            }
            long lsn = SkipListNodes.lsn(record);
            if (SkipListNodes.isTombstone(record)) {
                out.prepare(0, lsn);
                return LookupResult.DELETED;
            }
            int length = SkipListNodes.valueLength(record);
            OffHeapKeys.copyOut(SkipListNodes.valueAddress(record), out.prepare(length, lsn), length);
            return LookupResult.FOUND;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public EntryCursor cursor(byte[] fromInclusive, int fromLen, long snapshotLsn) {
        byte[] from = fromInclusive == null ? null : Arrays.copyOf(fromInclusive, fromLen);
        long stamp = sortedReadLock();
        try {
            return new VectorCursor(from, snapshotLsn);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** Sorts the index if needed, then walks it in place: the component is sealed, so nothing moves afterwards. */
    @Override
    public RecordCursor sealedRecords() {
        long stamp = sortedReadLock();
        int n;
        try {
            n = sortedCount;
        } finally {
            lock.unlockRead(stamp);
        }
        return new IndexRecordCursor(n);
    }

    /**
     * Each step takes the read lock and binary-searches the sorted index twice (see
     * {@link ReverseNodeCursor}), so a sort between steps needs no re-seek: records never move, only
     * their slots do, and the cursor keeps no slot.
     */
    @Override
    public EntryCursor reverseCursor(byte[] toExclusive, int toLen, long snapshotLsn) {
        long stamp = sortedReadLock(); // everything visible at the snapshot is in the sorted region from here on
        lock.unlockRead(stamp);
        return new ReverseNodeCursor(toExclusive, toLen, snapshotLsn) {
            @Override
            public boolean next() {
                long s = lock.readLock();
                try {
                    return super.next();
                } finally {
                    lock.unlockRead(s);
                }
            }

            @Override
            long lastBelow(byte[] key, int keyLength) {
                int i = key == null ? sortedCount : lowerBound(key, keyLength, Long.MAX_VALUE);
                return i == 0 ? SkipListNodeDescriptor.NIL : slot(i - 1);
            }

            @Override
            long seek(byte[] key, int keyLength, long lsn) {
                int i = lowerBound(key, keyLength, lsn);
                return i == sortedCount ? SkipListNodeDescriptor.NIL : slot(i);
            }
        };
    }

    /** Slot 0 of the sorted index (sorting first if needed, as {@link #sealedRecords()} does). */
    @Override
    public byte[] firstKey() {
        long stamp = sortedReadLock();
        try {
            return sortedCount == 0 ? null : SkipListNodes.copyKey(slot(0));
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** The last slot of the sorted index (sorting first if needed). */
    @Override
    public byte[] lastKey() {
        long stamp = sortedReadLock();
        try {
            return sortedCount == 0 ? null : SkipListNodes.copyKey(slot(sortedCount - 1));
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public boolean isEmpty() {
        return !nonEmpty;
    }

    /** Index pages held (a test and benchmark hook). */
    int indexPages() {
        long stamp = lock.readLock();
        try {
            return chunkCount;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    // ---------------------------------------------------------------- index

    /** Makes sure slot {@code i} exists, drawing index pages; false if the pool has none left. */
    private boolean ensureSlotLocked(int i) {
        int chunk = i >>> slotShift;
        if (chunk < chunkCount) {
            return true;
        }
        int want = chunkCount == 0 && reserveEntries > 0 ? Math.max(1, (reserveEntries + slotMask) >>> slotShift) : chunk + 1;
        while (chunkCount < want) {
            long page = memory.allocatePage();
            if (page == ComponentMemory.NO_MEMORY) {
                return chunk < chunkCount;
            }
            if (chunkCount == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunks.length * 2);
            }
            chunks[chunkCount++] = page;
        }
        return true;
    }

    private long slotAddress(int i) {
        return chunks[i >>> slotShift] + ((long) (i & slotMask) << 3);
    }

    private long slot(int i) {
        return MEMORY.readLong(slotAddress(i));
    }

    private void setSlot(int i, long record) {
        MEMORY.writeLong(slotAddress(i), record);
    }

    /** Takes the read lock with every entry sorted, sorting first if needed; returns the read stamp. */
    private long sortedReadLock() {
        long stamp = lock.readLock();
        if (sortedCount == count) {
            return stamp;
        }
        lock.unlockRead(stamp);
        stamp = lock.writeLock();
        sortLocked();
        return lock.tryConvertToReadLock(stamp);
    }

    /** Sorts the whole index unless its unsorted tail already continues the sorted prefix in order. */
    private void sortLocked() {
        int n = count;
        int i = Math.max(1, sortedCount);
        while (i < n && compareRecords(slot(i - 1), slot(i)) <= 0) {
            i++;
        }
        if (i < n) {
            if (n - sortedCount <= SMALL_TAIL) {
                insertTail(n);
            } else {
                introSort(0, n - 1, 2 * (32 - Integer.numberOfLeadingZeros(n)));
            }
            sortGeneration++;
        }
        sortedCount = n;
    }

    /** Inserts each of slots {@code [sortedCount, n)} into the sorted prefix before it. */
    private void insertTail(int n) {
        for (int t = sortedCount; t < n; t++) {
            long x = slot(t);
            int lo = 0;
            int hi = t;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (compareRecords(slot(mid), x) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            for (int j = t; j > lo; j--) {
                setSlot(j, slot(j - 1));
            }
            setSlot(lo, x);
        }
    }

    /** Entry order of two records: key ascending, then LSN descending, then append ordinal descending. */
    private static int compareRecords(long a, long b) {
        int c = OffHeapKeys.compare(SkipListNodes.keyAddress(a), SkipListNodes.keyLength(a),
                SkipListNodes.keyAddress(b), SkipListNodes.keyLength(b));
        if (c != 0) {
            return c;
        }
        c = Long.compare(SkipListNodes.lsn(b), SkipListNodes.lsn(a));
        return c != 0 ? c : Integer.compare(MEMORY.readInt(b + ORDINAL_OFFSET), MEMORY.readInt(a + ORDINAL_OFFSET));
    }

    /** Quicksort of slots {@code [lo, hi]} with median-of-three pivots, heapsort past {@code depth}, insertion sort below 16. */
    private void introSort(int lo, int hi, int depth) {
        while (hi - lo > INSERTION_SORT_MAX) {
            if (depth-- == 0) {
                heapSort(lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            if (compareRecords(slot(mid), slot(lo)) < 0) {
                swap(mid, lo);
            }
            if (compareRecords(slot(hi), slot(lo)) < 0) {
                swap(hi, lo);
            }
            if (compareRecords(slot(hi), slot(mid)) < 0) {
                swap(hi, mid);
            }
            long pivot = slot(mid);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (compareRecords(slot(i), pivot) < 0) {
                    i++;
                }
                while (compareRecords(slot(j), pivot) > 0) {
                    j--;
                }
                if (i <= j) {
                    swap(i, j);
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                introSort(lo, j, depth);
                lo = i;
            } else {
                introSort(i, hi, depth);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            long x = slot(i);
            int j = i - 1;
            while (j >= lo && compareRecords(slot(j), x) > 0) {
                setSlot(j + 1, slot(j));
                j--;
            }
            setSlot(j + 1, x);
        }
    }

    private void heapSort(int lo, int hi) {
        int n = hi - lo + 1;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(lo, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            swap(lo, lo + end);
            siftDown(lo, 0, end);
        }
    }

    private void siftDown(int lo, int root, int n) {
        while (true) {
            int child = 2 * root + 1;
            if (child >= n) {
                return;
            }
            if (child + 1 < n && compareRecords(slot(lo + child), slot(lo + child + 1)) < 0) {
                child++;
            }
            if (compareRecords(slot(lo + root), slot(lo + child)) >= 0) {
                return;
            }
            swap(lo + root, lo + child);
            root = child;
        }
    }

    private void swap(int i, int j) {
        long a = slot(i);
        setSlot(i, slot(j));
        setSlot(j, a);
    }

    /** First sorted slot whose entry is not before {@code (key, lsn)}. Requires the lock. */
    private int lowerBound(byte[] key, int keyLen, long lsn) {
        int lo = 0;
        int hi = sortedCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long r = slot(mid);
            int c = SkipListNodes.compareKey(r, key, keyLen);
            boolean before = c != 0 ? c < 0 : SkipListNodes.lsn(r) > lsn;
            if (before) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First sorted slot whose key is greater than {@code key}. Requires the lock. */
    private int upperBound(byte[] key, int keyLen) {
        int lo = 0;
        int hi = sortedCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (SkipListNodes.compareKey(slot(mid), key, keyLen) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The records of the sorted index {@code [0, n)} of a sealed component, newest version per key.
     * Invariant: {@code pos} is the next slot to examine. Thread safety: one thread.
     */
    private final class IndexRecordCursor extends NodeRecordAccessors {

        private final int n;
        private int pos;

        IndexRecordCursor(int n) {
            this.n = n;
        }

        @Override
        public boolean next() {
            while (pos < n) {
                long r = slot(pos++);
                if (!sameKeyAsCurrent(r)) {
                    return moveTo(r);
                }
            }
            return false;
        }

        @Override
        public void close() {
            pos = n;
        }
    }

    /**
     * A cursor at one snapshot over the sorted index. Invariant: {@code pos} is the next slot to
     * examine as of sort generation {@code generation}; every slot before it holds a key at or before
     * the current one. Thread safety: one thread.
     */
    private final class VectorCursor extends NodeEntryCursor {

        private final byte[] from;
        private final long snapshotLsn;
        private int pos;
        private long generation;
        private boolean hasCurrent;
        private boolean done;

        /** Requires the read lock with the index sorted. */
        VectorCursor(byte[] from, long snapshotLsn) {
            this.from = from;
            this.snapshotLsn = snapshotLsn;
            this.pos = from == null ? 0 : lowerBound(from, from.length, snapshotLsn);
            this.generation = sortGeneration;
        }

        @Override
        public boolean next() {
            if (done) {
                return false;
            }
            long stamp = lock.readLock();
            try {
                if (generation != sortGeneration) {
                    if (hasCurrent) {
                        pos = upperBound(key, keyLength);
                    } else {
                        pos = from == null ? 0 : lowerBound(from, from.length, snapshotLsn);
                    }
                    generation = sortGeneration;
                }
                int n = sortedCount;
                while (pos < n) {
                    long r = slot(pos++);
                    if (SkipListNodes.lsn(r) > snapshotLsn || (hasCurrent && SkipListNodes.compareKey(r, key, keyLength) == 0)) {
                        continue;
                    }
                    copyNode(r);
                    hasCurrent = true;
                    return true;
                }
                done = true;
                hasCurrent = false;
                return false;
            } finally {
                lock.unlockRead(stamp);
            }
        }

        @Override
        public void close() {
            done = true;
            hasCurrent = false;
        }
    }
}
