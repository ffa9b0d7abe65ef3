package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.MAX_HEIGHT;
import static dev.breakwater.lsm.memory.SkipListNodeDescriptor.NIL;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The {@link dev.breakwater.common.config.MemoryComponentKind#SKIP_LIST} memory component (the default): a concurrent,
 * multi-version skip-list whose nodes live in off-heap pages drawn from a {@link PagePool} (layout:
 * {@link SkipListNodeDescriptor}).
 *
 * <h2>Model</h2>
 * An entry is a version {@code (key, lsn)} carrying a value or a tombstone. Versions are ordered by
 * key ascending (unsigned bytes), then LSN descending, so the first version of a key at or after
 * {@code (key, S)} is the newest one visible at snapshot {@code S}. Nothing is overwritten or removed:
 * every {@link #put} adds a version. Two puts of the same {@code (key, lsn)} both stay; the later one
 * sorts first and so wins (among concurrent ones, whichever links first at level 0 loses).
 *
 * <h2>Concurrency</h2>
 * Writers on any number of threads insert lock-free (the scheme of LevelDB's skip-list, made
 * concurrent as in RocksDB's inline skip-list): a writer claims node memory by bump allocation in the
 * current page ({@link ComponentMemory}), fills the node, finds its predecessors and successors at
 * every level, then links it bottom-up with one CAS per level on the predecessor's next pointer. A
 * failed CAS means a node was linked between predecessor and successor; since nodes are never
 * removed, the predecessor is still before the new node and the writer rescans forward from it. A
 * node is therefore visible at level 0 (and to every reader) before any higher level, and the CAS
 * publishes the node's contents. Readers only follow next pointers with volatile reads: they never
 * block and never wait for writers.
 *
 * <h2>Memory</h2>
 * The pool is touched once per page. When it has no page left, {@link #put} returns {@code false}
 * having inserted nothing: the caller (the tree) flushes, then retries, possibly into a new
 * component. A record larger than a page can hold is refused with an exception.
 *
 * <p>Invariants: (1) at every level the list is sorted in entry order, and level {@code i+1} is a
 * sub-list of level {@code i}; (2) nodes are never unlinked, moved or freed before {@link #close()};
 * (3) every field of a node but its next pointers is immutable once the node is reachable; (4)
 * {@link #bytesUsed()} equals the pages this component holds times the page size; (5)
 * {@code minLsn() <= lsn <= maxLsn()} for every reachable version (the range is widened before a node
 * is linked).
 *
 * <p>Thread safety: {@link #put}, {@link #get}, {@link #cursor} and the statistics are safe from any
 * thread, concurrently. A read at snapshot {@code S} is repeatable only if no put with an LSN at or
 * below {@code S} is still in progress (the transaction layer assigns LSNs so). {@link #close()}
 * requires that no put, get or cursor is in progress or will follow (the tree ensures this with
 * reference counts); it is idempotent.
 */
public final class SkipListMemoryComponent extends PagedMemoryComponent {

    /** Sentinel address of the head: never a node address, since nodes are 8-byte aligned. */
    static final long HEAD = 1L;

    /** Per-thread scratch for a splice: predecessors at {@code [0, MAX_HEIGHT)}, successors after. */
    private static final ThreadLocal<long[]> SPLICE = ThreadLocal.withInitial(() -> new long[2 * MAX_HEIGHT]);

    /** Random bits consumed per trial; {@link SkipListNodeDescriptor#BRANCHING} is a power of two. */
    private static final int BRANCHING_BITS = Integer.numberOfTrailingZeros(SkipListNodeDescriptor.BRANCHING);

    /** The head's next pointers, on heap so an empty component holds no page. */
    private final AtomicLongArray head = new AtomicLongArray(MAX_HEIGHT);
    /** Highest level in use; only grows. */
    private final AtomicInteger maxHeight = new AtomicInteger(1);

    public SkipListMemoryComponent(PagePool pool) {
        super(pool);
    }

    /**
     * Adds the version {@code (key, lsn)}: a value, or a tombstone (whose value is ignored and stored
     * empty). Allocates nothing on the heap.
     *
     * @return true if inserted; false if the pool had no page for it, in which case nothing was
     *         inserted and the caller should flush and retry
     * @throws IllegalArgumentException if {@code keyLen + valueLen} exceeds {@link #maxRecordLength()},
     *         if {@code lsn < 0} or if a length is outside its array
     */
    @Override
    public boolean put(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long lsn) {
        int valueLength = tombstone ? 0 : valueLen;
        checkRecord(key, keyLen, value, valueLength, lsn);
        int height = randomHeight();
        long node = memory.allocate(SkipListNodeDescriptor.nodeLength(height, keyLen, valueLength));
        if (node == ComponentMemory.NO_MEMORY) {
            return false;
        }
        SkipListNodes.init(node, height, tombstone, key, keyLen, value, valueLength, lsn);
        widenLsnRange(lsn);
        link(node, height, key, keyLen, lsn);
        counted(keyLen + valueLength);
        return true;
    }

    /**
     * Looks up the newest version of {@code key[0..keyLen)} with an LSN at or below
     * {@code snapshotLsn}: {@link LookupResult#FOUND} with the value copied into {@code out},
     * {@link LookupResult#DELETED} if that version is a tombstone ({@code out} then holds an empty
     * value and its LSN), {@link LookupResult#ABSENT} if there is none. Allocates nothing once
     * {@code out} is large enough.
     */
    @Override
    public LookupResult get(byte[] key, int keyLen, long snapshotLsn, ValueHolder out) {
        long node = seek(key, keyLen, snapshotLsn);
        return SkipListNodes.lookup(node, key, keyLen, out);
    }

    /**
     * A cursor over keys at or after {@code fromInclusive[0..fromLen)} (from the first key if null),
     * yielding for each key its newest version at or below {@code snapshotLsn}, tombstones included
     * (the tree hides them). Keys absent at the snapshot are skipped.
     */
    @Override
    public EntryCursor cursor(byte[] fromInclusive, int fromLen, long snapshotLsn) {
        long start = fromInclusive == null ? head.get(0) : seek(fromInclusive, fromLen, snapshotLsn);
        return new MemoryComponentCursor(start, snapshotLsn);
    }

    @Override
    public EntryCursor reverseCursor(byte[] toExclusive, int toLen, long snapshotLsn) {
        return new ReverseNodeCursor(toExclusive, toLen, snapshotLsn) {
            /** The first search's path: per level, the last node below its bound (HEAD if none). */
            private final long[] fingers = new long[MAX_HEIGHT];

            @Override
            long lastBelow(byte[] key, int keyLength) {
                return SkipListMemoryComponent.this.lastBelow(key, keyLength, fingers);
            }

            @Override
            long seek(byte[] key, int keyLength, long lsn) {
                return seekFrom(fingers, key, keyLength, lsn);
            }
        };
    }

    /** What a flush writes: every key's newest version, tombstones included, from the first key. */
    @Override
    public EntryCursor flushCursor() {
        return cursor(null, 0, Long.MAX_VALUE);
    }

    @Override
    public RecordCursor sealedRecords() {
        return new NodeRecordCursor(head.get(0));
    }

    /** The first node at level 0: O(1). */
    @Override
    public byte[] firstKey() {
        long first = head.get(0);
        return first == NIL ? null : SkipListNodes.copyKey(first);
    }

    /** The last node, found by running to the end of each level from the top down: O(log n) expected. */
    @Override
    public byte[] lastKey() {
        long x = lastNode();
        return x == HEAD ? null : SkipListNodes.copyKey(x);
    }

    @Override
    public boolean isEmpty() {
        return head.get(0) == NIL;
    }

    // ---------------------------------------------------------------- skip-list internals

    /** The last node at level 0, HEAD if empty: each level's end, the next level's search starting from it. */
    long lastNode() {
        long x = HEAD;
        for (int level = maxHeight.get() - 1; level >= 0; level--) {
            long next = next(x, level);
            while (next != NIL) {
                x = next;
                next = next(x, level);
            }
        }
        return x;
    }

    /**
     * The first node whose entry is not before {@code (key, lsn)}: the newest version of key visible
     * at lsn, if any. A level's search ends without a compare when it reaches the node the level
     * above stopped at (nodes never change their key, so it is still not before): RocksDB's
     * inline skip list does the same.
     */
    long seek(byte[] key, int keyLen, long lsn) {
        long x = HEAD;
        long next = NIL;
        for (int level = maxHeight.get() - 1; level >= 0; level--) {
            long stop = next; // not before (key, lsn): where the level above stopped
            next = next(x, level);
            while (next != NIL && next != stop && before(next, key, keyLen, lsn)) {
                x = next;
                next = next(x, level);
            }
        }
        return next;
    }

    /**
     * The last node whose key is below {@code key} (the last node if null), NIL if none: a reverse
     * step. Records in {@code fingers[level]} the last node below {@code key} at each level (HEAD if
     * none, and for levels above the current height), for {@link #seekFrom}.
     */
    long lastBelow(byte[] key, int keyLen, long[] fingers) {
        long x = HEAD;
        int top = maxHeight.get();
        Arrays.fill(fingers, top, MAX_HEIGHT, HEAD);
        for (int level = top - 1; level >= 0; level--) {
            long next = next(x, level);
            while (next != NIL && (key == null || SkipListNodes.compareKey(next, key, keyLen) < 0)) {
                x = next;
                next = next(x, level);
            }
            fingers[level] = x;
        }
        return x == HEAD ? NIL : x;
    }

    /**
     * {@link #seek}, started from the path {@link #lastBelow} recorded for a bound above {@code key}
     * (the reverse step's second search, for the key of the node that call returned): at each level
     * the search continues from the recorded node when its key is below {@code key}. Any node before
     * {@code (key, lsn)} is a correct place to continue a level's search from (nodes are never
     * unlinked), and the recorded one is usually just before the answer (without concurrent inserts
     * only versions of {@code key} lie between them), so this skips the descent from the head.
     */
    long seekFrom(long[] fingers, byte[] key, int keyLen, long lsn) {
        long x = HEAD;
        long next = NIL;
        for (int level = maxHeight.get() - 1; level >= 0; level--) {
            long f = fingers[level];
            if (f != HEAD && SkipListNodes.compareKey(f, key, keyLen) < 0) {
                x = f;
            }
            next = next(x, level);
            while (next != NIL && before(next, key, keyLen, lsn)) {
                x = next;
                next = next(x, level);
            }
        }
        return next;
    }

    /** Links a filled node bottom-up; see the class comment for why a rescan from the predecessor suffices. */
    private void link(long node, int height, byte[] key, int keyLen, long lsn) {
        int top = raiseMaxHeight(height);
        long[] splice = SPLICE.get();
        long x = HEAD;
        for (int level = top - 1; level >= 0; level--) {
            scan(x, level, level + 1 < top ? splice[MAX_HEIGHT + level + 1] : NIL, key, keyLen, lsn, splice);
            x = splice[level];
        }
        for (int level = 0; level < height; level++) {
            while (true) {
                long pred = splice[level];
                long succ = splice[MAX_HEIGHT + level];
                SkipListNodes.setNextUnpublished(node, level, succ);
                if (casNext(pred, level, succ, node)) {
                    break;
                }
                scan(pred, level, NIL, key, keyLen, lsn, splice);
            }
        }
    }

    /**
     * From {@code start} at {@code level}, records the last node before {@code (key, lsn)} and its
     * successor. {@code stop} is a node known not to be before it (the successor found one level up,
     * or NIL): reaching it ends the scan without comparing its key again.
     */
    private void scan(long start, int level, long stop, byte[] key, int keyLen, long lsn, long[] splice) {
        long x = start;
        long next = next(x, level);
        while (next != NIL && next != stop && before(next, key, keyLen, lsn)) {
            x = next;
            next = next(x, level);
        }
        splice[level] = x;
        splice[MAX_HEIGHT + level] = next;
    }

    /**
     * True if {@code node} sorts strictly before {@code (key, lsn)}: a smaller key, or the same key
     * with a larger LSN. An equal entry is not before, so a new node goes in front of its equals.
     */
    private static boolean before(long node, byte[] key, int keyLen, long lsn) {
        int c = SkipListNodes.compareKey(node, key, keyLen);
        return c != 0 ? c < 0 : SkipListNodes.lsn(node) > lsn;
    }

    private long next(long x, int level) {
        return x == HEAD ? head.get(level) : SkipListNodes.next(x, level);
    }

    private boolean casNext(long x, int level, long expected, long node) {
        return x == HEAD ? head.compareAndSet(level, expected, node) : SkipListNodes.casNext(x, level, expected, node);
    }

    private int raiseMaxHeight(int height) {
        int current = maxHeight.get();
        while (height > current) {
            if (maxHeight.compareAndSet(current, height)) {
                return height;
            }
            current = maxHeight.get();
        }
        return current;
    }

    /** 1 + the number of successes of independent 1/{@link SkipListNodeDescriptor#BRANCHING} trials, capped. */
    private static int randomHeight() {
        int bits = ThreadLocalRandom.current().nextInt();
        int height = 1;
        while (height < MAX_HEIGHT && (bits & (SkipListNodeDescriptor.BRANCHING - 1)) == 0) {
            height++;
            bits >>>= BRANCHING_BITS;
        }
        return height;
    }
}
