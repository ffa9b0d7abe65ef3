package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.MAX_HEIGHT;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.cursor.MergingCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import net.openhft.chronicle.core.UnsafeMemory;

/**
 * The {@code HASH_SKIP_LIST} and {@code HASH_LINKED_LIST} memory components (paper 001, RocksDB's
 * hash memtables): a hash table on the first {@code prefixLength} bytes of the key (a shorter key is
 * hashed whole) with {@code bucketCount} buckets, each bucket holding every version whose key hashes
 * there, in entry order (key ascending, LSN descending), as a skip-list or as a sorted singly linked
 * list. A point lookup costs a hash and a search of one bucket; a range scan has to merge every
 * non-empty bucket (a priority queue over one cursor per bucket), since keys are not ordered across
 * buckets.
 *
 * <h2>Layout and memory</h2>
 * Everything is in pages of the component's {@link ComponentMemory}: the bucket array ({@code 8 *
 * bucketCount} bytes over whole pages, drawn and zeroed at the first write), the nodes (the
 * {@link SkipListNodeDescriptor} layout; height 1 in a linked list), and, for skip-list buckets, one
 * bucket head per used bucket ({@link #BUCKET_HEAD_LENGTH} bytes: the bucket's current height, then
 * {@code MAX_HEIGHT} next pointers) drawn at the bucket's first write. A bucket slot holds the first
 * node (linked list) or the bucket head (skip-list), {@link SkipListNodeDescriptor#NIL} while empty.
 * So the pointer overhead of the table is in {@link #bytesUsed()}.
 *
 * <h2>Concurrency</h2>
 * Lock-free like {@link SkipListMemoryComponent}: a writer fills its node, then links it with a CAS
 * on the predecessor's next pointer (or the bucket slot), rescanning forward from the predecessor
 * when the CAS fails (nodes are never removed, so the predecessor stays before the new node). A
 * bucket head is installed by CAS into its slot; the loser of a race leaves its head unused (still
 * accounted). The bucket array is created once, under {@link #tableLock}, before the first node;
 * readers that find no array see an empty component. Readers only follow pointers with volatile reads
 * and never block.
 *
 * <p>Invariants: (1) every bucket is sorted in entry order and, for skip-lists, level {@code i+1} is
 * a sub-list of level {@code i}; (2) a key is only ever in bucket {@code bucketOf(key)}; (3) nodes,
 * heads and the array are never unlinked, moved or freed before {@link #close()}; (4) every field of
 * a node but its next pointers is immutable once the node is reachable; (5) once a put has returned,
 * {@code smallestNode} and {@code largestNode} hold nodes whose keys are the smallest and largest
 * of every version put so far (the range for {@link #firstKey()}/{@link #lastKey()}).
 *
 * <p>Thread safety: as {@link MemoryComponent} states.
 */
public final class HashMemoryComponent extends PagedMemoryComponent {

    /** Bytes of a skip-list bucket head: an 8-byte height, then {@code MAX_HEIGHT} next pointers. */
    static final int BUCKET_HEAD_LENGTH = 8 + 8 * MAX_HEIGHT;

    private static final UnsafeMemory MEMORY = UnsafeMemory.MEMORY;
    private static final ThreadLocal<long[]> SPLICE = ThreadLocal.withInitial(() -> new long[2 * MAX_HEIGHT]);
    private static final int BRANCHING_BITS = Integer.numberOfTrailingZeros(SkipListNodeDescriptor.BRANCHING);

