package dev.breakwater.common.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of pages and bytes read and written, by {@link IoPurpose}. The hot path is one
 * {@link LongAdder#add} per counter (striped cells, no locks, no allocation after warm-up), so the
 * counters can stay on in production.
 *
 * <p>Thread safety: safe. A {@link #snapshot()} taken while others count is not atomic across
 * counters; each counter is exact at some instant during the call.
 */
public final class IoStatistics {

    private final LongAdder[] pagesRead = adders();
    private final LongAdder[] bytesRead = adders();
    private final LongAdder[] pagesWritten = adders();
    private final LongAdder[] bytesWritten = adders();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[IoPurpose.COUNT];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Records {@code pages} pages totalling {@code bytes} bytes read for {@code purpose}. */
    public void recordRead(IoPurpose purpose, int pages, long bytes) {
        pagesRead[purpose.ordinal()].add(pages);
        bytesRead[purpose.ordinal()].add(bytes);
    }

    /** Records {@code pages} pages totalling {@code bytes} bytes written for {@code purpose}. */
    public void recordWrite(IoPurpose purpose, int pages, long bytes) {
        pagesWritten[purpose.ordinal()].add(pages);
        bytesWritten[purpose.ordinal()].add(bytes);
    }

    /** A point-in-time copy of every counter. */
    public IoStatisticsSnapshot snapshot() {
        return new IoStatisticsSnapshot(sums(pagesRead), sums(bytesRead), sums(pagesWritten), sums(bytesWritten));
    }

    private static long[] sums(LongAdder[] adders) {
        long[] s = new long[adders.length];
        for (int i = 0; i < adders.length; i++) {
            s[i] = adders[i].sum();
        }
        return s;
    }
}
