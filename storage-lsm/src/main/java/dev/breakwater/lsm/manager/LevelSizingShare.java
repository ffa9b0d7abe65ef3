package dev.breakwater.lsm.manager;

/**
 * The write-memory share {@code a_i·M_w} one tree's disk levels are sized from (paper 000 §4.1.3:
 * level targets, adding and retiring L1, the L0 volume trigger), kept apart from the fast average
 * the flush policy reports.
 *
 * <h2>Why a second, slower average</h2>
 * The manager averages each tree's memory over about half a second (weight 0.01 per 5 ms tick).
 * That average swings with every seal and flush: under TPC-C at 32 MiB of write memory stock's
 * went from the 4 MiB floor to 9.3 MiB between merges seconds apart (issue 12, sixth session), and
 * {@code target(L1) = max(M·T, |L2|/T)} swung with it, so a dip let a 43 MB L1 (one table) merge
 * into the whole 115 MB L2. A tree that stops being written (a YCSB phase that writes other trees,
 * issue 13) sees its average fall to the floor within seconds, and the next flush adds an empty L1
 * sized for a share it will have again once writes resume.
 *
 * <h2>Rule</h2>
 * Each update moves this share toward the fast average by {@code dt / min(timeConstant, written)}
 * (at most all the way), where {@code dt} is the time since the previous update and {@code written}
 * the time the tree has been written since the first update (this one's {@code dt} included),
 * <em>but only if the tree wrote since then</em>: the share is an average over the time the tree is
 * written. For the first time constant of writes that is their plain mean, so the first written
 * update replaces the registration guess and none of the guess is left when the share settles
 * (with {@code dt / timeConstant} throughout, 37% of it was: computed, a reopened tree written with
 * 28 MB on a 4 MB guess settles at 19 MB, under which its levels, sized for 28 MB, are over target).
 * The time constant is
 * {@link #TIME_CONSTANT_NANOS} (10 s) unless {@link WriteMemoryOptions#levelShareTimeConstantNanos}
 * says otherwise: tens of seal/flush cycles, while the tuner's steps (every 5 s at the fastest,
 * every 10 minutes by default) are followed within a few of its cycles. An idle
 * tree keeps the share it was written with. The first update takes the fast average as it is.
 *
 * <h2>Settled</h2>
 * Right after the tree is registered (an engine just opened, a dataset just created) the share is
 * the floor or whatever the tree held then, not the memory it will be written with: sized from it,
 * a reopened tree whose L1 fits its real share found {@code |L1| > M·T} and added a level on its
 * first flush, and its old L1 was then merged down into a last level of a GB (issue 13: 3.9 GB of
 * L2 → L3 merges in a YCSB phase after a reopen). So the share is {@link #settled()} only after the
 * tree has been written for one time constant; until then the tree keeps its number of levels, and
 * its level targets do not fall below the shape it had when it was registered
 * ({@code LsmTree.setLevelCountSettled}; issue 13, tenth session: a read-only YCSB phase merged
 * 0.8–1.4 GB on the guess), nor is its L0 due by bytes until it has grown. A tree that is never
 * written never settles, so the guess never merges a level of it; L0's group-count triggers never
 * wait for a settled share.
 *
 * <p>Thread safety: not thread-safe; confined to the manager's {@code tick} (one thread at a time).
 */
final class LevelSizingShare {

    /** Default time over which the share follows a change of the fast average (1/e of the gap left). */
    static final long TIME_CONSTANT_NANOS = 10_000_000_000L;

    private final long timeConstantNanos;
    private double share = Double.NaN;
    private long lastEntriesWritten;
    private long lastNanos;
    private long writtenNanos;

    /** @param timeConstantNanos the time constant, normally {@link #TIME_CONSTANT_NANOS} */
    LevelSizingShare(long timeConstantNanos) {
        if (timeConstantNanos <= 0) {
            throw new IllegalArgumentException("time constant must be positive, got " + timeConstantNanos);
        }
        this.timeConstantNanos = timeConstantNanos;
    }

    /**
     * One update.
     *
     * @param fastShare       the manager's fast average of the tree's memory, in bytes
     * @param entriesWritten  the tree's written entries so far (its write clock: unchanged means idle)
     * @param nowNanos        a monotonic time in nanoseconds
     * @return the share to size levels from, in bytes (before the manager's floor)
     */
    long update(double fastShare, long entriesWritten, long nowNanos) {
        if (Double.isNaN(share)) {
            share = fastShare;
        } else if (entriesWritten != lastEntriesWritten) {
            long dt = Math.max(0, nowNanos - lastNanos);
            writtenNanos = Math.min(timeConstantNanos, writtenNanos + dt);
            // dt / written time while that is under one time constant: the mean over the writes so far, not the guess
            double w = writtenNanos == 0 ? 1.0 : Math.min(1.0, dt / (double) writtenNanos);
            share += w * (fastShare - share);
        }
        lastEntriesWritten = entriesWritten;
        lastNanos = nowNanos;
        return (long) share;
    }

    /** True once the tree has been written for at least one time constant since the first update. */
    boolean settled() {
        return writtenNanos >= timeConstantNanos;
    }
}
