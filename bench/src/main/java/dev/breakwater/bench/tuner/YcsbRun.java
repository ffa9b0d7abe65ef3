package dev.breakwater.bench.tuner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of one {@code ExtendedYcsb} result JSON the tuner figures use: the workload's shape, the
 * measured phase's weighted I/O cost per client operation ({@code run.engine.ioCostPerOp}, written
 * pages by flushes, merges and log trimming, read pages by queries and merges, as TPC-C counts them
 * per transaction) and the tuner's cycles of the measured phase ({@code run.engine.tuner}).
 *
 * <p>Thread safety: immutable after {@link #read}.
 *
 * @param name           file name without {@code .json}
 * @param tuner          whether the run had the tuner on
 * @param totalMemoryMiB the engine's total memory
 * @param writeMemoryMiB the write memory the run was opened with
 * @param datasets       number of datasets (trees)
 * @param writeRatio     {@code --write-ratio}, NaN when the workload's own mix ran
 * @param workload       the workload name
 * @param ioCostPerOp    ω·pages written + γ·pages read, per client operation, over the measured phase
 * @param pagesWrittenPerOp pages written per client operation
 * @param pagesReadPerOp pages read per client operation
 * @param omega          ω, the weight of pages written
 * @param gamma          γ, the weight of pages read
 * @param opsPerSecond   client operations per second in the measured phase
 * @param seconds        length of the measured phase
 * @param cycles         the tuner's cycles of the measured phase, oldest first
 */
record YcsbRun(String name, boolean tuner, double totalMemoryMiB, double writeMemoryMiB, int datasets, double writeRatio,
               String workload, double ioCostPerOp, double pagesWrittenPerOp, double pagesReadPerOp, double omega, double gamma, double opsPerSecond,
               double seconds, List<Cycle> cycles) {

    private static final double MIB = 1024.0 * 1024.0;

    /**
     * One tuner cycle of the measured phase.
     *
     * @param seconds   seconds since the phase's first cycle
     * @param xBeforeMiB write memory during the cycle
     * @param xAfterMiB write memory after it
     * @param cost      the tuner's ω·write + γ·read, pages per engine operation
     * @param costPrime cost'(x) per MiB
     * @param reason    the tuner's decision
     */
    record Cycle(double seconds, double xBeforeMiB, double xAfterMiB, double cost, double costPrime, String reason) {
    }

    static YcsbRun read(Path json) throws IOException {
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        JsonNode run = r.path("run"), engine = run.path("engine"), config = r.path("config");
        List<Cycle> cycles = new ArrayList<>();
        long first = engine.path("tuner").isEmpty() ? 0 : engine.path("tuner").get(0).path("timeMillis").asLong();
        for (JsonNode c : engine.path("tuner")) {
            cycles.add(new Cycle((c.path("timeMillis").asLong() - first) / 1000.0, c.path("writeMemoryBefore").asDouble() / MIB,
                    c.path("writeMemoryAfter").asDouble() / MIB, c.path("cost").asDouble(), c.path("costPrimePerMiB").asDouble(),
                    c.path("reason").asText()));
        }
        return new YcsbRun(json.getFileName().toString().replaceFirst("\\.json$", ""), config.path("tuner").asBoolean(),
                config.path("total-memory").asDouble() / MIB, config.path("write-memory").asDouble() / MIB,
                r.path("datasets").asInt(), r.path("writeRatio").asDouble(Double.NaN), r.path("workload").asText(),
                engine.path("ioCostPerOp").asDouble(Double.NaN), engine.path("pagesWrittenPerOp").asDouble(Double.NaN),
                engine.path("pagesReadPerOp").asDouble(Double.NaN), config.path("tuner-write-weight").asDouble(1),
                config.path("tuner-read-weight").asDouble(1), run.path("opsPerSecond").asDouble(),
                run.path("seconds").asDouble(), cycles);
    }

    /** Write memory at the end of the measured phase (after its last cycle), MiB. */
    double finalMiB() {
        return cycles.isEmpty() ? writeMemoryMiB : cycles.get(cycles.size() - 1).xAfterMiB();
    }

    /** Write memory at the start of the measured phase (before its first cycle), MiB. */
    double startMiB() {
        return cycles.isEmpty() ? writeMemoryMiB : cycles.get(0).xBeforeMiB();
    }

    /** Mean write memory in effect during the cycles of the phase's second half, MiB (where it settled). */
    double secondHalfMeanMiB() {
        if (cycles.isEmpty()) {
            return writeMemoryMiB;
        }
        double half = cycles.get(cycles.size() - 1).seconds() / 2;
        return cycles.stream().filter(c -> c.seconds() >= half).mapToDouble(Cycle::xBeforeMiB).average().orElse(Double.NaN);
    }

    /** Cycles whose write memory after differs from before. */
    long steps() {
        return cycles.stream().filter(c -> c.xAfterMiB() != c.xBeforeMiB()).count();
    }

    /** The same workload and total memory (what a tuner run must share with fixed splits to sit on their curve). */
    boolean sameSetting(YcsbRun o) {
        return datasets == o.datasets && workload.equals(o.workload) && totalMemoryMiB == o.totalMemoryMiB
                && (Double.isNaN(writeRatio) ? Double.isNaN(o.writeRatio) : writeRatio == o.writeRatio);
    }

    /**
     * The fields every summary of a tuner run starts with: its name, the split it opened at, started
     * the measured phase at and ended at, the mean of the second half, cycles and steps, cost per
     * operation and throughput.
     */
    Map<String, Object> tunerSummary() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("run", name);
        s.put("openedMiB", writeMemoryMiB);
        s.put("startMiB", startMiB());
        s.put("finalMiB", finalMiB());
        s.put("secondHalfMeanMiB", secondHalfMeanMiB());
        s.put("cycles", cycles.size());
        s.put("steps", steps());
        s.put("ioCostPerOp", ioCostPerOp);
        s.put("opsPerSecond", opsPerSecond);
        return s;
    }
}
