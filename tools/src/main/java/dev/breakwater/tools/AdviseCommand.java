package dev.breakwater.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.common.config.Sizes;
import dev.breakwater.tuner.advisor.Advice;
import dev.breakwater.tuner.advisor.Design;
import dev.breakwater.tuner.advisor.DesignAdvisor;
import dev.breakwater.tuner.advisor.DesignSpace;
import dev.breakwater.tuner.advisor.EngineShape;
import dev.breakwater.tuner.advisor.KeySkew;
import dev.breakwater.tuner.advisor.Environment;
import dev.breakwater.tuner.advisor.LsmCostModel;
import dev.breakwater.tuner.advisor.OperationCosts;
import dev.breakwater.tuner.advisor.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code breakwater advise}: the design advisor of paper 003 (ENDURE) on the command line. Takes an
 * expected workload mix, either given ({@code --workload z0,z1,q,u}) or observed by a running engine
 * ({@code --from URL}: its stats endpoint's operation counts), and a neighbourhood size ρ, and prints
 * the nominal and the robust design with their predicted I/O per operation and the configuration
 * options that run them.
 *
 * <p>Thread safety: one run per instance.
 */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Recommend size ratio, merge policy, runs per level, Bloom bits and write memory for a workload "
                + "(nominal) and for its KL neighbourhood of size rho (robust, ENDURE).")
