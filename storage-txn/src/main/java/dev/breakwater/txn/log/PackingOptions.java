package dev.breakwater.txn.log;

/**
 * Settings of a {@link SegmentPacker} (paper 002 section 3.2).
 *
 * @param compress      LZ4-compress sealed segments in the background
 * @param trim          trim sealed segments of operations no longer only in memory
 * @param trimStart     λ_t: a trim pass starts when sealed bytes on disk exceed this many times the
 *                      bytes of data in write memory
 * @param trimStop      λ_s: a pass that got the log below this many times stops; otherwise the next
 *                      pass waits until the sealed log grew by one segment (it cannot trim more yet)
 * @param periodMillis  how often the packer looks for work
 * @param maxLogBytes   the log's {@code max-log-size}, where log-triggered flushes fire (on the size
 *                      on disk); a trim pass also starts when the log takes half of it on disk, so that
 *                      trimming runs before the flushes it is meant to spare even when λ_t times write
 *                      memory lies above this wall ({@link Long#MAX_VALUE}: no wall)
 * @param minDeadRatio  a pass rewrites a sealed segment by choice only when at least this fraction
 *                      of its payload bytes would be left out (0: every segment that would change);
 *                      it still rewrites older segments where safety needs it ({@link SegmentPacker})
 */
public record PackingOptions(boolean compress, boolean trim, double trimStart, double trimStop, long periodMillis,
                             long maxLogBytes, double minDeadRatio) {

    /** Packing off: today's log. */
    public static final PackingOptions OFF = new PackingOptions(false, false, 2.5, 1.5, 50);

    /** Options without a log wall: trimming starts on λ_t alone; every changed segment is rewritten. */
    public PackingOptions(boolean compress, boolean trim, double trimStart, double trimStop, long periodMillis) {
        this(compress, trim, trimStart, trimStop, periodMillis, Long.MAX_VALUE, 0);
    }

    /** Every segment a pass would change is rewritten ({@code minDeadRatio} 0). */
    public PackingOptions(boolean compress, boolean trim, double trimStart, double trimStop, long periodMillis,
                          long maxLogBytes) {
        this(compress, trim, trimStart, trimStop, periodMillis, maxLogBytes, 0);
    }

    public PackingOptions {
        if (maxLogBytes < 1) {
            throw new IllegalArgumentException("maxLogBytes must be positive: " + maxLogBytes);
        }
        if (!(trimStart >= 1) || !(trimStop >= 1) || trimStop > trimStart) {
            throw new IllegalArgumentException("need 1 <= trimStop <= trimStart: trimStop " + trimStop + ", trimStart "
                    + trimStart);
        }
        if (!(minDeadRatio >= 0 && minDeadRatio <= 1)) {
            throw new IllegalArgumentException("minDeadRatio must be in [0, 1]: " + minDeadRatio);
        }
        if (periodMillis < 1) {
            throw new IllegalArgumentException("periodMillis must be at least 1: " + periodMillis);
        }
    }

    /** Bytes of log on disk above which a trim pass is due whatever λ is: half of {@link #maxLogBytes}. */
    public long trimWallBytes() {
        return maxLogBytes / 2;
    }

    /** True if the packer has anything to do. */
    public boolean enabled() {
        return compress || trim;
    }
}
