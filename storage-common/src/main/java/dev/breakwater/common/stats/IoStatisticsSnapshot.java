package dev.breakwater.common.stats;

import java.util.EnumMap;
import java.util.Map;

/**
 * An immutable copy of {@link IoStatistics}: pages and bytes read and written, indexed by
 * {@link IoPurpose}. Snapshots subtract, so a benchmark reports the I/O of one phase as
 * {@code after.minus(before)}.
 */
public final class IoStatisticsSnapshot {

    private final long[] pagesRead;
    private final long[] bytesRead;
    private final long[] pagesWritten;
    private final long[] bytesWritten;

    IoStatisticsSnapshot(long[] pagesRead, long[] bytesRead, long[] pagesWritten, long[] bytesWritten) {
        this.pagesRead = pagesRead;
        this.bytesRead = bytesRead;
        this.pagesWritten = pagesWritten;
        this.bytesWritten = bytesWritten;
    }

    /** A snapshot with every counter zero. */
    public static IoStatisticsSnapshot empty() {
        int n = IoPurpose.COUNT;
        return new IoStatisticsSnapshot(new long[n], new long[n], new long[n], new long[n]);
    }

    public long pagesRead(IoPurpose purpose) {
        return pagesRead[purpose.ordinal()];
    }

    public long bytesRead(IoPurpose purpose) {
        return bytesRead[purpose.ordinal()];
    }

    public long pagesWritten(IoPurpose purpose) {
        return pagesWritten[purpose.ordinal()];
    }

    public long bytesWritten(IoPurpose purpose) {
        return bytesWritten[purpose.ordinal()];
    }

    public long totalBytesRead() {
        return sum(bytesRead);
    }

    public long totalBytesWritten() {
        return sum(bytesWritten);
    }

    public long totalPagesRead() {
        return sum(pagesRead);
    }

    public long totalPagesWritten() {
        return sum(pagesWritten);
    }

    /** The counts accumulated between {@code earlier} and this snapshot. */
    public IoStatisticsSnapshot minus(IoStatisticsSnapshot earlier) {
        return new IoStatisticsSnapshot(diff(pagesRead, earlier.pagesRead), diff(bytesRead, earlier.bytesRead),
                diff(pagesWritten, earlier.pagesWritten), diff(bytesWritten, earlier.bytesWritten));
    }

    /** A map view for JSON reports: purpose name to {pagesRead, bytesRead, pagesWritten, bytesWritten}. */
    public Map<IoPurpose, Map<String, Long>> asMap() {
        Map<IoPurpose, Map<String, Long>> m = new EnumMap<>(IoPurpose.class);
        for (IoPurpose p : IoPurpose.values()) {
            m.put(p, Map.of("pagesRead", pagesRead(p), "bytesRead", bytesRead(p),
                    "pagesWritten", pagesWritten(p), "bytesWritten", bytesWritten(p)));
        }
        return m;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    private static long[] diff(long[] a, long[] b) {
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    @Override
    public String toString() {
        return "IoStatisticsSnapshot" + asMap();
    }
}
