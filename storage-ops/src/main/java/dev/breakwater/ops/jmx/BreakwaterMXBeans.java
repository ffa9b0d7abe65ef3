package dev.breakwater.ops.jmx;

/**
 * The JMX surface of an engine: one MXBean interface per part, showing the same figures as the
 * {@code /stats} endpoint ({@code EngineStatistics}). Counters count from engine open. Object names
 * (see {@link EngineMBeans}):
 * <pre>
 * dev.breakwater:type=Engine,name="&lt;dir&gt;"
 * dev.breakwater:type=BufferCache,name="&lt;dir&gt;"      (also WriteMemory, Log, Tuner)
 * dev.breakwater:type=Dataset,engine="&lt;dir&gt;",name=&lt;dataset&gt;
 * dev.breakwater:type=Tree,engine="&lt;dir&gt;",dataset=&lt;dataset&gt;,name=&lt;dataset.index&gt;
 * </pre>
 */
public final class BreakwaterMXBeans {

    private BreakwaterMXBeans() {
    }

    /** The engine as a whole: I/O, locks, transactions, datasets. */
    public interface EngineMXBean {
        String getDirectory();

        boolean isFailed();

        int getDatasets();

        int getTrees();

        long getPagesRead();

        long getPagesWritten();

        long getBytesRead();

        long getBytesWritten();

        long getLockRequests();

        long getLockWaits();

        long getDeadlocks();

        long getLockTimeouts();

        long getTransactionRetries();

        long getGcMillis();
    }

    /** One dataset: its trees summed. */
    public interface DatasetMXBean {
        String[] getTrees();

        long getMemoryBytes();

        long getDiskBytes();

        long getEntriesWritten();

        long getFlushes();

        long getMerges();
    }

    /** One LSM-tree (an index of a dataset). */
    public interface TreeMXBean {
        long getEntriesWritten();

        long getFlushes();

        long getBytesFlushed();

        long getMerges();

        long getMergeBytesRead();

        long getMergeBytesWritten();

        double getMergeAmplification();

        long getMemoryBytes();

        double getWriteMemoryShare();

        double getWriteShare();

        int getL0Groups();

        long[] getLevelBytes();

        int[] getLevelTables();

        long getBloomProbes();

        long getBloomFalsePositives();

        long getWriteSlowdowns();

        long getWriteStalls();
    }

    /** The buffer cache. */
    public interface BufferCacheMXBean {
        long getCapacityBytes();

        int getFrames();

        int getPinnedFrames();

        long getHits();

        long getMisses();

        double getHitRatio();

        long getEvictions();

        long getPinTimeouts();
    }

    /** The global write-memory pool. */
    public interface WriteMemoryMXBean {
        long getUsedBytes();

        long getCapacityBytes();

        double getUtilization();

        String getScheme();

        String getFlushPolicy();
    }

    /** The transaction log. */
    public interface LogMXBean {
        long getSizeBytes();

        long getAppendedRecords();

        long getAppendedBytes();

        long getBatches();

        long getFsyncs();

        double getRecordsPerFsync();

        double getMeanFsyncMicros();

        long getBufferFullWaits();
    }

    /** The memory tuner (see {@code TunerView}): on or off, its I/O weights and the length of its history. */
    public interface TunerMXBean {
        boolean isAvailable();

        String getNote();

        double getOmega();

        double getGamma();

        int getHistoryLength();
    }
}