    private final int prefixLength;
    private final int bucketCount;
    private final boolean skipListBuckets;
    private final int slotShift;
    private final int slotMask;
    private final ReentrantLock tableLock = new ReentrantLock();
    /** Pages of the bucket array; null until the first write. Written once under tableLock. */
    private volatile long[] tablePages;
    /**
     * The bucket array's pages drawn so far while the pool ran dry before all were drawn, so that a
     * retry continues instead of drawing the array again. Guarded by tableLock.
     */
    private long[] partialTable;
    private int partialPages;
    private volatile boolean nonEmpty;
    /**
     * A node holding the smallest key stored, NIL while empty: keys are not ordered across buckets, so
     * the key range is kept on every put rather than found by merging all buckets. Only lowered, by
     * CAS, after the node is linked (its key is immutable and was written before).
     */
    private final AtomicLong smallestNode = new AtomicLong(NIL);
    /** A node holding the largest key stored, NIL while empty; only raised, as {@link #smallestNode}. */
    private final AtomicLong largestNode = new AtomicLong(NIL);

    /**
     * @param prefixLength    bytes of the key that are hashed, at least 1
     * @param bucketCount     buckets, at least 1
     * @param skipListBuckets true for {@code HASH_SKIP_LIST}, false for {@code HASH_LINKED_LIST}
     */
    public HashMemoryComponent(PagePool pool, int prefixLength, int bucketCount, boolean skipListBuckets) {
        super(pool);
        if (prefixLength < 1) {
            throw new IllegalArgumentException("hash prefix length must be >= 1, got " + prefixLength);
        }
        if (bucketCount < 1) {
            throw new IllegalArgumentException("hash bucket count must be >= 1, got " + bucketCount);
        }
        this.prefixLength = prefixLength;
        this.bucketCount = bucketCount;
        this.skipListBuckets = skipListBuckets;
        int slots = Integer.highestOneBit(pool.pageSize() / 8);
        this.slotShift = Integer.numberOfTrailingZeros(slots);
        this.slotMask = slots - 1;
    }

    /** Pages the bucket array takes once created. */
    public static long tablePages(int bucketCount, int pageSize) {
        int slots = Integer.highestOneBit(pageSize / 8);
        return (bucketCount + (long) slots - 1) / slots;
    }

    @Override
    public boolean put(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long lsn) {
        int valueLength = tombstone ? 0 : valueLen;
        checkRecord(key, keyLen, value, valueLength, lsn);
        long[] pages = tablePages != null ? tablePages : createTable();
        if (pages == null) {
            return false;
        }
        long slot = slotAddress(pages, bucketOf(key, keyLen));
        if (skipListBuckets) {
            long head = bucketHead(slot);
            if (head == ComponentMemory.NO_MEMORY) {
                return false;
            }
            int height = randomHeight();
            long node = memory.allocate(SkipListNodeDescriptor.nodeLength(height, keyLen, valueLength));
            if (node == ComponentMemory.NO_MEMORY) {
                return false;
            }
            SkipListNodes.init(node, height, tombstone, key, keyLen, value, valueLength, lsn);
            widenLsnRange(lsn);
            linkSkip(head, node, height, key, keyLen, lsn);
            widenKeyRange(node, key, keyLen);
        } else {
            long node = memory.allocate(SkipListNodeDescriptor.nodeLength(1, keyLen, valueLength));
            if (node == ComponentMemory.NO_MEMORY) {
                return false;
            }
            SkipListNodes.init(node, 1, tombstone, key, keyLen, value, valueLength, lsn);
            widenLsnRange(lsn);
            linkList(slot, node, key, keyLen, lsn);
            widenKeyRange(node, key, keyLen);
        }
        if (!nonEmpty) {
            nonEmpty = true;
        }
        counted(keyLen + valueLength);
        return true;
    }

    @Override
    public LookupResult get(byte[] key, int keyLen, long snapshotLsn, ValueHolder out) {
        long[] pages = tablePages;
        if (pages == null) {
            return LookupResult.ABSENT;
        }
        long slot = slotAddress(pages, bucketOf(key, keyLen));
        long node;
        if (skipListBuckets) {
            long head = MEMORY.readVolatileLong(slot);
            node = head == NIL ? NIL : seekSkip(head, key, keyLen, snapshotLsn);
        } else {
            node = seekList(slot, key, keyLen, snapshotLsn);
        }
        return SkipListNodes.lookup(node, key, keyLen, out);
    }

