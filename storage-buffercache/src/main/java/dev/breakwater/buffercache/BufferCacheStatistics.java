package dev.breakwater.buffercache;

import dev.breakwater.common.stats.IoPurpose;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of a {@link BufferCache}: hits, misses and simulated-cache saves by purpose,
 * evictions and pin timeouts. Striped adders, so counting costs no lock on the pin path.
 *
 * <p>Thread safety: safe.
 */
final class BufferCacheStatistics {

    final LongAdder[] hits = adders();
    final LongAdder[] misses = adders();
    final LongAdder[] saved = adders();
    final LongAdder evictions = new LongAdder();
    final LongAdder pinTimeouts = new LongAdder();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[IoPurpose.COUNT];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    static long[] sums(LongAdder[] adders) {
        long[] s = new long[adders.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = adders[i].sum();
        }
        return s;
    }
}
