package dev.breakwater.tpcc;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on a terminal stream: percentage, count, rate and ETA, redrawn in place
 * with a carriage return.
 *
 * <p>Thread safety: call {@link #update} from one thread (the reporter).
 */
final class ProgressBar {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final String label;
    private final long total;
    private final long startNanos = System.nanoTime();

    ProgressBar(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = total;
    }

    void update(long done) {
        double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
        double fraction = Math.min(1.0, total == 0 ? 1.0 : (double) done / total);
        double rate = done / seconds;
        long eta = rate > 0 ? Math.round((total - done) / rate) : -1;
        int filled = (int) Math.round(fraction * WIDTH);
        out.printf(Locale.ROOT, "\r%s [%s%s] %5.1f%% %,d/%,d rows %,.0f rows/s ETA %s   ", label, "#".repeat(filled),
                " ".repeat(WIDTH - filled), fraction * 100, done, total, rate, eta < 0 ? "?" : formatSeconds(eta));
        out.flush();
    }

    void finish(long done) {
        update(done);
        out.println();
    }

    static String formatSeconds(long s) {
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }
}
