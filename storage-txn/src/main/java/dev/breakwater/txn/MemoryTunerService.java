package dev.breakwater.txn;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.tuner.CostDerivative;
import dev.breakwater.tuner.CostModel;
import dev.breakwater.tuner.CycleTrigger;
import dev.breakwater.tuner.MemoryTuner;
import dev.breakwater.tuner.StepReason;
import dev.breakwater.tuner.TunerSettings;
import dev.breakwater.tuner.TuningCycle;
import dev.breakwater.tuner.TuningDecision;
import dev.breakwater.tuner.TuningHistory;
import dev.breakwater.tuner.TuningSample;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the memory tuner's cycles on a live engine (paper 000 §5.4, docs/tuner.md): a cycle starts
 * when the log has grown by {@code max-log-size} since the last one, or when {@code tuner-period}
 * has passed; it reads the statistics, asks {@link MemoryTuner} for a split, applies it with the
 * engine's resize methods, records it in the history and logs one INFO line.
 *
 * <p>Applying a split keeps the total constant: the region that shrinks is resized first, then the
 * one that grows gets {@code total − (what the shrinking one reached)}, so the two never hold more
 * than {@code total} together. With {@code tuner} off the cycles still run and are recorded (cost
 * over time at a fixed split, for benchmarks) but take no step.
 *
 * <p>Invariants: (1) at most one cycle runs at a time ({@code cycleLock}); (2) after every cycle,
 * write-memory capacity plus buffer-cache capacity equals {@link #totalMemory()} (up to a shrink of
 * the cache stopped by pinned frames, which the cycle records as the cache it reached). While a cycle
 * applies a step the sum is transiently lower by the step: the shrinking region is resized first, so
 * the engine never holds more than the total.
 *
 * <p>Thread safety: {@link #runCycle} is safe from any thread; the background thread is started and
 * stopped by the engine.
 */
final class MemoryTunerService implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryTunerService.class);
    /** How often the thread checks its triggers; a cycle is never shorter than the log or timer says. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Longest a write-memory shrink waits for flushes to bring usage under the new size. */
    private static final long SHRINK_WAIT_MILLIS = 10_000;

    private final StorageEngine engine;
    private final boolean enabled;
    private final MemoryTuner tuner;
    private final TuningHistory history;
    private final long totalMemory;
    private final long periodNanos;
    private final long maxLogBytes;
    private final long seed;
    private final ReentrantLock cycleLock = new ReentrantLock();
    /** Statistics at the end of the last cycle. Guarded by cycleLock. */
    private EngineStatistics last;
    /** Log bytes appended at the end of the last cycle, and its time. Guarded by cycleLock. */
    private long lastLogBytes;
    private volatile long lastCycleNanos;
    private volatile boolean running;
    private Thread thread;

    MemoryTunerService(StorageEngine engine) {
        this.engine = engine;
        StorageConfig c = engine.config;
        this.enabled = c.get(ConfigOptions.TUNER);
        this.totalMemory = c.get(ConfigOptions.TOTAL_MEMORY);
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(c.get(ConfigOptions.TUNER_PERIOD));
        this.maxLogBytes = c.get(ConfigOptions.MAX_LOG_SIZE);
        this.seed = c.get(ConfigOptions.TUNER_SEED);
        this.tuner = new MemoryTuner(settings(c, engine.cache.pageSize()));
        this.history = new TuningHistory(c.get(ConfigOptions.TUNER_HISTORY));
    }

    /**
     * The controller settings for a configuration. Write-memory floor: the option, and at least two
     * active memory components (M0) below the flush threshold, so one can fill while the other
     * flushes. Cache floor: the option in pages, at least one chunk. Splits move in chunks.
     */
    static TunerSettings settings(StorageConfig c, int pageSize) {
        long total = c.get(ConfigOptions.TOTAL_MEMORY);
        long granule = StorageEngine.cacheChunkBytes(pageSize);
        long m0 = DatasetDirectory.activeComponentBytes(c);
        long writeFloor = Math.max(c.get(ConfigOptions.TUNER_WRITE_MEMORY_FLOOR),
                (long) Math.ceil(2 * m0 / c.get(ConfigOptions.FLUSH_THRESHOLD)));
        long cacheFloor = Math.max(granule, (long) c.get(ConfigOptions.TUNER_CACHE_FLOOR_PAGES) * pageSize);
        long minStep = Math.max(granule, (long) (c.get(ConfigOptions.TUNER_MIN_STEP) * total));
        return new TunerSettings(c.get(ConfigOptions.TUNER_WRITE_WEIGHT), c.get(ConfigOptions.TUNER_READ_WEIGHT),
                c.get(ConfigOptions.TUNER_SAMPLES), c.get(ConfigOptions.TUNER_FALLBACK_STEP),
                c.get(ConfigOptions.TUNER_MAX_DECREASE), minStep, c.get(ConfigOptions.TUNER_MIN_GAIN), writeFloor,
                cacheFloor, granule, c.get(ConfigOptions.SIZE_RATIO), c.get(ConfigOptions.TUNER_FLUSH_CAUSE_SCALING),
                c.get(ConfigOptions.TUNER_CLIMB_SAMPLES), c.get(ConfigOptions.TUNER_MAX_STEP),
                c.get(ConfigOptions.TUNER_QUERY_LEVELS));
    }

    long totalMemory() {
        return totalMemory;
    }

    List<TuningCycle> history() {
        return history.cycles();
    }

    void start() {
        cycleLock.lock();
        try {
            if (enabled && seed > 0) {
                if (seed >= totalMemory) {
                    throw new IllegalArgumentException("tuner-seed " + seed + " must be below total-memory " + totalMemory
                            + "; set it to the write memory the tuner should start from, or 0 to start from write-memory");
                }
                seedLocked(seed);
            }
            last = EngineStatistics.of(engine);
            lastLogBytes = last.log().appendedBytes();
            lastCycleNanos = System.nanoTime();
        } finally {
            cycleLock.unlock();
        }
        running = true;
        thread = new Thread(this, "breakwater-tuner");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(SHRINK_WAIT_MILLIS + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        while (running) {
            LockSupport.parkNanos(Math.min(POLL_NANOS, periodNanos));
            if (!running || engine.isFailed()) {
                continue;
            }
            try {
                if (engine.log.statistics().appendedBytes() - lastLogBytes >= maxLogBytes) {
                    runCycle(CycleTrigger.LOG);
                } else if (System.nanoTime() - lastCycleNanos >= periodNanos) {
                    runCycle(CycleTrigger.TIMER);
                }
            } catch (RuntimeException e) {
                LOG.warn("memory tuner cycle failed; the split stays as it is: {}", e.toString());
                lastCycleNanos = System.nanoTime();
            }
        }
    }

    /**
     * Sets write memory to {@code writeMemory} (the buffer cache gets the rest) and forgets the
     * tuner's samples, which were taken at other splits: how a host or a design advisor seeds the
     * tuner, and how tests move the walls on demand. Returns the write memory reached.
     */
    long seed(long writeMemory) {
        if (writeMemory <= 0 || writeMemory >= totalMemory) {
            throw new IllegalArgumentException("seed write memory " + writeMemory + " must be in (0, total-memory "
                    + totalMemory + ")");
        }
        cycleLock.lock();
        try {
            return seedLocked(writeMemory);
        } finally {
            cycleLock.unlock();
        }
    }

    private long seedLocked(long writeMemory) {
        long reached = apply(engine.pool.capacityBytes(), writeMemory);
        tuner.reset();
        LOG.info("memory tuner seeded: write memory {} MiB, buffer cache {} MiB", reached >> 20,
                engine.cache.capacityBytes() >> 20);
        return reached;
    }

    /** Runs one cycle now (after any cycle in progress) and returns it. */
    TuningCycle runCycle(CycleTrigger trigger) {
        cycleLock.lock();
        try {
            EngineStatistics now = EngineStatistics.of(engine);
            long x = now.writeMemoryCapacity();
            TuningSample sample = TuningSampleAdapter.sample(last, now, x, totalMemory, engine.cache.pageSize());
            TuningDecision decision = enabled ? tuner.decide(sample) : measureOnly(sample);
            long reached = decision.delta() == 0 ? x : apply(x, decision.writeMemoryAfter());
            TuningCycle cycle = TuningCycle.of(System.currentTimeMillis(), trigger, sample, decision, reached,
                    engine.cache.capacityBytes());
            history.add(cycle);
            LOG.info(cycle.describe());
            last = decision.delta() == 0 ? now : EngineStatistics.of(engine);
            lastLogBytes = last.log().appendedBytes();
            lastCycleNanos = System.nanoTime();
            return cycle;
        } finally {
            cycleLock.unlock();
        }
    }

    /** With the tuner off: the cycle's cost and derivative for the record, and no step. */
    private TuningDecision measureOnly(TuningSample sample) {
        TunerSettings s = tuner.settings();
        CostDerivative d = sample.ops() == 0 ? null : CostModel.derive(sample, s.omega(), s.gamma(), s.sizeRatio(), s.flushCauseScaling(),
                s.queryLevels());
        long x = sample.writeMemoryBytes();
        return new TuningDecision(x, x, StepReason.STOP_DISABLED, d, Double.NaN, 0, false, false);
    }

    /**
     * Moves from write memory {@code x} to {@code target}, shrinking first. Returns the write memory
     * reached. Requires: cycleLock held.
     */
    private long apply(long x, long target) {
        if (target > x) {
            long cache = engine.resizeBufferCache(totalMemory - target);
            long write = totalMemory - cache;
            engine.resizeWriteMemory(write, 0);
            return engine.pool.capacityBytes();
        }
        engine.resizeWriteMemory(target, SHRINK_WAIT_MILLIS);
        long write = engine.pool.capacityBytes();
        engine.resizeBufferCache(totalMemory - write);
        return write;
    }
}
