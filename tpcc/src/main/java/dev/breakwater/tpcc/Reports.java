package dev.breakwater.tpcc;

import dev.breakwater.common.config.ConfigOptions;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.txn.EngineStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a driver run into a {@link RunResult}, prints the summary and consistency tables, and
 * writes the JSON.
 *
 * <p>Thread safety: stateless.
 */
final class Reports {

    private Reports() {
    }

    static RunResult result(List<String> command, Map<String, Object> engineConfig, RunOptions o, DriverResult r,
                            List<CheckResult> checks) {
        RunMetrics m = r.metrics();
        double seconds = r.measuredSeconds();
        List<TypeResult> types = new ArrayList<>();
        for (TxType t : TxType.values()) {
            types.add(TypeResult.of(t, m.of(t), seconds));
        }
        EngineStatistics before = r.before();
        EngineStatistics after = r.after();
        IoStatisticsSnapshot io = after.io().minus(before.io());
        long committed = Math.max(1, m.measuredCommitted());
        Map<String, Map<String, Long>> byPurpose = new LinkedHashMap<>();
        for (IoPurpose p : IoPurpose.values()) {
            byPurpose.put(p.name().toLowerCase(Locale.ROOT), Map.of("bytesRead", io.bytesRead(p), "bytesWritten", io.bytesWritten(p)));
        }
        boolean consistent = checks.stream().allMatch(CheckResult::ok);
        double readPages = (double) io.pagesRead(IoPurpose.QUERY) + io.pagesRead(IoPurpose.MERGE);
        long pageSize = ((Number) engineConfig.getOrDefault(ConfigOptions.PAGE_SIZE.name(), ConfigOptions.PAGE_SIZE.defaultValue()))
                .longValue();
        double packed = Math.max(0, after.logPacker().bytesWritten() - before.logPacker().bytesWritten());
        double writtenPages = (double) io.pagesWritten(IoPurpose.FLUSH) + io.pagesWritten(IoPurpose.MERGE) + packed / pageSize;
        double omega = ((Number) engineConfig.getOrDefault(ConfigOptions.TUNER_WRITE_WEIGHT.name(), 1.0)).doubleValue();
        double gamma = ((Number) engineConfig.getOrDefault(ConfigOptions.TUNER_READ_WEIGHT.name(), 1.0)).doubleValue();
        return new RunResult(command, engineConfig, o.warehouses(), o.terminals(), r.warmupSeconds(), seconds,
                o.mix().label(), o.mixAfter() == null ? null : o.mixAfter().label(),
                o.mixSwitchAt() == null ? null : o.mixSwitchAt().toNanos() / 1e9, o.thinkTimes(),
                m.of(TxType.NEW_ORDER).committed.sum() / (seconds / 60), m.measuredCommitted() / seconds, types,
                m.measuredRollbacks(), m.measuredRetries(), m.measuredFailures(),
                after.locks().deadlocks() - before.locks().deadlocks(), after.locks().waits() - before.locks().waits(),
                io.totalBytesRead() / 1024.0 / committed, io.totalBytesWritten() / 1024.0 / committed, byPurpose,
                readPages / committed, writtenPages / committed, omega, gamma, (omega * writtenPages + gamma * readPages) / committed,
                r.samples(), after.tuner(), checks, consistent, after.operations().total() - before.operations().total(),
                trees(before, after), queryCache(before, after, committed),
                r.cpuAfter().microsPerTransaction(r.cpuBefore(), m.measuredCommitted()));
    }

    private static Map<String, Double> queryCache(EngineStatistics before, EngineStatistics after, long committed) {
        Map<String, Double> cache = new LinkedHashMap<>();
        cache.put("pins", (double) (after.bufferCache().pins(IoPurpose.QUERY) - before.bufferCache().pins(IoPurpose.QUERY)) / committed);
        cache.put("misses", (double) (after.bufferCache().misses(IoPurpose.QUERY) - before.bufferCache().misses(IoPurpose.QUERY)) / committed);
        cache.put("saved", (double) (after.bufferCache().saved(IoPurpose.QUERY) - before.bufferCache().saved(IoPurpose.QUERY)) / committed);
        return cache;
    }

