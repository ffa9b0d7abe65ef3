package dev.breakwater.lsm.manager;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Write rates of trees measured over a window of log length (paper 000, section 4.2: rates over one
 * maximum log length), from periodic samples of each tree's entry count tagged with the log
 * position. A tree's rate is the entries it took between the oldest sample still inside the window
 * and now; shares are rates over their sum.
 *
 * <p>Thread safety: none; used by the manager's thread.
 */
final class WriteRates {

    private record Sample(long logPosition, Map<ManagedTree, Long> entries) {
    }

    private final long windowBytes;
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();

    WriteRates(long windowBytes) {
        this.windowBytes = windowBytes;
    }

    /** Records the trees' entry counts at log position {@code logPosition}. */
    void sample(long logPosition, Iterable<ManagedTree> trees) {
        Sample last = samples.peekLast();
        if (last != null && logPosition - last.logPosition() < windowBytes / 16 && samples.size() > 1) {
            return; // keep about 16 samples per window
        }
        Map<ManagedTree, Long> m = new HashMap<>();
        for (ManagedTree t : trees) {
            m.put(t, t.entriesWritten());
        }
        samples.addLast(new Sample(logPosition, m));
        while (samples.size() > 2 && logPosition - samples.peekFirst().logPosition() > windowBytes
                && logPosition - secondOldest().logPosition() >= windowBytes) {
            samples.removeFirst();
        }
    }

    private Sample secondOldest() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    /** Entries each tree took within the window (trees without an old sample count from zero). */
    Map<ManagedTree, Long> rates(Iterable<ManagedTree> trees) {
        Map<ManagedTree, Long> r = new HashMap<>();
        Sample first = samples.peekFirst();
        for (ManagedTree t : trees) {
            long then = first == null ? 0 : first.entries().getOrDefault(t, 0L);
            r.put(t, Math.max(0, t.entriesWritten() - then));
        }
        return r;
    }
}
