package dev.breakwater.ops.micrometer;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.ops.StatsCache;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.StorageEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds an engine's figures (the same as {@code /stats}) to a Micrometer registry:
 * <pre>{@code new BreakwaterMetrics(engine).bindTo(registry);}</pre>
 *
 * <p>Meters (all with the tag {@code engine}, the data directory): gauges
 * {@code breakwater.write.memory.used|capacity}, {@code breakwater.buffer.cache.capacity},
 * {@code breakwater.log.size} and per tree {@code breakwater.tree.memory} and
 * {@code breakwater.tree.disk}; counters {@code breakwater.io.pages.read|written} (tag
 * {@code purpose}), {@code breakwater.buffer.cache.hits|misses|evictions},
 * {@code breakwater.log.records|fsyncs}, {@code breakwater.lock.waits|deadlocks},
 * {@code breakwater.transaction.retries} and per tree (tag {@code tree}) {@code breakwater.tree.entries.written},
 * {@code breakwater.tree.flushes}, {@code breakwater.tree.merges}, {@code breakwater.tree.flushed}
 * and {@code breakwater.tree.merge.written} (bytes).
 *
 * <p>Tree meters are bound for the trees that exist when {@link #bindTo} runs; call it again after
 * creating datasets (meters already bound are kept, the registry deduplicates them). The figures of
 * one scrape come from one snapshot ({@link StatsCache}); after the engine closes, the meters keep
 * their last values.
 *
 * <p>Thread safety: safe.
 */
public final class BreakwaterMetrics implements MeterBinder {

    private final StatsCache stats;
    private final Tags tags;

    /** Meters for {@code engine}, tagged {@code engine=<its directory>}. */
    public BreakwaterMetrics(StorageEngine engine) {
        this(engine, Tags.of(Tag.of("engine", engine.directory().toAbsolutePath().normalize().toString())));
    }

    /** Meters for {@code engine} with the host's own {@code tags} (use them to tell engines apart). */
    public BreakwaterMetrics(StorageEngine engine, Iterable<Tag> tags) {
        this(engine, tags, Duration.ofNanos(StatsCache.DEFAULT_MAX_AGE_NANOS));
    }

    /**
     * Meters for {@code engine} with {@code tags}, where reads less than {@code maxAge} apart share one
     * statistics snapshot ({@link Duration#ZERO}: every read takes a fresh one).
     */
    public BreakwaterMetrics(StorageEngine engine, Iterable<Tag> tags, Duration maxAge) {
        this.stats = new StatsCache(engine, maxAge.toNanos());
        this.tags = Tags.of(tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "breakwater.write.memory.used", "bytes", "write memory held by memory components", Tags.empty(),
                s -> s.writeMemoryUsed());
        gauge(registry, "breakwater.write.memory.capacity", "bytes", "the write-memory budget", Tags.empty(),
                s -> s.writeMemoryCapacity());
        gauge(registry, "breakwater.buffer.cache.capacity", "bytes", "buffer-cache capacity", Tags.empty(),
                s -> s.bufferCache().capacityBytes());
        gauge(registry, "breakwater.log.size", "bytes", "length of the retained transaction log", Tags.empty(),
                s -> s.logSizeBytes());
        for (IoPurpose p : IoPurpose.values()) {
            Tags purpose = Tags.of("purpose", p.name().toLowerCase(Locale.ROOT));
            counter(registry, "breakwater.io.pages.read", "pages", "pages read", purpose, s -> s.io().pagesRead(p));
            counter(registry, "breakwater.io.pages.written", "pages", "pages written", purpose, s -> s.io().pagesWritten(p));
        }
        counter(registry, "breakwater.buffer.cache.hits", null, "pins served from the buffer cache", Tags.empty(),
                s -> s.bufferCache().totalHits());
        counter(registry, "breakwater.buffer.cache.misses", null, "pins that read a page", Tags.empty(),
                s -> s.bufferCache().totalMisses());
        counter(registry, "breakwater.buffer.cache.evictions", null, "pages evicted", Tags.empty(),
                s -> s.bufferCache().evictions());
        counter(registry, "breakwater.log.records", null, "log records appended (committed write transactions)",
                Tags.empty(), s -> s.log().appendedRecords());
        counter(registry, "breakwater.log.fsyncs", null, "log segment fsyncs", Tags.empty(), s -> s.log().fsyncs());
        counter(registry, "breakwater.lock.waits", null, "lock requests that waited", Tags.empty(), s -> s.locks().waits());
        counter(registry, "breakwater.lock.deadlocks", null, "deadlocks broken by an abort", Tags.empty(),
                s -> s.locks().deadlocks());
        counter(registry, "breakwater.transaction.retries", null, "transactions run again after an abort", Tags.empty(),
                s -> s.transactionRetries());
        for (String tree : stats.fresh().trees().keySet()) {
            Tags t = Tags.of("tree", tree);
            gauge(registry, "breakwater.tree.memory", "bytes", "write memory held by the tree", t,
                    s -> tree(s, tree).memoryBytes());
            gauge(registry, "breakwater.tree.disk", "bytes", "bytes of the tree's SSTables", t,
                    s -> tree(s, tree).levelBytes().stream().mapToLong(Long::longValue).sum());
            counter(registry, "breakwater.tree.entries.written", null, "entries written to the tree", t,
                    s -> tree(s, tree).entriesWritten());
            counter(registry, "breakwater.tree.flushes", null, "flushes", t, s -> tree(s, tree).flushes());
            counter(registry, "breakwater.tree.merges", null, "merges", t, s -> tree(s, tree).merges());
            counter(registry, "breakwater.tree.flushed", "bytes", "bytes written by flushes", t,
                    s -> tree(s, tree).bytesFlushed());
            counter(registry, "breakwater.tree.merge.written", "bytes", "bytes written by merges", t,
                    s -> tree(s, tree).mergeBytesWritten());
        }
    }

    private static TreeStatisticsSnapshot tree(EngineStatistics s, String name) {
        TreeStatisticsSnapshot t = s.trees().get(name);
        if (t == null) {
            throw new IllegalStateException("tree " + name + " is gone");
        }
        return t;
    }

    private void gauge(MeterRegistry r, String name, String unit, String description, Tags extra,
                       ToDoubleFunction<EngineStatistics> f) {
        Gauge.builder(name, stats, c -> {
                    try {
                        return f.applyAsDouble(c.get());
                    } catch (RuntimeException gone) {
                        return Double.NaN;  // a dropped tree, or an engine closed before its first scrape
                    }
                })
                // Strong: Micrometer holds meter state weakly, and a binder made in one line
                // (new BreakwaterMetrics(engine).bindTo(registry)) has no other owner; the gauges
                // keep the shared StatsCache alive for the function counters too.
                .strongReference(true)
                .baseUnit(unit).description(description).tags(tags).tags(extra).register(r);
    }

    private void counter(MeterRegistry r, String name, String unit, String description, Tags extra,
                         ToLongFunction<EngineStatistics> f) {
        FunctionCounter.builder(name, stats, c -> {
                    try {
                        return f.applyAsLong(c.get());
                    } catch (RuntimeException gone) {
                        return Double.NaN;
                    }
                })
                .baseUnit(unit).description(description).tags(tags).tags(extra).register(r);
    }
}
