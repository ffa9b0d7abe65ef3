package dev.breakwater.tpcc;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of this JVM at one instant, split by who spent it: the process as a whole, the garbage
 * collector, and the live threads grouped by name ({@link #GROUPS}: the engine's background threads,
 * the terminals). Two snapshots around the measurement window give CPU per transaction, which says
 * whether a throughput difference between two runs at an equal I/O cost comes from CPU (merges on a
 * machine with few cores) or from waiting.
 *
 * <p>A thread that ends between the two snapshots loses its time from its group (the JVM forgets
 * it); the engine's background threads and the terminals live for the whole window. Process CPU and
 * GC time have no such gap. Values are nanoseconds (GC: milliseconds converted), {@code -1} where the
 * JVM does not measure them.
 *
 * <p>Thread safety: immutable once taken.
 */
record CpuSnapshot(long processNanos, long gcNanos, Map<String, Long> groupNanos) {

    /** Thread-name prefixes of the groups, in report order; a thread counts in the first that matches. */
    static final String[][] GROUPS = {
            {"terminals", "terminal-"},
            {"merge", "breakwater-merge"},
            {"memoryMerge", "breakwater-memory-merge"},
            {"flush", "breakwater-flush"},
            {"logFlusher", "breakwater-log-flusher"},
            {"tuner", "breakwater-tuner"},
    };

    static CpuSnapshot take() {
        long process = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            process = os.getProcessCpuTime();
        }
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        Map<String, Long> groups = new LinkedHashMap<>();
        for (String[] g : GROUPS) {
            groups.put(g[0], 0L);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()) {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                String group = info == null ? null : groupOf(info.getThreadName());
                if (group != null) {
                    long cpu = threads.getThreadCpuTime(info.getThreadId());
                    if (cpu > 0) {
                        groups.merge(group, cpu, Long::sum);
                    }
                }
            }
        }
        return new CpuSnapshot(process, gcMillis * 1_000_000L, groups);
    }

    /** The group a thread of this name counts in, or null. */
    static String groupOf(String threadName) {
        for (String[] g : GROUPS) {
            if (threadName.startsWith(g[1])) {
                return g[0];
            }
        }
        return null;
    }

    /**
     * Microseconds of CPU per committed transaction between {@code before} and this snapshot:
     * {@code process}, {@code gc}, then each group. A group can come out negative only if its threads
     * were replaced inside the window; it is reported as measured.
     */
    Map<String, Double> microsPerTransaction(CpuSnapshot before, long committed) {
        double n = Math.max(1, committed) * 1000.0;
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("process", processNanos < 0 || before.processNanos < 0 ? -1 : (processNanos - before.processNanos) / n);
        out.put("gc", (gcNanos - before.gcNanos) / n);
        for (var e : groupNanos.entrySet()) {
            out.put(e.getKey(), (e.getValue() - before.groupNanos.getOrDefault(e.getKey(), 0L)) / n);
        }
        return out;
    }
}
