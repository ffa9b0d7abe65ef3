package dev.breakwater.lsm.memory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every kind of {@link MemoryComponent} shares: its page
 * memory, the record-size limit (that of the skip-list, so a record one kind accepts every kind
 * accepts), the statistics, the LSN range, argument checks and closing.
 *
 * <p>Invariants: (1) {@link #bytesUsed()} equals the pages held times the page size; (2)
 * {@code minLsn() <= lsn <= maxLsn()} for every reachable version (subclasses widen the range before
 * they publish a record).
 *
 * <p>Thread safety: everything here is safe from any thread; {@link #close()} as in
 * {@link MemoryComponent}.
 */
abstract class PagedMemoryComponent implements MemoryComponent {

    final ComponentMemory memory;
    private final int maxRecordLength;
    private final LongAdder entries = new LongAdder();
    private final LongAdder payload = new LongAdder();
    private final AtomicLong minLsn = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxLsn = new AtomicLong(Long.MIN_VALUE);
    private final AtomicBoolean closed = new AtomicBoolean();

    PagedMemoryComponent(PagePool pool) {
        this.memory = new ComponentMemory(pool);
        this.maxRecordLength = SkipListNodeDescriptor.maxRecordLength(pool.pageSize());
    }

    @Override
    public final int maxRecordLength() {
        return maxRecordLength;
    }

    @Override
    public final long bytesUsed() {
        return memory.bytesHeld();
    }

    @Override
    public final long payloadBytes() {
        return payload.sum();
    }

    @Override
    public final long entryCount() {
        return entries.sum();
    }

    @Override
    public final long minLsn() {
        return minLsn.get();
    }

    @Override
    public final long maxLsn() {
        return maxLsn.get();
    }

    @Override
    public final boolean isClosed() {
        return closed.get();
    }

    @Override
    public final void close() {
        if (closed.compareAndSet(false, true)) {
            memory.release();
        }
    }

    /** Counts one stored version of {@code bytes} key and value bytes. */
    final void counted(int bytes) {
        entries.increment();
        payload.add(bytes);
    }

    final void widenLsnRange(long lsn) {
        long min = minLsn.get();
        while (lsn < min && !minLsn.compareAndSet(min, lsn)) {
            min = minLsn.get();
        }
        long max = maxLsn.get();
        while (lsn > max && !maxLsn.compareAndSet(max, lsn)) {
            max = maxLsn.get();
        }
    }

    final void checkRecord(byte[] key, int keyLen, byte[] value, int valueLen, long lsn) {
        if (keyLen < 0 || keyLen > key.length) {
            throw new IllegalArgumentException("key length " + keyLen + " outside byte[" + key.length + "]");
        }
        if (valueLen < 0 || (valueLen > 0 && valueLen > value.length)) {
            throw new IllegalArgumentException("value length " + valueLen + " outside byte[" + (value == null ? 0 : value.length) + "]");
        }
        if (lsn < 0) {
            throw new IllegalArgumentException("LSN must be >= 0, got " + lsn);
        }
        if ((long) keyLen + valueLen > maxRecordLength) {
            throw new IllegalArgumentException("record of " + ((long) keyLen + valueLen) + " bytes (key " + keyLen + " + value "
                    + valueLen + ") exceeds the limit of " + maxRecordLength + " bytes for write-memory pages of "
                    + memory.pageSize() + " bytes");
        }
        if (closed.get()) {
            throw new IllegalStateException("memory component is closed");
        }
    }
}
