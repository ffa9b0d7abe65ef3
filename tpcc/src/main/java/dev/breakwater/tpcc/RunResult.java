package dev.breakwater.tpcc;

import dev.breakwater.tuner.TuningCycle;
import java.util.List;
import java.util.Map;

/**
 * Everything a run reports, written as JSON to {@code --out}.
 *
 * @param command          the command line's arguments
 * @param engineConfig     the engine configuration (option name to value)
 * @param tpmC             New-Orders committed per minute in the measurement window
 * @param txPerSecond      all committed transactions per second in the window
 * @param kbReadPerTx      KiB read from storage (all purposes: queries, flushes, merges, log) per committed transaction
 * @param kbWrittenPerTx   KiB written per committed transaction
 * @param deadlocks        deadlocks the engine detected during the window
 * @param lockWaits        lock requests that had to wait during the window
 * @param ioBytesByPurpose bytes read and written in the window, by I/O purpose
 * @param pagesReadPerTx   pages read from disk by queries and merges per committed transaction ({@code read})
 * @param pagesWrittenPerTx pages written by flushes, merges and log trimming per committed transaction ({@code write})
 * @param writeWeight      ω of the engine configuration ({@code tuner-write-weight})
 * @param readWeight       γ of the engine configuration ({@code tuner-read-weight})
 * @param ioCostPerTx      ω·write + γ·read: the weighted I/O cost per transaction the tuner minimizes
 * @param samples          once-a-second time series of the whole run (warm-up included)
 * @param tuner            the memory tuner's cycles of the run (docs/tuner.md); with {@code --tuner off}
 *                         cycles are still recorded, with their cost, but take no step
 * @param consistency      the consistency conditions after the run
 * @param operations       engine operations (point reads, scans, record writes) in the window: the tuner's {@code op}
 * @param trees            per LSM-tree: merge and flush bytes in the window, shape at its end (eq. 4's inputs)
 * @param queryCachePerTx  the buffer cache's query pins, misses and ghost-list saves per committed transaction
 *                         in the window: pins per transaction show how many pages the queries touch at this
 *                         split (more disk components, more pins), misses how many of them the cache missed
 * @param cpuMicrosPerTx   CPU microseconds per committed transaction in the window: the whole process, GC, and
 *                         the engine's background threads and the terminals by thread name ({@link CpuSnapshot});
 *                         on a machine with few cores, what a split's merges cost in throughput beyond their I/O
 */
public record RunResult(List<String> command, Map<String, Object> engineConfig, int warehouses, int terminals,
                        double warmupSeconds, double measuredSeconds, String mix, String mixAfter, Double mixSwitchAtSeconds,
                        boolean thinkTimes, double tpmC, double txPerSecond, List<TypeResult> transactions,
                        long rollbacks, long retries, long failures, long deadlocks, long lockWaits,
                        double kbReadPerTx, double kbWrittenPerTx, Map<String, Map<String, Long>> ioBytesByPurpose,
                        double pagesReadPerTx, double pagesWrittenPerTx, double writeWeight, double readWeight,
                        double ioCostPerTx, List<Sample> samples, List<TuningCycle> tuner, List<CheckResult> consistency,
                        boolean consistent, long operations, Map<String, TreeWindow> trees,
                        Map<String, Double> queryCachePerTx, Map<String, Double> cpuMicrosPerTx) {
}
