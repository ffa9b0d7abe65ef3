package dev.breakwater.lsm.memory;

import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;

/**
 * The mutable memory component of an LSM-tree (the active M0, or the whole memory component of a
 * monolithic tree): a multi-version write buffer in off-heap write-memory pages drawn from a
 * {@link PagePool}. Which data structure holds the versions is pluggable ({@link MemoryComponentKind},
 * built by {@link MemoryComponentSpec}); every kind offers the same contract, stated here.
 *
 * <h2>Model</h2>
 * An entry is a version {@code (key, lsn)} carrying a value or a tombstone. Versions are ordered by
 * key ascending (unsigned bytes), then LSN descending, so the first version of a key at or after
 * {@code (key, S)} is the newest one visible at snapshot {@code S}. Nothing is overwritten or removed:
 * every {@link #put} adds a version.
 *
 * <h2>Memory</h2>
 * Every byte a kind uses (records, pointers, bucket arrays, index slack) lives in pages drawn from the
 * pool, and {@link #bytesUsed()} is exactly the pages held times the page size, so the write-memory
 * manager's shares and flush decisions see each kind's real footprint. When the pool has no page
 * left, {@link #put} returns {@code false} having inserted nothing visible: the caller flushes and
 * retries. {@link #close()} returns every page at once.
 *
 * <p>Thread safety (every kind): {@link #put}, {@link #get}, {@link #cursor}, {@link #reverseCursor} and the statistics are
 * safe from any thread, concurrently. A read at snapshot {@code S} is repeatable only if no put with
 * an LSN at or below {@code S} is still in progress (the transaction layer assigns LSNs so).
 * {@link #close()} requires that no put, get or cursor is in progress or will follow (the tree
 * ensures this with reference counts); it is idempotent. How each kind achieves this (lock-free,
 * per-component lock) is in its own Javadoc.
 */
public interface MemoryComponent extends AutoCloseable {

    /** The largest {@code keyLength + valueLength} a record may have; the same for every kind. */
    int maxRecordLength();

    /**
     * Adds the version {@code (key, lsn)}: a value, or a tombstone (whose value is ignored and stored
     * empty). Allocates nothing on the heap.
     *
     * @return true if inserted; false if the pool had no page for it, in which case nothing was
     *         inserted and the caller should flush and retry
     * @throws IllegalArgumentException if {@code keyLen + valueLen} exceeds {@link #maxRecordLength()},
     *         if {@code lsn < 0} or if a length is outside its array
     */
    boolean put(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone, long lsn);

    /**
     * Looks up the newest version of {@code key[0..keyLen)} with an LSN at or below
     * {@code snapshotLsn}: {@link LookupResult#FOUND} with the value copied into {@code out},
     * {@link LookupResult#DELETED} if that version is a tombstone ({@code out} then holds an empty
     * value and its LSN), {@link LookupResult#ABSENT} if there is none. Allocates nothing once
     * {@code out} is large enough.
     */
    LookupResult get(byte[] key, int keyLen, long snapshotLsn, ValueHolder out);

    /**
     * A cursor over keys at or after {@code fromInclusive[0..fromLen)} (from the first key if null),
     * in key order, yielding for each key its newest version at or below {@code snapshotLsn},
     * tombstones included (the tree hides them). Keys absent at the snapshot are skipped.
     */
    EntryCursor cursor(byte[] fromInclusive, int fromLen, long snapshotLsn);

    /**
     * A cursor over keys strictly below {@code toExclusive[0..toLen)} (from the last key if null), in
     * descending key order, yielding for each key its newest version at or below {@code snapshotLsn},
     * tombstones included: the same entries as {@link #cursor}, in the opposite order. Keys absent at
     * the snapshot are skipped. The bound is copied.
     */
    EntryCursor reverseCursor(byte[] toExclusive, int toLen, long snapshotLsn);

    /** What a flush writes: every key's newest version, tombstones included, from the first key. */
    default EntryCursor flushCursor() {
        return cursor(null, 0, Long.MAX_VALUE);
    }

    /**
     * What a seal into the memory levels copies: every key's newest version, tombstones included, in
     * key order, read in place ({@link RecordCursor}). Requires: the component is sealed (no put in
     * progress or to come), and stays open while what the cursor returned is used.
     */
    RecordCursor sealedRecords();

    /**
     * The smallest key of any version stored (tombstones included), as a fresh copy; null if the
     * component is empty. The first key {@link #sealedRecords()} would return, found without reading
     * the records: a seal needs only its key range to pick the memory tables it overlaps, and a full
     * pass over a sealed M0 for it was 21% of the flush thread in the issue-13 profile. O(1) or
     * O(log n) in every kind. Concurrent puts may or may not be reflected.
     */
    byte[] firstKey();

    /** The largest key of any version stored, as {@link #firstKey()} is the smallest; null if empty. */
    byte[] lastKey();

    /** Exactly the bytes this component draws on the pool: pages held times the page size. */
    long bytesUsed();

    /** Key and value bytes of all versions stored (no node overhead or page waste). */
    long payloadBytes();

    /** Number of versions stored (a key written three times counts three). */
    long entryCount();

    /** Smallest LSN stored, {@link Long#MAX_VALUE} if empty: what the log must keep for this component. */
    long minLsn();

    /** Largest LSN stored, {@link Long#MIN_VALUE} if empty. */
    long maxLsn();

    boolean isEmpty();

    boolean isClosed();

    /**
     * Returns every page to the pool. Idempotent. Requires: no put, get or cursor in progress, and
     * none after.
     */
    @Override
    void close();
}
