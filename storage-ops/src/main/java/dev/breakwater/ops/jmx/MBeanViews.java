package dev.breakwater.ops.jmx;

import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.ops.StatsCache;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.ops.TunerView;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.StorageEngine;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The implementations of {@link BreakwaterMXBeans}: each getter reads the shared {@link StatsCache},
 * so one JMX scrape sees one snapshot. A tree or dataset that has gone shows zeros until
 * {@link EngineMBeans} unregisters it.
 *
 * <p>Thread safety: safe; they hold no state of their own.
 */
final class MBeanViews {

    private MBeanViews() {
    }

    static final class Engine implements BreakwaterMXBeans.EngineMXBean {
        private final StorageEngine engine;
        private final StatsCache stats;
        private final String directory;

        Engine(StorageEngine engine, StatsCache stats, String directory) {
            this.engine = engine;
            this.stats = stats;
            this.directory = directory;
        }

        // @formatter:off
        @Override public String getDirectory() { return directory; }
        @Override public boolean isFailed() { return engine.isFailed(); }
        @Override public int getDatasets() { return (int) s().trees().keySet().stream().map(MBeanViews::datasetOf).distinct().count(); }
        @Override public int getTrees() { return s().trees().size(); }
        @Override public long getPagesRead() { return s().io().totalPagesRead(); }
        @Override public long getPagesWritten() { return s().io().totalPagesWritten(); }
        @Override public long getBytesRead() { return s().io().totalBytesRead(); }
        @Override public long getBytesWritten() { return s().io().totalBytesWritten(); }
        @Override public long getLockRequests() { return s().locks().requests(); }
        @Override public long getLockWaits() { return s().locks().waits(); }
        @Override public long getDeadlocks() { return s().locks().deadlocks(); }
        @Override public long getLockTimeouts() { return s().locks().timeouts(); }
        @Override public long getTransactionRetries() { return s().transactionRetries(); }
        @Override public long getGcMillis() { return s().gcMillis(); }
        // @formatter:on

        private EngineStatistics s() {
            return stats.get();
        }
    }

    static final class Dataset implements BreakwaterMXBeans.DatasetMXBean {
        private final StatsCache stats;
        private final String name;
        private final Supplier<List<String>> trees;

        Dataset(StatsCache stats, String name, Supplier<List<String>> trees) {
            this.stats = stats;
            this.name = name;
            this.trees = trees;
        }

        @Override
        public String[] getTrees() {
            return trees.get().toArray(new String[0]);
        }

        // @formatter:off
        @Override public long getMemoryBytes() { return sum(TreeStatisticsSnapshot::memoryBytes); }
        @Override public long getDiskBytes() { return sum(t -> t.levelBytes().stream().mapToLong(Long::longValue).sum()); }
        @Override public long getEntriesWritten() { return sum(TreeStatisticsSnapshot::entriesWritten); }
        @Override public long getFlushes() { return sum(TreeStatisticsSnapshot::flushes); }
        @Override public long getMerges() { return sum(TreeStatisticsSnapshot::merges); }
        // @formatter:on

        private long sum(ToLongFunction<TreeStatisticsSnapshot> f) {
            long total = 0;
            for (var e : stats.get().trees().entrySet()) {
                if (datasetOf(e.getKey()).equals(name)) {
                    total += f.applyAsLong(e.getValue());
                }
            }
            return total;
        }
    }

    static final class Tree implements BreakwaterMXBeans.TreeMXBean {
        private static final TreeStatisticsSnapshot NONE = new TreeStatisticsSnapshot(0, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of(),
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), 0, 0, 0);
        private static final WriteMemorySnapshot.TreeShare NO_SHARE = new WriteMemorySnapshot.TreeShare(0, 0, 0, 0);

        private final StatsCache stats;
        private final String name;

        Tree(StatsCache stats, String name) {
            this.stats = stats;
            this.name = name;
        }

        // @formatter:off
        @Override public long getEntriesWritten() { return t().entriesWritten(); }
        @Override public long getFlushes() { return t().flushes(); }
        @Override public long getBytesFlushed() { return t().bytesFlushed(); }
        @Override public long getMerges() { return t().merges(); }
        @Override public long getMergeBytesRead() { return t().mergeBytesRead(); }
        @Override public long getMergeBytesWritten() { return t().mergeBytesWritten(); }
        @Override public double getMergeAmplification() { return t().mergeAmplification(); }
        @Override public long getMemoryBytes() { return t().memoryBytes(); }
        @Override public double getWriteMemoryShare() { return share().memoryShare(); }
        @Override public double getWriteShare() { return share().writeShare(); }
        @Override public int getL0Groups() { return t().l0Groups(); }
        @Override public long[] getLevelBytes() { return t().levelBytes().stream().mapToLong(Long::longValue).toArray(); }
        @Override public int[] getLevelTables() { return t().levelTables().stream().mapToInt(Integer::intValue).toArray(); }
        @Override public long getBloomProbes() { return t().bloomProbes(); }
        @Override public long getBloomFalsePositives() { return t().bloomFalsePositives(); }
        @Override public long getWriteSlowdowns() { return t().writeSlowdowns(); }
        @Override public long getWriteStalls() { return t().writeStalls(); }
        // @formatter:on

