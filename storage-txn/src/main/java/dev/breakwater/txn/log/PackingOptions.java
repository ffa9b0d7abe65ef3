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
 */
public record PackingOptions(boolean compress, boolean trim, double trimStart, double trimStop, long periodMillis) {

    /** Packing off: today's log. */
    public static final PackingOptions OFF = new PackingOptions(false, false, 2.5, 1.5, 50);

    public PackingOptions {
        if (!(trimStart >= 1) || !(trimStop >= 1) || trimStop > trimStart) {
            throw new IllegalArgumentException("need 1 <= trimStop <= trimStart: trimStop " + trimStop + ", trimStart "
                    + trimStart);
        }
        if (periodMillis < 1) {
            throw new IllegalArgumentException("periodMillis must be at least 1: " + periodMillis);
        }
    }

    /** True if the packer has anything to do. */
    public boolean enabled() {
        return compress || trim;
    }
}