    /** Merges one cursor per non-empty bucket; costs a pass over the bucket array plus a heap of cursors. */
    @Override
    public EntryCursor cursor(byte[] fromInclusive, int fromLen, long snapshotLsn) {
        long[] pages = tablePages;
        List<MemoryComponentCursor> parts = new ArrayList<>();
        for (int b = 0; pages != null && b < bucketCount; b++) {
            long slot = slotAddress(pages, b);
            long start;
            if (skipListBuckets) {
                long head = MEMORY.readVolatileLong(slot);
                if (head == NIL) {
                    continue;
                }
                start = fromInclusive == null ? MEMORY.readVolatileLong(headLink(head, 0)) : seekSkip(head, fromInclusive, fromLen, snapshotLsn);
            } else {
                start = fromInclusive == null ? MEMORY.readVolatileLong(slot) : seekList(slot, fromInclusive, fromLen, snapshotLsn);
            }
            if (start != NIL) {
                parts.add(new MemoryComponentCursor(start, snapshotLsn));
            }
        }
        if (parts.isEmpty()) {
            return new MemoryComponentCursor(NIL, snapshotLsn);
        }
        return parts.size() == 1 ? parts.get(0) : new MergingCursor(parts, false);
    }

    /** Merges one node chain per non-empty bucket, as {@link #cursor} does, in place. */
    @Override
    public RecordCursor sealedRecords() {
        long[] pages = tablePages;
        List<RecordCursor> parts = new ArrayList<>();
        for (int b = 0; pages != null && b < bucketCount; b++) {
            long slot = slotAddress(pages, b);
            long start;
            if (skipListBuckets) {
                long head = MEMORY.readVolatileLong(slot);
                start = head == NIL ? NIL : MEMORY.readVolatileLong(headLink(head, 0));
            } else {
                start = MEMORY.readVolatileLong(slot);
            }
            if (start != NIL) {
                parts.add(new NodeRecordCursor(start));
            }
        }
        if (parts.isEmpty()) {
            return new NodeRecordCursor(NIL);
        }
        return parts.size() == 1 ? parts.get(0) : new RecordMerger(parts);
    }

    /**
     * Merges one descending cursor per non-empty bucket. A step in a linked-list bucket walks the
     * bucket from its first node (the list links forward only), so a reverse scan costs
     * {@code O(b^2)} per bucket of {@code b} versions: fine for the short buckets this kind is meant
     * for, slow for a bucket that holds a long run of keys.
     */
    @Override
    public EntryCursor reverseCursor(byte[] toExclusive, int toLen, long snapshotLsn) {
        long[] pages = tablePages;
        List<ReverseNodeCursor> parts = new ArrayList<>();
        for (int b = 0; pages != null && b < bucketCount; b++) {
            long slot = slotAddress(pages, b);
            long first = MEMORY.readVolatileLong(slot); // the bucket head (skip list) or first node (linked list)
            if (first == NIL) {
                continue;
            }
            parts.add(new ReverseNodeCursor(toExclusive, toLen, snapshotLsn) {
                @Override
                long lastBelow(byte[] key, int keyLength) {
                    return skipListBuckets ? lastBelowSkip(first, key, keyLength) : lastBelowList(slot, key, keyLength);
                }

                @Override
                long seek(byte[] key, int keyLength, long lsn) {
                    return skipListBuckets ? seekSkip(first, key, keyLength, lsn) : seekList(slot, key, keyLength, lsn);
                }
            });
        }
        if (parts.isEmpty()) {
            return new MemoryComponentCursor(NIL, snapshotLsn);
        }
        return parts.size() == 1 ? parts.get(0) : new MergingCursor(parts, false, true);
    }

    /** O(1): the smallest key is tracked on every put. */
    @Override
    public byte[] firstKey() {
        long node = smallestNode.get();
        return node == NIL ? null : SkipListNodes.copyKey(node);
    }