        private TreeStatisticsSnapshot t() {
            return stats.get().trees().getOrDefault(name, NONE);
        }

        private WriteMemorySnapshot.TreeShare share() {
            return stats.get().writeMemory().trees().getOrDefault(name, NO_SHARE);
        }
    }

    static final class BufferCache implements BreakwaterMXBeans.BufferCacheMXBean {
        private final StatsCache stats;

        BufferCache(StatsCache stats) {
            this.stats = stats;
        }

        // @formatter:off
        @Override public long getCapacityBytes() { return c().capacityBytes(); }
        @Override public int getFrames() { return c().frames(); }
        @Override public int getPinnedFrames() { return c().pinnedFrames(); }
        @Override public long getHits() { return c().totalHits(); }
        @Override public long getMisses() { return c().totalMisses(); }
        @Override public long getEvictions() { return c().evictions(); }
        @Override public long getPinTimeouts() { return c().pinTimeouts(); }
        // @formatter:on

        @Override
        public double getHitRatio() {
            BufferCacheSnapshot c = c();
            long pins = c.totalHits() + c.totalMisses();
            return pins == 0 ? 0 : (double) c.totalHits() / pins;
        }

        private BufferCacheSnapshot c() {
            return stats.get().bufferCache();
        }
    }

    static final class WriteMemory implements BreakwaterMXBeans.WriteMemoryMXBean {
        private final StatsCache stats;

        WriteMemory(StatsCache stats) {
            this.stats = stats;
        }

        // @formatter:off
        @Override public long getUsedBytes() { return stats.get().writeMemoryUsed(); }
        @Override public long getCapacityBytes() { return stats.get().writeMemoryCapacity(); }
        @Override public String getScheme() { return stats.get().writeMemory().scheme().name(); }
        @Override public String getFlushPolicy() { return stats.get().writeMemory().policy().name(); }
        // @formatter:on

        @Override
        public double getUtilization() {
            EngineStatistics s = stats.get();
            return s.writeMemoryCapacity() == 0 ? 0 : (double) s.writeMemoryUsed() / s.writeMemoryCapacity();
        }
    }

    static final class Log implements BreakwaterMXBeans.LogMXBean {
        private final StatsCache stats;

        Log(StatsCache stats) {
            this.stats = stats;
        }

        // @formatter:off
        @Override public long getSizeBytes() { return stats.get().logSizeBytes(); }
        @Override public long getAppendedRecords() { return stats.get().log().appendedRecords(); }
        @Override public long getAppendedBytes() { return stats.get().log().appendedBytes(); }
        @Override public long getBatches() { return stats.get().log().batches(); }
        @Override public long getFsyncs() { return stats.get().log().fsyncs(); }
        @Override public double getRecordsPerFsync() { return stats.get().log().recordsPerFsync(); }
        @Override public double getMeanFsyncMicros() { return stats.get().log().meanFsyncMicros(); }
        @Override public long getBufferFullWaits() { return stats.get().log().bufferFullWaits(); }
        // @formatter:on
    }

    static final class Tuner implements BreakwaterMXBeans.TunerMXBean {
        private final StatsCache stats;
        private final StorageConfig config;

        Tuner(StatsCache stats, StorageConfig config) {
            this.stats = stats;
            this.config = config;
        }

        // @formatter:off
        @Override public boolean isAvailable() { return t().available(); }
        @Override public String getNote() { return t().note(); }
        @Override public double getOmega() { return t().omega(); }
        @Override public double getGamma() { return t().gamma(); }
        @Override public int getHistoryLength() { return t().history().size(); }
        // @formatter:on

        private TunerView t() {
            return TunerView.of(stats.get(), config);
        }
    }

    /** The dataset part of a tree name {@code dataset.index}. */
    static String datasetOf(String treeName) {
        int dot = treeName.indexOf('.');
        return dot < 0 ? treeName : treeName.substring(0, dot);
    }
}
