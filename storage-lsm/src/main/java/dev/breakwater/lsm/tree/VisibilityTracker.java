package dev.breakwater.lsm.tree;

import dev.breakwater.common.util.Backoff;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Hands out the tree's internal sequence numbers to writers and publishes the highest number below
 * which every write has completed, so that a reader taking {@link #visible()} as its snapshot sees a
 * prefix of the writes: never a later write without an earlier one (the "last published sequence"
 * of RocksDB).
 *
 * <p>Writers call {@link #begin()}, insert with that number, then {@link #complete(long)}, also when
 * the insert failed (the number then publishes nothing). Completions are recorded in a ring; the
 * first writer to find the slot after {@code visible} completed advances it.
 *
 * <p>Invariants: (1) every sequence number {@code <= visible()} has completed; (2) at most
 * {@code RING} numbers are begun but not yet published ({@link #begin()} waits otherwise), so a ring
 * slot is never reused while its number is unpublished.
 *
 * <p>Thread safety: safe; lock-free.
 */
final class VisibilityTracker {

    private static final int RING = 1 << 14;
    private static final int MASK = RING - 1;

    private final AtomicLong next;
    private final AtomicLong visible;
    private final AtomicLongArray done = new AtomicLongArray(RING);

    VisibilityTracker(long lastUsed) {
        next = new AtomicLong(lastUsed);
        visible = new AtomicLong(lastUsed);
        for (int i = 0; i < RING; i++) {
            done.set(i, Long.MIN_VALUE);
        }
    }

    /** The next sequence number; waits while {@code RING} numbers are in flight. */
    long begin() {
        long seq = next.incrementAndGet();
        for (int attempt = 0; seq - visible.get() > RING; attempt++) {
            Backoff.pause(attempt);
        }
        return seq;
    }

    /** Marks {@code seq} complete and advances the published watermark as far as possible. */
    void complete(long seq) {
        done.set((int) (seq & MASK), seq);
        // Whoever completes the number right after the watermark moves it; a completer that finds the
        // next number unfinished may stop, because that number's completer will read this one's slot
        // after writing its own (volatile order) and carry the watermark past it.
        while (true) {
            long v = visible.get();
            long candidate = v + 1;
            if (done.get((int) (candidate & MASK)) != candidate) {
                return;
            }
            visible.compareAndSet(v, candidate);
        }
    }

    /** Every write with a sequence number at or below this has completed. */
    long visible() {
        return visible.get();
    }

    /** The highest sequence number handed out. */
    long lastIssued() {
        return next.get();
    }
}