    /** O(1): the largest key is tracked on every put. */
    @Override
    public byte[] lastKey() {
        long node = largestNode.get();
        return node == NIL ? null : SkipListNodes.copyKey(node);
    }

    /**
     * Lowers {@link #smallestNode} and raises {@link #largestNode} to the linked {@code node} holding
     * {@code key[0..keyLen)} where it lies outside them. Two reads of hot atomics when it does not.
     */
    private void widenKeyRange(long node, byte[] key, int keyLen) {
        long low = smallestNode.get();
        while ((low == NIL || SkipListNodes.compareKey(low, key, keyLen) > 0) && !smallestNode.compareAndSet(low, node)) {
            low = smallestNode.get();
        }
        long high = largestNode.get();
        while ((high == NIL || SkipListNodes.compareKey(high, key, keyLen) < 0) && !largestNode.compareAndSet(high, node)) {
            high = largestNode.get();
        }
    }

    @Override
    public boolean isEmpty() {
        return !nonEmpty;
    }

    // ---------------------------------------------------------------- hash table

    int bucketOf(byte[] key, int keyLen) {
        long h = OffHeapKeys.hashPrefix(key, keyLen, prefixLength);
        return (int) (((h >>> 32) * bucketCount) >>> 32);
    }

    private long slotAddress(long[] pages, int bucket) {
        return pages[bucket >>> slotShift] + ((long) (bucket & slotMask) << 3);
    }

    /** Draws and zeroes the bucket array; null if the pool has no pages for it. */
    private long[] createTable() {
        tableLock.lock();
        try {
            if (tablePages != null) {
                return tablePages;
            }
            int n = Math.toIntExact(tablePages(bucketCount, memory.pageSize()));
            if (partialTable == null) {
                partialTable = new long[n];
            }
            while (partialPages < n) {
                long page = memory.allocatePage();
                if (page == ComponentMemory.NO_MEMORY) {
                    return null; // pages drawn so far stay held (and accounted); the retry continues from them
                }
                MEMORY.setMemory(page, memory.pageSize(), (byte) 0);
                partialTable[partialPages++] = page;
            }
            tablePages = partialTable;
            partialTable = null;
            return tablePages;
        } finally {
            tableLock.unlock();
        }
    }

    // ---------------------------------------------------------------- linked-list buckets

    private static long seekList(long slot, byte[] key, int keyLen, long lsn) {
        long x = MEMORY.readVolatileLong(slot);
        while (x != NIL && before(x, key, keyLen, lsn)) {
            x = SkipListNodes.next(x, 0);
        }
        return x;
    }

    /** The last node of the bucket whose key is below {@code key} (the last node if null), NIL if none. */
    private static long lastBelowList(long slot, byte[] key, int keyLen) {
        long last = NIL;
        long x = MEMORY.readVolatileLong(slot);
        while (x != NIL && (key == null || SkipListNodes.compareKey(x, key, keyLen) < 0)) {
            last = x;
            x = SkipListNodes.next(x, 0);
        }
        return last;
    }

