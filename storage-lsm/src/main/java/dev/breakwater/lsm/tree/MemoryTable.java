package dev.breakwater.lsm.tree;

import dev.breakwater.common.util.Backoff;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.memory.MemoryComponent;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tree's view of one memory component: the component plus what the tree needs around it, namely
 * the range of log LSNs it holds (for recovery and log truncation; the component's own version
 * numbers are the tree's internal sequence numbers), a gate that stops writers once the component is
 * sealed for flushing, and a reference count so the component's memory goes back to the pool only
 * after its flush is installed and its last reader is gone.
 *
 * <p>Writer protocol: {@link #enterWriter()} (false: sealed, use the new active table), put,
 * {@link #exitWriter()}. Sealing sets the flag and waits for writers inside to leave; the flag and
 * the writer count are both volatile, so a writer either sees the seal or is seen by the sealer
 * (Dekker-style, sequentially consistent volatile accesses).
 *
 * <p>Invariants: (1) after {@link #sealAndDrain()} returns, the component never changes again;
 * (2) the component is closed exactly once, when the reference count reaches zero.
 *
 * <p>Thread safety: safe.
 */
final class MemoryTable {

    final MemoryComponent component;
    final long id;
    private final AtomicInteger writers = new AtomicInteger();
    private volatile boolean sealed;
    /** Why the table was sealed; set before sealing, read by the flusher. */
    volatile FlushCause cause = FlushCause.MEMORY;
    /** With a partitioned component: write this table straight to disk instead of into M1 (set when no memory level holds data). */
    volatile boolean directToDisk;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final AtomicLong minLogLsn = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxLogLsn = new AtomicLong(Long.MIN_VALUE);

    MemoryTable(MemoryComponent component, long id) {
        this.component = component;
        this.id = id;
    }

    boolean enterWriter() {
        writers.incrementAndGet();
        if (sealed) {
            writers.decrementAndGet();
            return false;
        }
        return true;
    }

    void exitWriter() {
        writers.decrementAndGet();
    }

    /** Records the log LSN of a write going into this table. Call between enter and exit. */
    void noteLogLsn(long lsn) {
        long m = minLogLsn.get();
        while (lsn < m && !minLogLsn.compareAndSet(m, lsn)) {
            m = minLogLsn.get();
        }
        long x = maxLogLsn.get();
        while (lsn > x && !maxLogLsn.compareAndSet(x, lsn)) {
            x = maxLogLsn.get();
        }
    }

    /** Stops new writers and waits until those inside have finished. */
    void sealAndDrain() {
        sealed = true;
        for (int attempt = 0; writers.get() != 0; attempt++) {
            Backoff.pause(attempt);
        }
    }

    boolean isSealed() {
        return sealed;
    }

    /** Smallest log LSN written here, or {@code Long.MAX_VALUE} if none. */
    long minLogLsn() {
        return minLogLsn.get();
    }

    /** Largest log LSN written here, or {@code Long.MIN_VALUE} if none. */
    long maxLogLsn() {
        return maxLogLsn.get();
    }

    void ref() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("memory table " + id + " already released");
        }
    }

    void unref() {
        int left = refs.decrementAndGet();
        if (left == 0) {
            component.close();
        } else if (left < 0) {
            throw new IllegalStateException("memory table " + id + " released too often");
        }
    }

    @Override
    public String toString() {
        return "MemoryTable" + id + "[" + component.entryCount() + " entries, " + component.bytesUsed() + " B]";
    }
}