final class AdviseCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--workload", paramLabel = "Z0,Z1,Q,U",
            description = "Expected mix: empty point reads, non-empty point reads, range reads, writes (fractions or counts).")
    String workload;
    @Option(names = "--from", paramLabel = "URL",
            description = "Take the mix from a running engine's stats endpoint (its operation counts), or from a saved answer of it (file:/path).")
    URI from;
    @Option(names = "--empty-reads", paramLabel = "FRACTION",
            description = "With --from: fraction of point reads that find nothing (the engine does not count them apart). Default: ${DEFAULT-VALUE}.")
    double emptyReads = 0.5;
    @Option(names = "--rho", paramLabel = "RHO", description = "Size of the KL neighbourhood of the expected workload. Default: ${DEFAULT-VALUE}.")
    double rho = 0.5;
    @Option(names = "--entries", paramLabel = "N", required = true, description = "Distinct keys in the tree.")
    long entries;
    @Option(names = "--entry-bytes", paramLabel = "BYTES", description = "Bytes per entry (key, value, overhead). Default: ${DEFAULT-VALUE}.")
    int entryBytes = 1024;
    @Option(names = "--page-size", paramLabel = "SIZE", description = "Disk page size. Default: ${DEFAULT-VALUE}.")
    String pageSize = "16k";
    @Option(names = "--total-memory", paramLabel = "SIZE", description = "Memory to split: write memory, filters, buffer cache. Default: ${DEFAULT-VALUE}.")
    String totalMemory = "256m";
    @Option(names = "--range-entries", paramLabel = "N", description = "Entries one range read returns. Default: ${DEFAULT-VALUE}.")
    long rangeEntries = 100;
    @Option(names = "--seq-cost", paramLabel = "F", description = "Cost of a sequential page I/O relative to a random read (f_seq). Default: ${DEFAULT-VALUE}.")
    double seqCost = 1.0;
    @Option(names = "--write-cost", paramLabel = "F", description = "Cost of writing a page relative to reading it (f_a). Default: ${DEFAULT-VALUE}.")
    double writeCost = 1.0;
    @Option(names = "--min-write-memory", paramLabel = "SIZE", description = "Least write memory to recommend. Default: ${DEFAULT-VALUE}.")
    String minWriteMemory = "4m";
    @Option(names = "--min-cache", paramLabel = "SIZE", description = "Buffer cache kept beyond the filters. Default: ${DEFAULT-VALUE}.")
    String minCache = "4m";
    @Option(names = "--max-size-ratio", paramLabel = "T", description = "Largest size ratio searched (from 2). Default: ${DEFAULT-VALUE}.")
    int maxSizeRatio = 20;
    @Option(names = "--leveling-tiering-only", description = "Search only K = 1 and K = T - 1 (no runs-per-level policy).")
    boolean levelingTieringOnly;
    @Option(names = "--leveling-only", description = "Search only K = 1 (the memory split for an engine that runs leveling).")
    boolean levelingOnly;
    @Option(names = "--size-ratio", paramLabel = "T",
            description = "Search only this size ratio (the memory split for an engine that keeps its T); 0: every T from 2 to --max-size-ratio. Default: ${DEFAULT-VALUE}.")
    int sizeRatio;
    @Option(names = "--key-skew", paramLabel = "THETA|auto",
            description = "Zipf exponent of how often pages are read (0: uniform keys; YCSB's Zipfian keys about 0.99), or 'auto' with --from: "
                    + "the exponent with which the model's reads saved per op by more cache equal the engine's simulated cache's "
                    + "(its QUERY saved pages per op and MiB of simulated cache) at the design it runs (--engine-size-ratio, --engine-bloom-bits, leveling, its current write memory). "
                    + "Default: ${DEFAULT-VALUE}.")
    String keySkew = "0";
    @Option(names = "--engine-size-ratio", paramLabel = "T", description = "With --key-skew auto: the engine's size ratio. Default: ${DEFAULT-VALUE}.")
    int engineSizeRatio = 10;
    @Option(names = "--engine-bloom-bits", paramLabel = "BITS", description = "With --key-skew auto: the engine's Bloom bits per key. Default: ${DEFAULT-VALUE}.")
    double engineBloomBits = 10;
    @Option(names = "--step-write-cost", description = "The model of 2026-11-27: merge cost depends on the write memory only through the level count.")
    boolean stepWriteCost;
    @Option(names = "--slides-model", description = "The slides' model: no buffer cache, textbook Bloom filters.")
    boolean slidesModel;
    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Spec
    CommandSpec spec;

    /** The stats endpoint's answer (with --from). */
    private JsonNode stats;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Workload w = expectedWorkload();
        long page = Sizes.parse(pageSize);
        if (page > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--page-size " + pageSize + " is too large");
        }
        if (entries < 1) {
            throw new IllegalArgumentException("--entries must be >= 1, got " + entries);
        }
        Environment env = new Environment(entries, entryBytes, (int) page, Sizes.parse(totalMemory),
                Math.min(1.0, (double) rangeEntries / entries), seqCost, writeCost, false, false);
        EngineShape shape = EngineShape.BREAKWATER.withLevelSizedWrites(!stepWriteCost);
        double theta = 0;
        String skewNote = "";
        if (!slidesModel) {
            env = env.breakwater();
            if (keySkew.equals("auto")) {
                if (stats == null) {
                    throw new IllegalArgumentException("--key-skew auto needs --from (the engine's observed cache misses)");
                }
                JsonNode ops = stats.path("operations");
                long reads = ops.path("pointReads").asLong() + ops.path("scans").asLong();
                JsonNode query = stats.path("bufferCache").path("byPurpose").path("QUERY");
                long x = stats.path("writeMemoryCapacity").asLong();
                if (reads <= 0 || !query.has("misses") || x <= 0) {
                    throw new IOException(from + " answered no reads, QUERY cache misses or write memory to fit a key skew to");
                }
                double missesPerRead = query.get("misses").asDouble() / reads;
                long allOps = reads + ops.path("recordWrites").asLong();
                long simBytes = stats.path("bufferCache").path("simulatedCapacityPages").asLong() * page;
                if (simBytes <= 0 || !query.has("saved")) {
                    throw new IOException(from + " answered no simulated cache (bufferCache.simulatedCapacityPages, QUERY.saved) to fit a key skew to");
                }
                double savedPerMiB = query.get("saved").asDouble() / allOps / (simBytes / (double) (1 << 20));
                Design running = Design.uniform(x, engineBloomBits, engineSizeRatio, 1);
                theta = KeySkew.fitToSimulatedCache(env, shape, running, w, savedPerMiB, simBytes);
                skewNote = String.format("key skew fitted at T=%d leveling, %.0f bits/key, write memory %s: the simulated cache (%s) saved %.6f "
                                + "reads per op per MiB, which the model gives with theta %.3f (uniform keys: %.6f); %.4f page misses per read "
                                + "observed, which the model gives with theta %.3f (uniform keys: %.4f)%n",
                        engineSizeRatio, engineBloomBits, human(x), human(simBytes), savedPerMiB, theta,
                        KeySkew.savedPerOpPerMiB(env, shape, running, w, 0, simBytes), missesPerRead,
                        KeySkew.fitToMisses(env, shape, running, w, missesPerRead), KeySkew.readCostPerRead(env, shape, running, w, 0));
            } else {
                theta = Double.parseDouble(keySkew);
            }
            env = env.withKeySkew(theta);
        } else if (!keySkew.equals("0")) {
            throw new IllegalArgumentException("--key-skew needs the buffer cache model (not --slides-model)");
        }
        if (sizeRatio != 0 && (sizeRatio < 2 || sizeRatio > maxSizeRatio)) {
            throw new IllegalArgumentException("--size-ratio must be in [2, " + maxSizeRatio + "] (or 0), got " + sizeRatio);
        }
        DesignSpace space = DesignSpace.defaults().withSizeRatios(sizeRatio == 0 ? 2 : sizeRatio, sizeRatio == 0 ? maxSizeRatio : sizeRatio)
                .withFloors(Sizes.parse(minWriteMemory), slidesModel ? 0 : Sizes.parse(minCache));
        if (levelingTieringOnly) {
            space = space.levelingAndTieringOnly();
        }
        if (levelingOnly) {
            space = space.levelingOnlySpace();
        }
        LsmCostModel model = slidesModel ? new LsmCostModel(env) : new LsmCostModel(env, shape);
        DesignAdvisor advisor = new DesignAdvisor(model, space);
        Advice nominal = advisor.nominal(w, rho);
        Advice robust = advisor.robust(w, rho);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("workload", w);
            m.put("rho", rho);
            m.put("keySkew", theta);
            m.put("environment", env);
            m.put("nominal", describe(advisor.model(), nominal));
            m.put("robust", describe(advisor.model(), robust));
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(m));
        } else {
            out.print(skewNote);
            out.printf("expected workload %s, rho %.3f, %d entries of %d bytes, %s of memory%s%n", w, rho, entries, entryBytes,
                    human(env.totalMemoryBytes()), slidesModel ? " (slides' model: no cache)"
                            : String.format(" (key skew %.3f, merge cost %s)", theta, stepWriteCost ? "by level count" : "following write memory"));
            print(out, "nominal", advisor.model(), nominal);
            print(out, "robust", advisor.model(), robust);
            out.printf("(costs are I/Os per operation; worst case = the most expensive workload within KL divergence %.3f)%n", rho);
        }
        out.flush();
        return BreakwaterCli.OK;
    }

    private Workload expectedWorkload() throws IOException, InterruptedException {
        if ((workload == null) == (from == null)) {
            throw new IllegalArgumentException("give exactly one of --workload Z0,Z1,Q,U and --from URL");
        }
        if (workload != null) {
            String[] parts = workload.split(",");
            if (parts.length != 4) {
                throw new IllegalArgumentException("--workload needs 4 comma-separated numbers z0,z1,q,u, got '" + workload + "'");
            }
            double[] v = new double[4];
            for (int i = 0; i < 4; i++) {
                try {
                    v[i] = Double.parseDouble(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--workload: '" + parts[i].trim() + "' (" + Workload.NAMES.get(i) + ") is not a number");
                }
            }
            return Workload.of(v);
        }
        stats = fetch(from);
        JsonNode ops = stats.path("operations");
        if (!ops.has("pointReads") || !ops.has("scans") || !ops.has("recordWrites")) {
            throw new IOException(from + " answered no operations.pointReads/scans/recordWrites");
        }
        return Workload.fromCounts(ops.get("pointReads").asLong(), ops.get("scans").asLong(), ops.get("recordWrites").asLong(), emptyReads);
    }

    private static JsonNode fetch(URI url) throws IOException, InterruptedException {
        if ("file".equals(url.getScheme())) {
            // a saved answer of the endpoint: file:/absolute/path or file:relative/path
            java.nio.file.Path path = url.isOpaque() ? java.nio.file.Path.of(url.getSchemeSpecificPart()) : java.nio.file.Path.of(url);
            return JSON.readTree(java.nio.file.Files.readString(path));
        }
        URI target = url.getPath() == null || url.getPath().isEmpty() || url.getPath().equals("/") ? url.resolve("/stats") : url;
        if (!"http".equals(target.getScheme()) && !"https".equals(target.getScheme())) {
            throw new IllegalArgumentException("not an http(s) URL: " + url);
        }
        Duration timeout = Duration.ofSeconds(5);
        HttpResponse<String> response;
        try {
            response = HttpClient.newBuilder().connectTimeout(timeout).build()
                    .send(HttpRequest.newBuilder(target).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("no answer from " + target + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("GET " + target + " answered HTTP " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }

    private static void print(PrintWriter out, String name, LsmCostModel model, Advice a) {
        Design d = a.design();
        OperationCosts c = a.costs();
        out.printf("%-8s T=%d %s, %.0f bits/key, write memory %s, buffer cache %s (data pages %s), %d levels%n", name, d.sizeRatio(),
                d.policyName(), d.bloomBitsPerKey(), human(d.writeMemoryBytes()),
                human(model.environment().totalMemoryBytes() - d.writeMemoryBytes()), human(model.cacheBytes(d)), c.levels());
        out.printf("         Z0 %.4f  Z1 %.4f  Q %.4f  U %.4f  expected cost %.4f  worst case %.4f at %s%n", c.z0(), c.z1(), c.q(), c.u(),
                a.expectedCost(), a.worstCase().cost(), a.worstCase().workload());
        out.printf("         options: %s%n", String.join(" ", options(d).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
    }

    private static Map<String, Object> describe(LsmCostModel model, Advice a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("design", Map.of("sizeRatio", a.design().sizeRatio(), "runsPerLevel", a.design().runs(1), "policy", a.design().policyName(),
                "bloomBitsPerKey", a.design().bloomBitsPerKey(), "writeMemoryBytes", a.design().writeMemoryBytes()));
        m.put("costs", a.costs());
        m.put("expectedCost", a.expectedCost());
        m.put("worstCaseCost", a.worstCase().cost());
        m.put("worstCaseWorkload", a.worstCase().workload());
        m.put("options", options(a.design()));
        return m;
    }

    /**
     * The engine options that run {@code d}: K = 1 is the (partitioned) leveling policy, K = T − 1
     * tiering, anything between RUNS_PER_LEVEL; the write memory seeds the tuner (and is the fixed
     * split when the tuner is off).
     */
    static Map<String, String> options(Design d) {
        Map<String, String> o = new LinkedHashMap<>();
        int k = d.runs(1);
        o.put("size-ratio", String.valueOf(d.sizeRatio()));
        if (k == 1) {
            o.put("merge-policy", "LEVELING");
        } else if (k == d.sizeRatio() - 1) {
            o.put("merge-policy", "TIERING");
        } else {
            o.put("merge-policy", "RUNS_PER_LEVEL");
            o.put("runs-per-level", String.valueOf(k));
        }
        o.put("bloom-bits-per-key", String.valueOf((int) d.bloomBitsPerKey()));
        o.put("write-memory", mib(d.writeMemoryBytes()));
        o.put("tuner-seed", mib(d.writeMemoryBytes()));
        return o;
    }

    /** Bytes rounded up to whole MiB, as an option value ("12m"); rounding up never adds a level. */
    static String mib(long bytes) {
        return ((bytes + (1L << 20) - 1) >> 20) + "m";
    }

    /** Bytes for people: "12.3 MiB". */
    static String human(double bytes) {
        return bytes >= 1L << 30 ? String.format("%.2f GiB", bytes / (1L << 30)) : String.format("%.1f MiB", bytes / (1L << 20));
    }
}
