package dev.breakwater.common.config;

import static dev.breakwater.common.config.Sizes.GIB;
import static dev.breakwater.common.config.Sizes.KIB;
import static dev.breakwater.common.config.Sizes.MIB;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The table of every configuration option of Breakwater. This is the only place an option is
 * declared: adding a constant here makes it loadable from files, validated, reported and
 * documented. Relations between options are declared here too ({@link #CONSTRAINTS}).
 *
 * <p>Names are kebab-case; the same names are the keys in JSON and YAML files.
 *
 * <p>Immutable after class initialization; thread-safe.
 */
public final class ConfigOptions {

    // Filled by define(), in declaration order; must be declared before the options.
    private static final Map<String, Option<?>> BY_NAME = new LinkedHashMap<>();

    // ---- memory (DESIGN.md §3) --------------------------------------------------------------
    public static final Option<Long> PAGE_SIZE = define("page-size", ValueType.BYTES, 16 * KIB, "bytes",
            4 * KIB, MIB, v -> Long.bitCount(v) == 1, "power of two",
            "Size of disk and buffer-cache pages.");
    public static final Option<Long> TOTAL_MEMORY = define("total-memory", ValueType.BYTES, 256 * MIB, "bytes",
            MIB, null, null, null,
            "Total storage memory M: write memory plus buffer cache. The buffer cache gets total-memory minus write-memory.");
    public static final Option<Long> WRITE_MEMORY = define("write-memory", ValueType.BYTES, 64 * MIB, "bytes",
            MIB, null, null, null,
            "Initial write memory M_w, one global pool shared by the memory components of all LSM-trees; the tuner moves it at run time.");
    public static final Option<Long> SIMULATED_CACHE = define("simulated-cache", ValueType.BYTES, 128 * MIB, "bytes",
            0L, null, null, null,
            "At most this many bytes of pages represented by the simulated (ghost) cache of evicted page ids; 0 disables it. "
                    + "The ghost's size is the smaller of this and simulated-cache-fraction of total-memory.");
    public static final Option<Double> SIMULATED_CACHE_FRACTION = define("simulated-cache-fraction", ValueType.DOUBLE, 0.0625, "fraction",
            0.001, 1.0, null, null,
            "Size of the simulated cache as a fraction of total-memory (capped by simulated-cache). The tuner reads the "
                    + "saves per page of the ghost as the slope of read cost at the cache's current size, so the ghost must be "
                    + "small against the cache: a ghost of 128 MiB beside a 20 MiB cache averaged the slope over 20-148 MiB and "
                    + "under-predicted the reads a smaller cache costs 3-5 times (docs/benchmarks-tuner.md, twelfth session).");
    public static final Option<Boolean> DIRECT_IO = define("direct-io", ValueType.BOOLEAN, true, "",
            null, null, null, null,
            "Read disk components with direct I/O so that the buffer cache is the only cache.");
    public static final Option<Long> BUFFER_CACHE_PIN_WAIT = define("buffer-cache-pin-wait", ValueType.MILLIS, 1000L, "ms",
            0L, 3_600_000L, null, null,
            "How long a pin waits for a free buffer-cache frame before failing; 0 fails at once.");

    // ---- LSM-trees (DESIGN.md §4) -----------------------------------------------------------
    public static final Option<Double> BLOOM_BITS_PER_KEY = define("bloom-bits-per-key", ValueType.DOUBLE, 10.0, "bits",
            0.0, 64.0, null, null,
            "Bloom filter bits per key in disk components; 10 gives about 1% false positives, 0 disables filters.");
    public static final Option<Integer> SIZE_RATIO = define("size-ratio", ValueType.INT, 10, "",
            2, 100, null, null,
            "Size ratio T between adjacent levels (leveling) or runs per level (tiering).");
    public static final Option<Long> TARGET_SSTABLE_SIZE = define("target-sstable-size", ValueType.BYTES, 64 * MIB, "bytes",
            64 * KIB, 16 * GIB, null, null,
            "Target size of an SSTable written by a flush or a merge.");
    public static final Option<MergePolicyKind> MERGE_POLICY = define("merge-policy", ValueType.enumOf(MergePolicyKind.class),
            MergePolicyKind.LEVELING, "", null, null, null, null,
            "Merge policy of every LSM-tree.");
    public static final Option<Integer> RUNS_PER_LEVEL = define("runs-per-level", ValueType.INT, 1, "runs",
            1, 99, null, null,
            "With merge-policy RUNS_PER_LEVEL: the most sorted runs K a level holds, below size-ratio (1 is leveling, size-ratio - 1 tiering).");
    public static final Option<Double> GARNERING_SCALE = define("garnering-scale", ValueType.DOUBLE, 0.8, "",
            0.01, 1.0, null, null,
            "Garnering's scaling factor c (merge-policy GARNERING): level i+1 is T/c^(N-1-i) times level i, so smaller c "
                    + "means fewer, larger levels; 1.0 is static leveling.");
    public static final Option<BloomAllocationKind> BLOOM_ALLOCATION = define("bloom-allocation",
            ValueType.enumOf(BloomAllocationKind.class), BloomAllocationKind.UNIFORM, "", null, null, null, null,
            "How Bloom filter memory is spread over levels: UNIFORM (bloom-bits-per-key everywhere) or MONKEY (the same total "
                    + "memory, minimising the summed false-positive rate: more bits for small runs, fewer for the last level).");
    public static final Option<LeafCompression> LEAF_COMPRESSION = define("leaf-compression",
            ValueType.enumOf(LeafCompression.class), LeafCompression.NONE, "", null, null, null, null,
            "Compression of B+-tree leaf pages in disk components.");
    public static final Option<Long> MEMORY_COMPONENT_SIZE = define("memory-component-size", ValueType.BYTES, 32 * MIB, "bytes",
            64 * KIB, null, null, null,
            "Size of the active memory component M0 of a tree (capped at an eighth of write memory); when full it becomes "
                    + "immutable and joins memory level M1.");
    public static final Option<Double> FLUSH_THRESHOLD = define("flush-threshold", ValueType.DOUBLE, 0.95, "fraction",
            0.5, 1.0, null, null,
            "Fraction of write memory in use at which the flush policy starts flushing.");
    public static final Option<Long> LEVEL_SHARE_TIME_CONSTANT = define("level-share-time-constant", ValueType.MILLIS, 10_000L, "ms",
            1L, 3_600_000L, null, null,
            "Time constant of the write-memory share a tree's disk levels are sized from: an average of the memory the tree holds "
                    + "over the time it is written (an idle tree keeps its share), so level targets do not swing with every flush. "
                    + "A tree adds or retires no level until it has been written for this long after the engine opened it.");
    public static final Option<WriteMemoryScheme> WRITE_MEMORY_SCHEME = define("write-memory-scheme",
            ValueType.enumOf(WriteMemoryScheme.class), WriteMemoryScheme.PARTITIONED, "", null, null, null, null,
            "How write memory is organized: PARTITIONED (paper 000 §4.1: M0 plus memory levels, partial flushes), DYNAMIC "
                    + "(B+-dynamic: one mutable memory component per tree, flushed whole, no per-tree limit) or STATIC (B+-static: "
                    + "at most static-active-datasets datasets, each with an equal share).");
    public static final Option<FlushPolicyKind> FLUSH_POLICY = define("flush-policy", ValueType.enumOf(FlushPolicyKind.class),
            FlushPolicyKind.OPTIMAL, "", null, null, null, null,
            "Which tree a memory-triggered flush picks: MAX_MEMORY, MIN_LSN, or OPTIMAL (memory proportional to write rate). "
                    + "Log-triggered flushes always pick the minimum LSN.");
    public static final Option<Integer> STATIC_ACTIVE_DATASETS = define("static-active-datasets", ValueType.INT, 8, "datasets",
            1, 10_000, null, null,
            "With the STATIC scheme: datasets that may hold write memory at once (D); each gets 1/D of write memory.");
    public static final Option<MemoryComponentKind> MEMORY_COMPONENT_KIND = define("memory-component-kind",
            ValueType.enumOf(MemoryComponentKind.class), MemoryComponentKind.SKIP_LIST, "", null, null, null, null,
            "Data structure of the active memory component M0 of every tree (paper 001), unless its dataset's spec overrides it "
                    + "(DatasetSpec.memoryComponent): SKIP_LIST, VECTOR (append, sort "
                    + "when read or sealed), HASH_SKIP_LIST or HASH_LINKED_LIST (hash on a key prefix; scans merge all buckets).");
    public static final Option<Integer> MEMORY_COMPONENT_HASH_PREFIX = define("memory-component-hash-prefix", ValueType.INT, 8,
            "bytes", 1, 1024, null, null,
            "With a HASH_* memory component: length of the key prefix that is hashed (shorter keys hash whole).");
    public static final Option<Integer> MEMORY_COMPONENT_HASH_BUCKETS = define("memory-component-hash-buckets", ValueType.INT,
            1024, "buckets", 1, 1 << 24, null, null,
            "With a HASH_* memory component: buckets of its hash table (8 bytes each, plus a 104-byte head per used bucket "
                    + "of HASH_SKIP_LIST), drawn from write memory on the first write. With PARTITIONED, the bucket array "
                    + "(in whole 64 KiB write-memory pages) must stay below half of M0.");
    public static final Option<Integer> MEMORY_COMPONENT_VECTOR_RESERVE = define("memory-component-vector-reserve", ValueType.INT,
            0, "entries", 0, 1 << 26, null, null,
            "With a VECTOR memory component: entries whose index slots (8 bytes each) are reserved on the first write "
                    + "(the pre-sized vector), counted in M0; 0 grows the index one page at a time. With PARTITIONED, "
                    + "8 bytes times the reserve must stay below half of M0.");
    public static final Option<Integer> L0_SLOWDOWN_GROUPS = define("l0-slowdown-groups", ValueType.INT, 8, "groups",
            1, 1000, null, null,
            "Number of L0 groups at which writes are slowed down so merges can catch up. With LEVELING, L0 merges wait "
                    + "for up to this minus 2 groups while the L1 bytes they would rewrite exceed twice L0 (see l0-merge-policy).");
    public static final Option<Integer> L0_STOP_GROUPS = define("l0-stop-groups", ValueType.INT, 12, "groups",
            2, 1000, null, null,
            "Number of L0 groups at which writes stop until merges reduce it.");
    public static final Option<L0MergePolicy> L0_MERGE_POLICY = define("l0-merge-policy", ValueType.enumOf(L0MergePolicy.class),
            L0MergePolicy.GROUPS, "", null, null, null, null,
            "With LEVELING: GROUPS merges L0 into L1 from min(4, l0-slowdown-groups) groups once L0 holds at least half "
                    + "the L1 bytes the merge rewrites, and at l0-slowdown-groups - 2 groups in any case (fewer, larger L0 "
                    + "merges while L1 is large; while L0 is still thin against L1 that forced merge joins the L0 groups into one "
                    + "instead), and sizes levels from the tree's write memory M; BATCHED merges at l0-slowdown-groups - 2 groups (at least 2) and sizes levels from that "
                    + "batch (groups times M), for fewer, larger L0 merges and less write amplification at the cost of more L0 "
                    + "groups to read (docs/design.md).");
    public static final Option<Integer> L0_MERGE_TABLES = define("l0-merge-tables", ValueType.INT, 0, "tables",
            0, 1_000_000, null, null,
            "With LEVELING: L0 tables (over all groups) at which all of L0 is merged into L1 even below the group trigger; "
                    + "0 turns this off. L0 is also merged whole once it holds as many times the tree's write memory as its group trigger "
                    + "counts groups (see l0-merge-policy), "
                    + "so flushes that overlap nothing in L0 (increasing keys) cannot pile up; this bounds the table count "
                    + "too, for small (e.g. compressed) tables.");
    public static final Option<Integer> FLUSH_THREADS = define("flush-threads", ValueType.INT, 1, "threads",
            1, 64, null, null,
            "Threads that write flushes.");
    public static final Option<Integer> MERGE_THREADS = define("merge-threads", ValueType.INT, 1, "threads",
            1, 64, null, null,
            "Threads that run merges.");
    public static final Option<Integer> MEMORY_MERGE_THREADS = define("memory-merge-threads", ValueType.INT, 1, "threads",
            1, 64, null, null,
            "Threads that run memory merges between the memory levels of partitioned memory components (PARTITIONED scheme).");

    // ---- log (DESIGN.md §5) -----------------------------------------------------------------
    public static final Option<Durability> DURABILITY = define("durability", ValueType.enumOf(Durability.class),
            Durability.SYNC, "", null, null, null, null,
            "SYNC: commit returns after the log is on disk. ASYNC: commit returns once logged in memory.");
    public static final Option<Long> ASYNC_SYNC_INTERVAL = define("async-sync-interval", ValueType.MILLIS, 10L, "ms",
            1L, 60_000L, null, null,
            "With ASYNC durability, the longest time a logged commit waits to be synced.");
    public static final Option<Long> LOG_SEGMENT_SIZE = define("log-segment-size", ValueType.BYTES, 64 * MIB, "bytes",
            MIB, GIB, null, null,
            "Size of one transaction-log segment file.");
    public static final Option<Long> MAX_TRANSACTION_SIZE = define("max-transaction-size", ValueType.BYTES, MIB, "bytes",
            64 * KIB, GIB, null, null,
            "Largest log payload of one transaction: the encoded keys and records of every tree write it makes (a record write "
                    + "costs about its key and record plus each secondary key, twice for a changed one, plus 17 bytes per tree write). "
                    + "The write that would take a transaction past it fails at once with TransactionTooLargeException; the "
                    + "transaction stays usable. Capped at log-segment-size minus the 16-byte log record header.");
    public static final Option<Long> MAX_LOG_SIZE = define("max-log-size", ValueType.BYTES, GIB, "bytes",
            MIB, null, null, null,
            "Log length at which log-triggered flushes start so the log can be truncated; also triggers a tuning cycle.");
    public static final Option<Integer> RECOVERY_THREADS = define("recovery-threads", ValueType.INT, 0, "threads",
            0, 64, null, null,
            "Threads that apply replayed log records to the trees at open, beside the thread that reads and checks the "
            + "log; each tree is applied by one of them, in LSN order. 0: one per available processor beyond the first "
            + "(at least 1, at most 8).");
    public static final Option<LogRecoveryMode> LOG_RECOVERY = define("log-recovery",
            ValueType.enumOf(LogRecoveryMode.class), LogRecoveryMode.STRICT, "", null, null, null, null,
            "What open does when the log or checkpoint is damaged other than by a crash (a bad record with intact "
            + "records after it or in a sealed segment, a log shorter than the checkpoint saw durable, a bad checkpoint). "
            + "STRICT: refuse to open, naming the file and byte offset, and change no file. SALVAGE: recover every record "
            + "before the damage, flush, move every old segment into log/salvaged-<millis>/ (never deleted), log at ERROR "
            + "what was dropped, and open with the log continuing at a fresh LSN (docs/formats.md section 5).");

    public static final Option<Boolean> LOG_COMPRESSION = define("log-compression", ValueType.BOOLEAN, false, "",
            null, null, null, null,
            "LZ4-compress sealed log segments in the background (paper 002); recovery decompresses several at once. "
                    + "Off: segments stay as written.");
    public static final Option<Boolean> LOG_TRIM = define("log-trim", ValueType.BOOLEAN, false, "",
            null, null, null, null,
            "Rewrite sealed log segments in the background without the tree writes no longer held only in memory "
                    + "(paper 002), and fire log-triggered flushes on the log's size on disk, so write memory can keep "
                    + "data the log would otherwise force out. Off: today's log.");
    public static final Option<Double> LOG_TRIM_START = define("log-trim-start", ValueType.DOUBLE, 2.5, "ratio",
            1.0, 1000.0, null, null,
            "λ_t: with log-trim, a trimming pass starts when the sealed log segments take more than this many times the "
                    + "bytes in write memory on disk, or when the log takes more than half of max-log-size on disk.");
    public static final Option<Double> LOG_TRIM_STOP = define("log-trim-stop", ValueType.DOUBLE, 1.5, "ratio",
            1.0, 1000.0, null, null,
            "λ_s: a trimming pass that cannot bring the sealed log below this many times the bytes in write memory is "
                    + "not repeated until the log has grown by a segment.");
    public static final Option<Double> LOG_TRIM_MIN_DEAD = define("log-trim-min-dead", ValueType.DOUBLE, 0.5, "ratio",
            0.0, 1.0, null, null,
            "With log-trim, a trimming pass rewrites a sealed segment only when at least this fraction of its bytes is "
                    + "no longer needed, plus the older segments that must then drop writes of the same keys so that "
                    + "replay cannot bring back an old value. 0: rewrite every segment the pass would change.");

    // ---- operability (docs/operability.md; served by the storage-ops module) -----------------
    public static final Option<Boolean> HTTP_ENABLED = define("http-enabled", ValueType.BOOLEAN, false, "",
            null, null, null, null,
            "Serve the read-only stats endpoint and page over HTTP (needs the storage-ops module on the class path).");
    public static final Option<Integer> HTTP_PORT = define("http-port", ValueType.INT, 8086, "",
            0, 65_535, null, null,
            "TCP port of the stats endpoint; 0 picks a free port (logged at open).");
    public static final Option<String> HTTP_BIND = define("http-bind", ValueType.STRING, "127.0.0.1", "",
            null, null, v -> !v.isBlank(), "not blank",
            "Address the stats endpoint listens on; the loopback default keeps it off the network.");
    public static final Option<Long> HTTP_IDLE_TIMEOUT = define("http-idle-timeout", ValueType.MILLIS, 30_000L, "ms",
            100L, 3_600_000L, null, null,
            "The stats endpoint closes a connection that sends or accepts nothing for this long (slow or stalled clients).");
    public static final Option<Boolean> JMX_ENABLED = define("jmx-enabled", ValueType.BOOLEAN, true, "",
            null, null, null, null,
            "Register JMX MBeans under dev.breakwater while the engine is open (needs the storage-ops module on the class path).");

    // ---- memory tuner (DESIGN.md §3, docs/tuner.md) ----------------------------------------
    public static final Option<Boolean> TUNER = define("tuner", ValueType.BOOLEAN, true, "",
            null, null, null, null,
            "Run the memory tuner, which moves memory between write memory and the buffer cache; off keeps the configured split.");
    public static final Option<Double> TUNER_WRITE_WEIGHT = define("tuner-write-weight", ValueType.DOUBLE, 1.0, "",
            0.0, 1000.0, null, null,
            "Weight ω of pages written in the cost the tuner minimizes (2 on SSDs whose writes cost twice their reads).");
    public static final Option<Double> TUNER_READ_WEIGHT = define("tuner-read-weight", ValueType.DOUBLE, 1.0, "",
            0.0, 1000.0, null, null,
            "Weight γ of pages read in the cost the tuner minimizes.");
    public static final Option<Integer> TUNER_SAMPLES = define("tuner-samples", ValueType.INT, 3, "cycles",
            2, 100, null, null,
            "K: recent cycles the tuner fits its Newton-Raphson line through.");
    public static final Option<Double> TUNER_FALLBACK_STEP = define("tuner-fallback-step", ValueType.DOUBLE, 0.05, "fraction",
            0.001, 0.5, null, null,
            "Fixed step, as a fraction of total memory, when the Newton-Raphson step cannot be used.");
    public static final Option<Double> TUNER_MAX_DECREASE = define("tuner-max-decrease", ValueType.DOUBLE, 0.10, "fraction",
            0.01, 0.9, null, null,
            "Largest fraction of the shrinking region (write memory or buffer cache) one tuning step may take.");
    public static final Option<Integer> TUNER_CLIMB_SAMPLES = define("tuner-climb-samples", ValueType.INT, 2, "cycles",
            0, 100, v -> v == 0 || v >= 2, "0 (off) or at least 2",
            "n: when the last n cycles' cost' agree in sign and each lies one noise sigma from zero, the tuner climbs: "
                    + "it steps even where the noise rule would hold, doubling the previous step up to tuner-max-step "
                    + "(docs/tuner.md). 0 turns the climb off (the paper's rules alone).");
    public static final Option<Double> TUNER_MAX_STEP = define("tuner-max-step", ValueType.DOUBLE, 0.25, "fraction",
            0.001, 0.9, null, null,
            "Largest climb step, as a fraction of total memory (tuner-max-decrease still limits every step).");
    public static final Option<Double> TUNER_MIN_STEP = define("tuner-min-step", ValueType.DOUBLE, 1.0 / 128, "fraction",
            0.0, 0.5, null, null,
            "Steps smaller than this fraction of total memory (and than one buffer-cache chunk) are not taken; "
                    + "1/128 is the paper's 32 MB at 4 GiB.");
    public static final Option<Double> TUNER_MIN_GAIN = define("tuner-min-gain", ValueType.DOUBLE, 0.001, "fraction",
            0.0, 1.0, null, null,
            "Steps whose expected cost reduction is under this fraction of the current I/O cost are not taken.");
    public static final Option<Boolean> TUNER_FLUSH_CAUSE_SCALING = define("tuner-flush-cause-scaling", ValueType.BOOLEAN, false, "",
            null, null, null, null,
            "Scale each tree's merge saving (paper 000 eq. 4) by its share of memory-triggered flushes (eq. 5, the paper's rule). "
                    + "Off by default: Breakwater sizes L0 merges and levels by the tree's write memory, not by its flushes (docs/tuner.md).");
    public static final Option<Boolean> TUNER_QUERY_LEVELS = define("tuner-query-levels", ValueType.BOOLEAN, true, "",
            null, null, null, null,
            "Count, in read'(x), the query reads more write memory saves by leaving each tree fewer disk levels "
                    + "(eq. 4's form applied to each tree's query reads; not in paper 000). Off: eq. 6 alone, "
                    + "where more write memory changes query reads only through the smaller cache (docs/tuner.md).");
    public static final Option<Long> TUNER_PERIOD = define("tuner-period", ValueType.MILLIS, 600_000L, "ms",
            100L, 86_400_000L, null, null,
            "A tuning cycle runs when the log has grown by max-log-size since the last one, or after this long.");
    public static final Option<Long> TUNER_WRITE_MEMORY_FLOOR = define("tuner-write-memory-floor", ValueType.BYTES, 4 * MIB, "bytes",
            MIB, null, null, null,
            "The tuner never shrinks write memory below this, nor below two active memory components plus the flush threshold's headroom.");
    public static final Option<Integer> TUNER_CACHE_FLOOR_PAGES = define("tuner-cache-floor-pages", ValueType.INT, 256, "pages",
            16, Integer.MAX_VALUE, null, null,
            "The tuner never shrinks the buffer cache below this many pages.");
    public static final Option<Long> TUNER_SEED = define("tuner-seed", ValueType.BYTES, 0L, "bytes",
            0L, null, null, null,
            "Write memory the tuner starts from, set once the engine is open (0: start from write-memory); "
                    + "unlike write-memory it does not size memory components. A design advisor seeds it.");
    public static final Option<Integer> TUNER_HISTORY = define("tuner-history", ValueType.INT, 1000, "cycles",
            1, 1_000_000, null, null,
            "Tuning cycles kept in the history reported by the engine's statistics.");

    /** Every option, in declaration order. */
    public static final List<Option<?>> ALL = List.copyOf(BY_NAME.values());

    /** Relations between options, checked when a configuration is built. */
    public static final List<OptionConstraint<?>> CONSTRAINTS = List.of(
            OptionConstraint.lessThan(WRITE_MEMORY, TOTAL_MEMORY, "the buffer cache gets the rest"),
            OptionConstraint.atMost(MEMORY_COMPONENT_SIZE, WRITE_MEMORY, "M0 must fit in write memory"),
            OptionConstraint.lessThan(L0_SLOWDOWN_GROUPS, L0_STOP_GROUPS, "writes slow down before they stop"),
            OptionConstraint.atMost(LOG_SEGMENT_SIZE, MAX_LOG_SIZE, "the log holds at least one segment"),
            OptionConstraint.lessThan(RUNS_PER_LEVEL, SIZE_RATIO, "a level holds at most T - 1 runs"),

            OptionConstraint.atMost(LOG_TRIM_STOP, LOG_TRIM_START, "a trimming pass aims below where it starts"));

    private ConfigOptions() {
    }

    /** The option called {@code name}, or {@code null}. */
    public static Option<?> byName(String name) {
        return BY_NAME.get(name);
    }

    /** All option names, comma separated, for error messages. */
    public static String names() {
        return String.join(", ", BY_NAME.keySet());
    }

    private static <T extends Comparable<? super T>> Option<T> define(
            String name, ValueType<T> type, T defaultValue, String unit, T min, T max,
            Predicate<T> rule, String ruleText, String description) {
        Option<T> option = new Option<>(name, type, defaultValue, unit, min, max, rule, ruleText, description);
        if (BY_NAME.putIfAbsent(name, option) != null) {
            throw new IllegalStateException("option '" + name + "' declared twice");
        }
        return option;
    }
}
