package dev.breakwater.tpcc;

import dev.breakwater.txn.EngineStatistics;
import java.util.List;

/**
 * What a driver run measured: the metrics, the time series, engine statistics and the JVM's CPU time
 * at the start and end of the measurement window, and how long the warm-up before it really lasted.
 */
record DriverResult(RunMetrics metrics, List<Sample> samples, double warmupSeconds, double measuredSeconds, EngineStatistics before,
                    EngineStatistics after, CpuSnapshot cpuBefore, CpuSnapshot cpuAfter) {
}
