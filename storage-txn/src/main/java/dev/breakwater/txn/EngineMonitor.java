package dev.breakwater.txn;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.tree.LsmTree;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's background housekeeper, one thread, every few milliseconds:
 * <ol>
 *   <li><b>Memory-triggered flush</b>: a tick of the {@link dev.breakwater.lsm.manager.WriteMemoryManager},
 *       which applies the configured scheme and flush policy when the pool passes its threshold.</li>
 *   <li><b>Log-triggered flush</b>: when the log is longer than its maximum (with {@code log-trim}
 *       or {@code log-compression}: takes more than its maximum on disk), flush the trees holding
 *       the oldest LSN still only in memory, so the log can be truncated.</li>
 *   <li><b>Truncation</b>: delete log segments below the oldest LSN any tree holds only in memory
 *       (or any commit has not yet applied).</li>
 *   <li><b>Checkpoint</b>: record that truncation point, the log's durable end and each tree's durable LSN in
 *       {@code checkpoint.json} ({@link CheckpointFile}), for operators and as the lower bound recovery starts from. It
 *       reads a few counters and never blocks commits.</li>
 * </ol>
 *
 * <p>Thread safety: runs on its own thread; {@link #stop()} waits for it.
 */
final class EngineMonitor implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(EngineMonitor.class);
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long CHECKPOINT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final StorageEngine engine;
    private final long maxLogBytes;
    private final boolean packing;
    private volatile boolean running;
    private Thread thread;
    private long lastCheckpoint;
    private long lastCheckpointLsn = -1;

    EngineMonitor(StorageEngine engine) {
        this.engine = engine;
        this.maxLogBytes = engine.config.get(ConfigOptions.MAX_LOG_SIZE);
        this.packing = StorageEngine.packingOptions(engine.config).enabled();
    }

    void start() {
        running = true;
        thread = new Thread(this, "breakwater-monitor");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Wakes the monitor at once (the pool's threshold listener calls this). */
    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                tick();
            } catch (RuntimeException | IOException e) {
                LOG.warn("engine monitor: {}", e.toString());
            }
            LockSupport.parkNanos(PERIOD_NANOS);
        }
    }

    void tick() throws IOException {
        if (engine.isFailed()) {
            return;
        }
        // 1. memory-triggered flush, by the configured scheme and flush policy
        engine.writeMemory.tick();
        // 2. log-triggered flush and 3. truncation. Not past the durable end: the checkpoint
        // records keepFrom as where replay starts, and a crash may lose the records after it.
        long keepFrom = LogKeepPoint.compute(engine.log::durableLsn, engine::oldestUnappliedLsn, engine.trees.values());
        long oldest = engine.oldestUnappliedLsn();
        for (LsmTree t : engine.trees.values()) {
            oldest = Math.min(oldest, t.oldestMemoryLsn());
        }
        // With packing, the log's size is what it takes on disk (paper 002: flushes fire on the trimmed size).
        long logBytes = packing ? engine.log.diskBytes() : engine.log.sizeBytes();
        if (logBytes > maxLogBytes && oldest != Long.MAX_VALUE) {
            for (LsmTree t : engine.trees.values()) {
                if (t.oldestMemoryLsn() == oldest) {
                    t.requestFlush(FlushCause.LOG);
                }
            }
        }
        long now = System.nanoTime();
        if (engine.log.wouldTruncate(keepFrom)) {
            // Recovery starts no lower than the checkpoint's logStartLsn: record it durably before
            // deleting the segments below it, or a tree idle since an older durable LSN would make
            // recovery ask for a deleted segment.
            writeCheckpoint(keepFrom);
            lastCheckpoint = now;
            lastCheckpointLsn = keepFrom;
            engine.log.truncateBefore(keepFrom);
        }
        // 4. checkpoint
        if (keepFrom != lastCheckpointLsn && now - lastCheckpoint > CHECKPOINT_NANOS) {
            writeCheckpoint(keepFrom);
            lastCheckpoint = now;
            lastCheckpointLsn = keepFrom;
        }
    }

    /**
     * At a clean close, after every tree was flushed: nothing in the log is needed any more, so the
     * checkpoint moves to the log's end and old segments go; the next open replays nothing.
     */
    void checkpointAtClose() throws IOException {
        long end = engine.log.durableLsn();
        writeCheckpoint(end);
        engine.log.truncateBefore(end);
    }

    private void writeCheckpoint(long keepFrom) throws IOException {
        Map<Long, Long> durable = new LinkedHashMap<>();
        for (var e : engine.trees.entrySet()) {
            durable.put(e.getKey(), e.getValue().durableLsn());
        }
        CheckpointFile.write(engine.fs, engine.dir, keepFrom, Math.max(keepFrom, engine.log.durableLsn()), durable);
    }
}
