package dev.breakwater.bench.tuner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of one TPC-C result JSON ({@code tpcc/target/tpcc.jar --out}) the tuner figures use: the
 * run's measures, its once-a-second samples and its tuner cycles. A cycle's time is wall clock; the
 * run's start, which places cycles on the samples' time axis, is read from the run's log line
 * {@code HH:mm:ss INFO  TpccMain - running ...} (the script keeps it beside the JSON as
 * {@code NAME.cycles.log}); without it, cycles are placed at {@code index · period}.
 *
 * <p>Thread safety: immutable after {@link #read}.
 */
record TpccRun(String name, double ioCostPerTx, double pagesWrittenPerTx, double pagesReadPerTx, double tpmC,
               long initialWriteMemory, List<double[]> samples, List<Cycle> cycles, double switchAtSeconds) {

    private static final double MIB = 1024.0 * 1024.0;
    private static final Pattern START = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d) INFO\\s+TpccMain - running");

    /**
     * One tuner cycle.
     *
     * @param seconds     end of the cycle, seconds since the run started (warm-up included)
     * @param xBeforeMiB  write memory during the cycle
     * @param xAfterMiB   write memory after it
     * @param cost        ω·write + γ·read, pages per operation
     * @param ops         operations in the cycle
     * @param costPrime   cost'(x) per MiB
     * @param writePrime  write'(x) per MiB
     * @param simPrime    the simulated-cache term per MiB
     * @param mergeReadPrime the merge-read term per MiB
     * @param reason      the tuner's decision
     */
    record Cycle(double seconds, double xBeforeMiB, double xAfterMiB, double cost, long ops, double costPrime,
                 double writePrime, double simPrime, double mergeReadPrime, String reason) {
    }

    /** Reads {@code json} (and {@code NAME.cycles.log} beside it, if present). */
    static TpccRun read(Path json, double periodSeconds) throws IOException {
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        String name = json.getFileName().toString().replaceFirst("\\.json$", "");
        List<double[]> samples = new ArrayList<>();
        double switchAt = Double.NaN;
        String firstMix = null;
        for (JsonNode s : r.path("samples")) {
            samples.add(new double[] {s.path("seconds").asDouble(), s.path("txPerSecond").asDouble(),
                    s.path("writeMemoryCapacity").asDouble() / MIB, s.path("bufferCacheBytes").asDouble() / MIB});
            String mix = s.path("mix").asText();
            if (firstMix == null) {
                firstMix = mix;
            } else if (Double.isNaN(switchAt) && !mix.equals(firstMix)) {
                switchAt = s.path("seconds").asDouble();
            }
        }
        long startMillis = startMillis(json.resolveSibling(name + ".cycles.log"), r);
        List<Cycle> cycles = new ArrayList<>();
        int i = 0;
        for (JsonNode c : r.path("tuner")) {
            i++;
            double seconds = startMillis > 0 ? (c.path("timeMillis").asLong() - startMillis) / 1000.0 : i * periodSeconds;
            cycles.add(new Cycle(seconds, c.path("writeMemoryBefore").asDouble() / MIB,
                    c.path("writeMemoryAfter").asDouble() / MIB, c.path("cost").asDouble(), c.path("ops").asLong(),
                    c.path("costPrimePerMiB").asDouble(), c.path("writePrimePerMiB").asDouble(),
                    c.path("simulatedPrimePerMiB").asDouble(), c.path("mergeReadPrimePerMiB").asDouble(),
                    c.path("reason").asText()));
        }
        return new TpccRun(name, r.path("ioCostPerTx").asDouble(), r.path("pagesWrittenPerTx").asDouble(),
                r.path("pagesReadPerTx").asDouble(), r.path("tpmC").asDouble(),
                r.path("engineConfig").path("write-memory").asLong(), samples, cycles, switchAt);
    }

    /** Write memory the run started with, MiB. */
    double initialWriteMemoryMiB() {
        return initialWriteMemory / MIB;
    }

    /** Write memory at the end of the run, MiB (the last sample). */
    double finalWriteMemoryMiB() {
        return samples.isEmpty() ? initialWriteMemoryMiB() : samples.get(samples.size() - 1)[2];
    }

    /** Operation-weighted mean cost of the cycles that end in [from, to) seconds; NaN if none. */
    double meanCycleCost(double from, double to) {
        double weighted = 0;
        long ops = 0;
        for (Cycle c : cycles) {
            if (c.seconds() >= from && c.seconds() < to && c.ops() > 0) {
                weighted += c.cost() * c.ops();
                ops += c.ops();
            }
        }
        return ops == 0 ? Double.NaN : weighted / ops;
    }

    /**
     * Wall-clock start of the run from the log's "running" line, on the day of the first cycle (UTC,
     * the log's zone here); 0 when unknown.
     */
    private static long startMillis(Path log, JsonNode r) throws IOException {
        if (!Files.exists(log) || r.path("tuner").isEmpty()) {
            return 0;
        }
        for (String line : Files.readAllLines(log)) {
            Matcher m = START.matcher(line);
            if (m.find()) {
                long first = r.path("tuner").get(0).path("timeMillis").asLong();
                LocalDate day = java.time.Instant.ofEpochMilli(first).atZone(ZoneOffset.UTC).toLocalDate();
                return LocalTime.parse(m.group(1)).atDate(day).toInstant(ZoneOffset.UTC).toEpochMilli();
            }
        }
        return 0;
    }
}
