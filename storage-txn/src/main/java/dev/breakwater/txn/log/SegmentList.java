package dev.breakwater.txn.log;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The segment files a {@link LogManager} keeps, ascending by first LSN, with the bytes each sealed
 * one takes on disk (less than its LSN span once packed: {@link PackedSegmentFormat}). The last one
 * is the active segment, which the flusher writes; all others are complete and synced.
 *
 * <p>Invariants: (1) never empty; (2) a segment is added only after the one before it was synced
 * and closed, so any segment with a successor in the list is complete (sealed); (3) the active
 * (last) segment is never removed and never packed; (4) {@code stored} has an entry for exactly the
 * sealed segments; {@code sealedStored} is the sum of its values.
 *
 * <p>Thread safety: safe; every method holds this object's monitor.
 */
final class SegmentList {

    /** A sealed segment: the LSNs {@code [firstLsn, endLsn)}, {@code storedBytes} on disk. */
    record Sealed(long firstLsn, long endLsn, long storedBytes, boolean packed) {
    }

    @GuardedBy("this")
    private final ArrayDeque<Long> firstLsns = new ArrayDeque<>();
    /** Sealed segment first LSN to {bytes on disk, 1 if packed}. */
    @GuardedBy("this")
    private final Map<Long, long[]> stored = new HashMap<>();
    @GuardedBy("this")
    private long sealedStored;

    /** A list of plain segments (each sealed one stores its whole span). */
    SegmentList(long[] initial) {
        this(initial, null, null);
    }

    /**
     * @param storedBytes bytes on disk of each segment but the last (null: each stores its span)
     * @param packed      whether each segment but the last is packed (null: none)
     */
    SegmentList(long[] initial, long[] storedBytes, boolean[] packed) {
        if (initial.length == 0) {
            throw new IllegalArgumentException("a log has at least one segment");
        }
        for (int i = 0; i < initial.length; i++) {
            firstLsns.addLast(initial[i]);
            if (i < initial.length - 1) {
                long bytes = storedBytes == null ? initial[i + 1] - initial[i] : storedBytes[i];
                stored.put(initial[i], new long[] {bytes, packed != null && packed[i] ? 1 : 0});
                sealedStored += bytes;
            }
        }
    }

    /** Adds a new active segment starting at {@code firstLsn}; the previous one is sealed, plain. */
    synchronized void add(long firstLsn) {
        long previous = firstLsns.getLast();
        if (firstLsn <= previous) {
            throw new IllegalStateException("segment " + firstLsn + " does not follow " + previous);
        }
        firstLsns.addLast(firstLsn);
        stored.put(previous, new long[] {firstLsn - previous, 0});
        sealedStored += firstLsn - previous;
    }

    /** First LSN of the oldest segment kept. */
    synchronized long firstLsn() {
        return firstLsns.getFirst();
    }

    /** First LSN of the active segment. */
    synchronized long activeFirstLsn() {
        return firstLsns.getLast();
    }

    synchronized int count() {
        return firstLsns.size();
    }

    /** Bytes the sealed segments take on disk. */
    synchronized long sealedStoredBytes() {
        return sealedStored;
    }

    /** The sealed segments, oldest first. */
    synchronized List<Sealed> sealed() {
        List<Sealed> out = new ArrayList<>(firstLsns.size());
        long previous = -1;
        for (long first : firstLsns) {
            if (previous >= 0) {
                long[] s = stored.get(previous);
                out.add(new Sealed(previous, first, s[0], s[1] != 0));
            }
            previous = first;
        }
        return out;
    }

    /** True if {@code firstLsn} is a sealed segment of the list. */
    synchronized boolean isSealed(long firstLsn) {
        return stored.containsKey(firstLsn);
    }

    /** Records that the sealed segment {@code firstLsn} was replaced by a packed file of {@code bytes}. */
    synchronized void packed(long firstLsn, long bytes) {
        long[] s = stored.get(firstLsn);
        if (s == null) {
            throw new IllegalStateException("segment " + firstLsn + " is not a sealed segment of the log");
        }
        sealedStored += bytes - s[0];
        s[0] = bytes;
        s[1] = 1;
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
                sealedStored -= stored.remove(first)[0];
            } else {
                firstLsns.addFirst(first);
                break;
            }
        }
        return Arrays.copyOf(removed, n);
    }
}
