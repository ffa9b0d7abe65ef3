package dev.breakwater.txn;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps {@link StorageEngine#close()} from freeing memory that an API call is still using. Every
 * call that touches off-heap memory (a point read, a cursor step, a commit's log append and apply)
 * runs between {@link #enter()} and {@link #exit()}; {@link #closeAndDrain()} shuts the gate and
 * waits until no call is inside. After that no call can enter: {@link #enter()} throws
 * {@link EngineClosedException}, so nothing touches the memory the engine then frees.
 *
 * <p>Why it is safe (a Dekker handshake on volatile accesses): {@code enter} increments its stripe
 * (a volatile read-modify-write) and then reads {@code closed}; {@code closeAndDrain} writes
 * {@code closed} and then reads every stripe. Volatile accesses are totally ordered, so either the
 * closer sees the increment (and waits for the matching exit) or the caller sees {@code closed}
 * (and backs out before touching anything).
 *
 * <p>Invariants: (1) the sum of the stripes is the number of calls inside the gate; (2) once
 * {@link #closeAndDrain()} returns, that sum stays zero for good.
 *
 * <p>Thread safety: safe. {@code enter}/{@code exit} take no lock and allocate nothing: each thread
 * counts in a stripe picked by its id, on its own cache line, so readers on different cores do not
 * contend. Calls nest (a cursor step that reads the primary index enters twice).
 */
final class OperationGate {

    /** Longs per stripe: one 64-byte cache line, so stripes do not share lines. */
    private static final int PAD = 8;
    private static final int STRIPES = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1) << 1;

    private final AtomicLongArray counts = new AtomicLongArray(STRIPES * PAD);
    private final String what;
    private volatile boolean closed;

    /** @param what names the engine in the {@link EngineClosedException} message */
    OperationGate(String what) {
        this.what = what;
    }

    private static int slot() {
        long id = Thread.currentThread().getId();
        return (int) ((id ^ (id >>> 16)) & (STRIPES - 1)) * PAD;
    }

    /**
     * Enters the gate. Every successful call must be paired with {@link #exit()} in a finally block.
     *
     * @throws EngineClosedException if the engine is closing or closed
     */
    void enter() {
        int slot = slot();
        counts.incrementAndGet(slot);
        if (closed) {
            counts.decrementAndGet(slot);
            throw new EngineClosedException(what + " is closed");
        }
    }

    void exit() {
        counts.decrementAndGet(slot());
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Shuts the gate and waits until every call inside has left. Calls inside are short (one read,
     * one cursor step, one commit), so the wait is too; it parks briefly between checks.
     */
    void closeAndDrain() {
        closed = true;
        for (int attempt = 0; inside() != 0; attempt++) {
            if (attempt < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
        }
    }

    private long inside() {
        long sum = 0;
        for (int i = 0; i < STRIPES; i++) {
            sum += counts.get(i * PAD);
        }
        return sum;
    }
}
