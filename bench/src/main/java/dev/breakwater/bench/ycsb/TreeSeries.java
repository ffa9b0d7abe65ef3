package dev.breakwater.bench.ycsb;

import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.StorageEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A per-tree time series of a run's write memory and flushes: every {@code periodMillis} a daemon
 * thread reads the engine's statistics and records, per tree, what its memory holds (active table,
 * sealed tables, each memory-level run with its entries), its share of write memory and of the writes,
 * its flushes and flushed bytes by cause, its L0 groups and level sizes, and its merges. Counters are
 * cumulative since the engine opened; the reader takes differences. For diagnosing why one write-memory
 * scheme flushes more bytes per update than another (docs/benchmarks-memory.md, "Session 11").
 *
 * <p>Thread safety: {@link #start} and {@link #stop} from one thread; the samples are read after
 * {@link #stop} returned.
 */
final class TreeSeries {

    private final StorageEngine engine;
    private final long periodMillis;
    private final List<Map<String, Object>> samples = new ArrayList<>();
    private Thread thread;
    private volatile boolean stop;
    private long start;

    TreeSeries(StorageEngine engine, long periodMillis) {
        this.engine = engine;
        this.periodMillis = periodMillis;
    }

    void start() {
        start = System.nanoTime();
        thread = new Thread(() -> {
            while (!stop) {
                sample();
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "ycsb-tree-series");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling, takes one last sample and returns them all (oldest first). */
    List<Map<String, Object>> stop() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join();
        sample();
        return samples;
    }

    private void sample() {
        EngineStatistics s = engine.statistics();
        Map<String, Object> at = new LinkedHashMap<>();
        at.put("seconds", (System.nanoTime() - start) / 1e9);
        at.put("writeMemoryUsed", s.writeMemoryUsed());
        Map<String, Object> trees = new LinkedHashMap<>();
        for (var e : s.trees().entrySet()) {
            TreeStatisticsSnapshot t = e.getValue();
            TreeStatisticsSnapshot.MemoryShape m = t.shape();
            WriteMemorySnapshot.TreeShare share = s.writeMemory() == null ? null : s.writeMemory().trees().get(e.getKey());
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("entriesWritten", t.entriesWritten());
            x.put("memoryBytes", t.memoryBytes());
            x.put("writeShare", share == null ? 0.0 : share.writeShare());
            x.put("activeBytes", m.activeBytes());
            x.put("activeEntries", m.activeEntries());
            x.put("sealedBytes", m.sealedBytes());
            x.put("runBytes", m.runBytes());
            x.put("runEntries", m.runEntries());
            x.put("flushesForMemory", m.flushesForMemory());
            x.put("flushesForLog", m.flushesForLog());
            x.put("bytesFlushedForMemory", t.bytesFlushedForMemory());
            x.put("bytesFlushedForLog", t.bytesFlushedForLog());
            x.put("sealsWithoutRoom", m.sealsWithoutRoom());
            x.put("bytesFlushedForSealRoom", m.bytesFlushedForSealRoom());
            x.put("bytesFlushedForLogRequest", m.bytesFlushedForLogRequest());
            x.put("sealRoomWaits", m.sealRoomWaits());
            x.put("memorySeals", t.memorySeals());
            x.put("memoryMerges", t.memoryMerges());
            x.put("l0Groups", t.l0Groups());
            x.put("levelBytes", t.levelBytes());
            x.put("merges", t.merges());
            x.put("mergeBytesWritten", t.mergeBytesWritten());
            trees.put(e.getKey(), x);
        }
        at.put("trees", trees);
        samples.add(at);
    }
}