    private static Map<String, TreeWindow> trees(EngineStatistics before, EngineStatistics after) {
        Map<String, TreeWindow> trees = new java.util.TreeMap<>();
        for (var e : after.trees().entrySet()) {
            trees.put(e.getKey(), TreeWindow.of(before.trees().get(e.getKey()), e.getValue(),
                    after.writeMemory().trees().get(e.getKey())));
        }
        return trees;
    }

    static void printChecks(PrintStream out, List<CheckResult> checks) {
        out.println("Consistency conditions (clause 3.3.2):");
        for (CheckResult c : checks) {
            String status = !c.applicable() ? "n/a " : c.passed() ? "PASS" : "FAIL";
            out.printf(Locale.ROOT, "  %2d %s  %-52s %s%n", c.condition(), status, c.description(),
                    !c.applicable() ? "(" + c.detail() + ")" : c.passed() ? "(" + c.checked() + " checked)"
                            : c.violations() + " of " + c.checked() + " violated: " + c.detail());
        }
    }

    static void printSummary(PrintStream out, RunResult r) {
        out.printf(Locale.ROOT, "%nTPC-C: %d warehouse(s), %d terminal(s), %.0f s measured after %.0f s warm-up, mix %s%s%n",
                r.warehouses(), r.terminals(), r.measuredSeconds(), r.warmupSeconds(), r.mix(),
                r.mixAfter() == null ? "" : " -> " + r.mixAfter() + " at " + r.mixSwitchAtSeconds() + " s");
        out.printf(Locale.ROOT, "  tpmC %,.0f   tx/s %,.1f   rollbacks %,d   retries %,d   failures %,d   deadlocks %,d%n",
                r.tpmC(), r.txPerSecond(), r.rollbacks(), r.retries(), r.failures(), r.deadlocks());
        out.printf(Locale.ROOT, "  KB read/tx %.2f   KB written/tx %.2f%n", r.kbReadPerTx(), r.kbWrittenPerTx());
        out.printf(Locale.ROOT, "  I/O cost/tx %.2f pages (%.0f x %.2f written + %.0f x %.2f read)   tuner cycles %d%s%n",
                r.ioCostPerTx(), r.writeWeight(), r.pagesWrittenPerTx(), r.readWeight(), r.pagesReadPerTx(), r.tuner().size(),
                r.tuner().isEmpty() ? "" : String.format(Locale.ROOT, ", write memory now %.0f MiB",
                        r.tuner().get(r.tuner().size() - 1).writeMemoryAfter() / 1048576.0));
        StringBuilder cpu = new StringBuilder();
        r.cpuMicrosPerTx().forEach((k, v) -> cpu.append(cpu.length() == 0 ? "" : "  ").append(k).append(' ')
                .append(String.format(Locale.ROOT, "%.0f", v)));
        out.printf(Locale.ROOT, "  CPU us/tx: %s%n", cpu);
        out.printf(Locale.ROOT, "  %-12s %9s %8s %7s %7s %9s %9s %9s %9s %9s%n", "type", "committed", "tx/s", "rollbk", "retries",
                "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms");
        for (TypeResult t : r.transactions()) {
            out.printf(Locale.ROOT, "  %-12s %,9d %8.1f %7d %7d %9.2f %9.2f %9.2f %9.2f %9.2f%n", t.type(), t.committed(),
                    t.perSecond(), t.rollbacks(), t.retries(), t.p50Ms(), t.p90Ms(), t.p99Ms(), t.p999Ms(), t.maxMs());
        }
    }

    static void writeJson(Path file, Object value) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), value);
    }
}
