package dev.breakwater.txn.log;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The first LSNs of the segment files a {@link LogManager} keeps, ascending. The last one is the
 * active segment, which the flusher writes; all others are complete and synced.
 *
 * <p>Invariants: (1) never empty; (2) a segment is added only after the one before it was synced
 * and closed, so any segment with a successor in the list is complete; (3) the active (last)
 * segment is never removed.
 *
 * <p>Thread safety: safe; every method holds this object's monitor.
 */
final class SegmentList {

    @GuardedBy("this")
    private final ArrayDeque<Long> firstLsns = new ArrayDeque<>();

    SegmentList(long[] initial) {
        if (initial.length == 0) {
            throw new IllegalArgumentException("a log has at least one segment");
        }
        for (long lsn : initial) {
            firstLsns.addLast(lsn);
        }
    }

    /** Adds a new active segment starting at {@code firstLsn}. */
    synchronized void add(long firstLsn) {
        if (firstLsn <= firstLsns.getLast()) {
            throw new IllegalStateException("segment " + firstLsn + " does not follow " + firstLsns.getLast());
        }
        firstLsns.addLast(firstLsn);
    }

    /** First LSN of the oldest segment kept. */
    synchronized long firstLsn() {
        return firstLsns.getFirst();
    }

    synchronized int count() {
        return firstLsns.size();
    }

    /** True if {@link #removeBefore} with this {@code lsn} would remove a segment. */
    synchronized boolean anyBefore(long lsn) {
        if (firstLsns.size() < 2) {
            return false;
        }
        var it = firstLsns.iterator();
        it.next();
        return it.next() <= lsn;
    }

    /**
     * Removes and returns the segments all of whose records lie below {@code lsn}: those whose
     * successor starts at or below {@code lsn}. The active segment stays.
     */
    synchronized long[] removeBefore(long lsn) {
        long[] removed = new long[firstLsns.size()];
        int n = 0;
        while (firstLsns.size() > 1) {
            long first = firstLsns.removeFirst();
            if (firstLsns.getFirst() <= lsn) {
                removed[n++] = first;
            } else {
                firstLsns.addFirst(first);
                break;
            }
        }
        return Arrays.copyOf(removed, n);
    }
}
