package dev.breakwater.txn;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the parent of a killed {@link CrashWorkload} knows: for every child run (a cycle), the
 * transaction ids it tried and the ids whose commit was acknowledged. A child numbers its
 * transactions consecutively from its first id and acknowledges them in order, so a cycle is three
 * numbers: first id, last tried, last acknowledged.
 *
 * <p>Invariants: (1) cycles do not overlap: each starts above every id of the earlier ones;
 * (2) within a cycle, {@code first - 1 <= lastAcked <= lastTried}.
 *
 * <p>Thread safety: the recording methods are safe to call from one reader thread per cycle while
 * other threads query; queries see every record made before the child was reaped.
 */
public final class CrashModel {

    /** first id → {lastTried, lastAcked}; guarded by {@code this}. */
    private final TreeMap<Long, long[]> cycles = new TreeMap<>();

    /** Starts a cycle whose child numbers its transactions from {@code firstTxn}. */
    public synchronized void startCycle(long firstTxn) {
        Map.Entry<Long, long[]> last = cycles.lastEntry();
        if (last != null && last.getValue()[0] >= firstTxn) {
            throw new IllegalArgumentException("cycle starting at " + firstTxn + " overlaps the previous one");
        }
        cycles.put(firstTxn, new long[] {firstTxn - 1, firstTxn - 1});
    }

    /** Records one line of the child's output ({@code TRY id} or {@code ACK id}); ignores others. */
    public synchronized void record(String line) {
        if (line.startsWith("TRY ")) {
            long id = Long.parseLong(line.substring(4));
            long[] c = cycleOf(id);
            c[0] = Math.max(c[0], id);
        } else if (line.startsWith("ACK ")) {
            long id = Long.parseLong(line.substring(4));
            long[] c = cycleOf(id);
            c[1] = Math.max(c[1], id);
            c[0] = Math.max(c[0], id);
        }
    }

    private long[] cycleOf(long id) {
        Map.Entry<Long, long[]> e = cycles.floorEntry(id);
        if (e == null) {
            throw new IllegalStateException("transaction " + id + " belongs to no cycle");
        }
        return e.getValue();
    }

    /** Whether the commit of {@code id} was acknowledged. */
    public synchronized boolean acked(long id) {
        Map.Entry<Long, long[]> e = cycles.floorEntry(id);
        return e != null && id <= e.getValue()[1];
    }

    /** Whether {@code id} was ever started by a child (acknowledged or in doubt). */
    public synchronized boolean tried(long id) {
        Map.Entry<Long, long[]> e = cycles.floorEntry(id);
        return e != null && id <= e.getValue()[0];
    }

    /** The number of acknowledged commits over all cycles. */
    public synchronized long ackedCount() {
        long n = 0;
        for (Map.Entry<Long, long[]> e : cycles.entrySet()) {
            n += e.getValue()[1] - e.getKey() + 1;
        }
        return n;
    }
}