    private static void linkList(long slot, long node, byte[] key, int keyLen, long lsn) {
        long link = slot;
        while (true) {
            long next = MEMORY.readVolatileLong(link);
            while (next != NIL && before(next, key, keyLen, lsn)) {
                link = SkipListNodeDescriptor.nextAddress(next, 0);
                next = MEMORY.readVolatileLong(link);
            }
            SkipListNodes.setNextUnpublished(node, 0, next);
            if (MEMORY.compareAndSwapLong(link, next, node)) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- skip-list buckets

    /** The bucket's head, installing a zeroed one if the bucket is empty; NO_MEMORY if the pool is exhausted. */
    private long bucketHead(long slot) {
        long head = MEMORY.readVolatileLong(slot);
        if (head != NIL) {
            return head;
        }
        long fresh = memory.allocate(BUCKET_HEAD_LENGTH);
        if (fresh == ComponentMemory.NO_MEMORY) {
            return ComponentMemory.NO_MEMORY;
        }
        MEMORY.setMemory(fresh, BUCKET_HEAD_LENGTH, (byte) 0);
        MEMORY.writeLong(fresh, 1L);
        if (MEMORY.compareAndSwapLong(slot, NIL, fresh)) {
            return fresh;
        }
        return MEMORY.readVolatileLong(slot);
    }

    private static long headLink(long head, int level) {
        return head + 8 + 8L * level;
    }

    private static long link(long head, long x, int level) {
        return x == head ? headLink(head, level) : SkipListNodeDescriptor.nextAddress(x, level);
    }

    private static long seekSkip(long head, byte[] key, int keyLen, long lsn) {
        long x = head;
        long next = NIL;
        for (int level = (int) MEMORY.readVolatileLong(head) - 1; level >= 0; level--) {
            next = MEMORY.readVolatileLong(link(head, x, level));
            while (next != NIL && before(next, key, keyLen, lsn)) {
                x = next;
                next = MEMORY.readVolatileLong(link(head, x, level));
            }
        }
        return next;
    }

    /** The last node of the bucket whose key is below {@code key} (the last node if null), NIL if none. */
    private static long lastBelowSkip(long head, byte[] key, int keyLen) {
        long x = head;
        for (int level = (int) MEMORY.readVolatileLong(head) - 1; level >= 0; level--) {
            long next = MEMORY.readVolatileLong(link(head, x, level));
            while (next != NIL && (key == null || SkipListNodes.compareKey(next, key, keyLen) < 0)) {
                x = next;
                next = MEMORY.readVolatileLong(link(head, x, level));
            }
        }
        return x == head ? NIL : x;
    }

    private static void linkSkip(long head, long node, int height, byte[] key, int keyLen, long lsn) {
        int top = raiseHeight(head, height);
        long[] splice = SPLICE.get();
        long x = head;
        for (int level = top - 1; level >= 0; level--) {
            scan(head, x, level, key, keyLen, lsn, splice);
            x = splice[level];
        }
        for (int level = 0; level < height; level++) {
            while (true) {
                long pred = splice[level];
                long succ = splice[MAX_HEIGHT + level];
                SkipListNodes.setNextUnpublished(node, level, succ);
                if (MEMORY.compareAndSwapLong(link(head, pred, level), succ, node)) {
                    break;
                }
                scan(head, pred, level, key, keyLen, lsn, splice);
            }
        }
    }

    private static void scan(long head, long start, int level, byte[] key, int keyLen, long lsn, long[] splice) {
        long x = start;
        long next = MEMORY.readVolatileLong(link(head, x, level));
        while (next != NIL && before(next, key, keyLen, lsn)) {
            x = next;
            next = MEMORY.readVolatileLong(link(head, x, level));
        }
        splice[level] = x;
        splice[MAX_HEIGHT + level] = next;
    }

    private static int raiseHeight(long head, int height) {
        long current = MEMORY.readVolatileLong(head);
        while (height > current) {
            if (MEMORY.compareAndSwapLong(head, current, height)) {
                return height;
            }
            current = MEMORY.readVolatileLong(head);
        }
        return (int) current;
    }

    private static int randomHeight() {
        int bits = ThreadLocalRandom.current().nextInt();
        int height = 1;
        while (height < MAX_HEIGHT && (bits & (SkipListNodeDescriptor.BRANCHING - 1)) == 0) {
            height++;
            bits >>>= BRANCHING_BITS;
        }
        return height;
    }

    /** True if {@code node} sorts strictly before {@code (key, lsn)}; see {@link SkipListMemoryComponent}. */
    private static boolean before(long node, byte[] key, int keyLen, long lsn) {
        int c = SkipListNodes.compareKey(node, key, keyLen);
        return c != 0 ? c < 0 : SkipListNodes.lsn(node) > lsn;
    }
}
