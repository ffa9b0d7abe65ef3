package dev.breakwater.tpcc;

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
 * @param samples          once-a-second time series of the whole run (warm-up included)
 * @param consistency      the consistency conditions after the run
 */
public record RunResult(List<String> command, Map<String, Object> engineConfig, int warehouses, int terminals,
                        double warmupSeconds, double measuredSeconds, String mix, String mixAfter, Double mixSwitchAtSeconds,
                        boolean thinkTimes, double tpmC, double txPerSecond, List<TypeResult> transactions,
                        long rollbacks, long retries, long failures, long deadlocks, long lockWaits,
                        double kbReadPerTx, double kbWrittenPerTx, Map<String, Map<String, Long>> ioBytesByPurpose,
                        List<Sample> samples, List<CheckResult> consistency, boolean consistent) {
}
