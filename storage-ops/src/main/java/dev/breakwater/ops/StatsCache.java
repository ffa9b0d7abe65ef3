package dev.breakwater.ops;

import dev.breakwater.txn.EngineClosedException;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.StorageEngine;

/**
 * The engine's statistics, taken at most once per {@link #maxAgeNanos}: one JMX or Micrometer scrape
 * reads tens of figures, and each would otherwise take a full {@link StorageEngine#statistics()}
 * snapshot (which walks every tree). Figures read in one scrape therefore come from one snapshot.
 *
 * <p>After the engine closes, {@link #get()} keeps returning the last snapshot, so counters stay
 * monotonic for registries that outlive the engine; {@link #isEngineOpen()} tells the difference.
 *
 * <p>Invariant: {@link #last} is {@code null} only before the first successful snapshot.
 * Thread safety: safe; {@link #get()} is synchronized (it runs at scrape rate, not on a hot path).
 */
public final class StatsCache {

    /** Scrapes closer together than this share a snapshot; much shorter than any scrape interval. */
    public static final long DEFAULT_MAX_AGE_NANOS = 200_000_000L;

    private final StorageEngine engine;
    private final long maxAgeNanos;
    // @GuardedBy("this")
    private EngineStatistics last;
    // @GuardedBy("this")
    private long takenAt;
    private volatile boolean engineOpen = true;

    public StatsCache(StorageEngine engine, long maxAgeNanos) {
        this.engine = engine;
        this.maxAgeNanos = maxAgeNanos;
    }

    /**
     * A recent snapshot.
     *
     * @throws EngineClosedException if the engine closed before any snapshot was taken
     */
    public synchronized EngineStatistics get() {
        return get(false);
    }

    /**
     * A snapshot taken now (if the engine is open), for callers that must see a change they just
     * made, such as a dataset just created.
     *
     * @throws EngineClosedException if the engine closed before any snapshot was taken
     */
    public synchronized EngineStatistics fresh() {
        return get(true);
    }

    // @GuardedBy("this")
    private EngineStatistics get(boolean now) {
        long t = System.nanoTime();
        if (last == null || (engineOpen && (now || t - takenAt >= maxAgeNanos))) {
            try {
                last = engine.statistics();
                takenAt = t;
            } catch (EngineClosedException e) {
                engineOpen = false;
                if (last == null) {
                    throw e;
                }
            }
        }
        return last;
    }

    /** False once a snapshot found the engine closed. */
    public boolean isEngineOpen() {
        return engineOpen;
    }
}
