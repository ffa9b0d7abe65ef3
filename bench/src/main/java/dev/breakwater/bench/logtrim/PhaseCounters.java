package dev.breakwater.bench.logtrim;

import com.sun.management.OperatingSystemMXBean;
import dev.breakwater.bench.ycsb.ProcIo;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.log.PackerStatistics;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything {@link LogTrimBench}'s run mode counts at one instant, so that a timed phase is reported
 * as the difference of two of them: the engine's statistics (bytes written and read by purpose, flush
 * bytes by cause, merges, stalls, GC time), the log packer's counters, the process's block-layer I/O
 * ({@code /proc/self/io}), the process's CPU time and the machine's CPU time by state
 * ({@code /proc/stat}: how much of the phase the two cores were busy, idle or waiting for I/O — the
 * evidence for whether a run was disk-bound or CPU-bound).
 *
 * <p>Immutable; {@link #now} is called from the driver's thread.
 *
 * @param nanos        {@link System#nanoTime()}
 * @param engine       the engine's statistics
 * @param packer       the log packer's counters
 * @param proc         {@code /proc/self/io}
 * @param processCpuNanos CPU time of this JVM (all threads), -1 if unknown
 * @param machineCpu   the first line of {@code /proc/stat} in clock ticks: user, nice, system, idle,
 *                     iowait, irq, softirq, steal (empty if unreadable)
 */
record PhaseCounters(long nanos, EngineStatistics engine, PackerStatistics packer, ProcIo proc, long processCpuNanos,
                     long[] machineCpu) {

    static PhaseCounters now(StorageEngine e) {
        long cpu = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            cpu = os.getProcessCpuTime();
        }
        return new PhaseCounters(System.nanoTime(), e.statistics(), e.logPackerStatistics(), ProcIo.now(), cpu,
                readMachineCpu());
    }

    private static long[] readMachineCpu() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long[] v = new long[Math.min(8, f.length - 1)];
            for (int i = 0; i < v.length; i++) {
                v[i] = Long.parseLong(f[i + 1]);
            }
            return v;
        } catch (IOException | RuntimeException ex) {
            return new long[0];
        }
    }

    /** The phase from {@code before} to this instant, {@code ops} operations in it, as JSON-ready maps. */
    Map<String, Object> since(PhaseCounters before, long ops) {
        double seconds = (nanos - before.nanos) / 1e9;
        double perOp = Math.max(1, ops);
        Map<String, Object> out = new LinkedHashMap<>();

        Map<String, Object> engineIo = new LinkedHashMap<>();
        for (IoPurpose p : IoPurpose.values()) {
            long w = engine.io().bytesWritten(p) - before.engine.io().bytesWritten(p);
            long r = engine.io().bytesRead(p) - before.engine.io().bytesRead(p);
            engineIo.put(p.name().toLowerCase() + "-bytes-written", w);
            engineIo.put(p.name().toLowerCase() + "-bytes-read", r);
        }
        long packerWritten = packer.bytesWritten() - before.packer.bytesWritten();
        long logWritten = engine.log().writtenBytes() - before.engine.log().writtenBytes();
        engineIo.put("log-records-bytes-written", logWritten);
        engineIo.put("packer-bytes-written", packerWritten);
        out.put("engine-io", engineIo);

        Map<String, Object> trees = treeDiff(before.engine, engine);
        out.put("trees", trees);

        Map<String, Object> perOpBytes = new LinkedHashMap<>();
        perOpBytes.put("log", logWritten / perOp);
        perOpBytes.put("packer", packerWritten / perOp);
        perOpBytes.put("flush", (Long) trees.get("bytes-flushed") / perOp);
        perOpBytes.put("merge", (Long) trees.get("merge-bytes-written") / perOp);
        perOpBytes.put("merge-read", (Long) trees.get("merge-bytes-read") / perOp);
        perOpBytes.put("engine-total-written", (engine.io().totalBytesWritten() - before.engine.io().totalBytesWritten()) / perOp);
        ProcIo p = proc.minus(before.proc);
        perOpBytes.put("proc-write-bytes", p.writeBytes() / perOp);
        perOpBytes.put("proc-read-bytes", p.readBytes() / perOp);
        out.put("bytes-per-op", perOpBytes);
        out.put("proc-io", p);

        long gcMillis = engine.gcMillis() - before.engine.gcMillis();
        out.put("gc-millis", gcMillis);
        out.put("gc-share", gcMillis / (seconds * 1000));
        if (processCpuNanos >= 0 && before.processCpuNanos >= 0) {
            out.put("process-cpu-cores", (processCpuNanos - before.processCpuNanos) / 1e9 / seconds);
        }
        if (machineCpu.length >= 5 && before.machineCpu.length == machineCpu.length) {
            long total = 0;
            long[] d = new long[machineCpu.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = machineCpu[i] - before.machineCpu[i];
                total += d[i];
            }
            Map<String, Double> share = new LinkedHashMap<>();
            share.put("user", (d[0] + d[1]) / (double) Math.max(1, total));
            share.put("system", (d[2] + (d.length > 6 ? d[5] + d[6] : 0)) / (double) Math.max(1, total));
            share.put("idle", d[3] / (double) Math.max(1, total));
            share.put("iowait", d[4] / (double) Math.max(1, total));
            if (d.length > 7) {
                share.put("steal", d[7] / (double) Math.max(1, total));
            }
            out.put("machine-cpu-share", share);
        }
        return out;
    }

    /** Flush, merge and stall counters summed over the trees, plus each tree's level sizes now. */
    private static Map<String, Object> treeDiff(EngineStatistics before, EngineStatistics after) {
        long[] sums = new long[14];
        List<Long> mergeByLevel = new ArrayList<>();
        Map<String, Object> levels = new LinkedHashMap<>();
        for (var e : after.trees().entrySet()) {
            TreeStatisticsSnapshot a = e.getValue();
            TreeStatisticsSnapshot b = before.trees().get(e.getKey());
            long[] av = values(a);
            long[] bv = b == null ? new long[av.length] : values(b);
            for (int i = 0; i < sums.length; i++) {
                sums[i] += av[i] - bv[i];
            }
            List<Long> al = a.mergeBytesWrittenByLevel();
            List<Long> bl = b == null ? List.of() : b.mergeBytesWrittenByLevel();
            for (int i = 0; i < al.size(); i++) {
                long d = al.get(i) - (i < bl.size() ? bl.get(i) : 0);
                if (i < mergeByLevel.size()) {
                    mergeByLevel.set(i, mergeByLevel.get(i) + d);
                } else {
                    mergeByLevel.add(d);
                }
            }
            levels.put(e.getKey(), Map.of("level-bytes", a.levelBytes(), "level-tables", a.levelTables(),
                    "memory-bytes", a.memoryBytes()));
        }
        String[] names = {"flushes", "bytes-flushed", "bytes-flushed-for-memory", "bytes-flushed-for-log", "merges",
                "merge-bytes-read", "merge-bytes-written", "memory-seals", "memory-merges", "memory-merge-bytes",
                "write-stalls", "write-stall-nanos", "flush-stops", "flush-stall-nanos"};
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            out.put(names[i], sums[i]);
        }
        out.put("merge-bytes-written-by-level", mergeByLevel);
        out.put("end", levels);
        return out;
    }

    private static long[] values(TreeStatisticsSnapshot t) {
        return new long[] {t.flushes(), t.bytesFlushed(), t.bytesFlushedForMemory(), t.bytesFlushedForLog(), t.merges(),
            t.mergeBytesRead(), t.mergeBytesWritten(), t.memorySeals(), t.memoryMerges(), t.memoryMergeBytes(),
            t.writeStalls(), t.writeStallNanos(), t.flushStops(), t.flushStallNanos()};
    }
}
