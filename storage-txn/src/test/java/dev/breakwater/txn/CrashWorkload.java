package dev.breakwater.txn;

import static dev.breakwater.common.key.FieldType.INT32;
import static dev.breakwater.common.key.FieldType.INT64;
import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.common.config.BloomAllocationKind;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.MergePolicyKind;
import dev.breakwater.common.config.StorageConfig;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child process of the SIGKILL tests ({@link KillRecoverTest} and the {@code KillSoak} command
 * in {@code bench}): runs random multi-record transactions over three datasets until killed,
 * printing one line per step on standard output:
 *
 * <pre>
 *   OPENING            before StorageEngine.open (recovery runs inside it)
 *   READY              the engine is open and the datasets exist
 *   TRY &lt;txn id&gt;       before a transaction's commit (its outcome is unknown until ACK)
 *   ACK &lt;txn id&gt;       after its commit returned (SYNC durability: it must survive)
 *   CLOSING            before engine.close() (only with a close deadline)
 *   CLOSED             after close returned
 * </pre>
 *
 * <p>Arguments: {@code <dir> <first txn id> [<close after ms>]}. With a close deadline the child
 * stops starting transactions after that many milliseconds of work, closes the engine and exits, so
 * the parent can kill it during close.
 *
 * <p>Each transaction with id T in group g inserts ledger(T) = (g, n), inserts n events (T, i) with
 * an indexed field, and increments counter(g) by one. The invariants a recovered engine must hold
 * are checked by {@link CrashCheck}.
 */
public final class CrashWorkload {

    /** Number of counter rows (transaction groups). */
    public static final int GROUPS = 8;

    private CrashWorkload() {
    }

    /** System property naming a variant of {@link #config()}; {@value #GARNERING_MONKEY} or absent. */
    public static final String VARIANT_PROPERTY = "breakwater.crashVariant";
    /** The variant with merge-policy GARNERING (c = 0.5) and bloom-allocation MONKEY. */
    public static final String GARNERING_MONKEY = "GARNERING_MONKEY";
    /**
     * System property: hash partitions of each of the three datasets (default 1). The child creates
     * them so; the verifier reads whatever the catalog says.
     */
    public static final String PARTITIONS_PROPERTY = "breakwater.crash.partitions";
    /** With this system property true, the child and the verifiers trim and compress the log (paper 002). */
    public static final String PACKING_PROPERTY = "breakwater.crash.logPacking";

    /**
     * The configuration the child and every verifier use: small memory, so flushes and merges happen;
     * with {@code -Dbreakwater.crashVariant=GARNERING_MONKEY} Garnering and Monkey filters.
     */
    public static StorageConfig config() {
        return config(Boolean.getBoolean(PACKING_PROPERTY));
    }

    /**
     * {@link #config()}, with log trimming and compression on if {@code packing}: a log allowed to grow
     * past write memory (so sealed segments pile up) and λ_t = λ_s = 1, so trimming passes run often.
     */
    public static StorageConfig config(boolean packing) {
        StorageConfig.Builder b = EngineFixture.smallConfig().toBuilder();
        if (GARNERING_MONKEY.equals(System.getProperty(VARIANT_PROPERTY))) {
            b.set(ConfigOptions.MERGE_POLICY, MergePolicyKind.GARNERING).set(ConfigOptions.GARNERING_SCALE, 0.5)
                    .set(ConfigOptions.BLOOM_ALLOCATION, BloomAllocationKind.MONKEY);
        }
        if (packing) {
            b.set(ConfigOptions.MAX_LOG_SIZE, 32L << 20)
                    .set(ConfigOptions.LOG_TRIM, true)
                    .set(ConfigOptions.LOG_COMPRESSION, true)
                    .set(ConfigOptions.LOG_TRIM_START, 1.0)
                    .set(ConfigOptions.LOG_TRIM_STOP, 1.0);
        }
        return b.build();
    }

    /**
     * The command line that runs this workload in a child JVM with this JVM's Java, class path and
     * module options ({@code --add-*}, {@code -Dbreakwater*}). {@code closeAfterMillis < 0}: run
     * until killed.
     */
    public static List<String> childCommand(Path dir, long firstTxn, long closeAfterMillis) {
        return childCommand(dir, firstTxn, closeAfterMillis, List.of());
    }

    /** {@link #childCommand(Path, long, long)} with extra JVM options (such as {@code -D}{@link #PACKING_PROPERTY}). */
    public static List<String> childCommand(Path dir, long firstTxn, long closeAfterMillis, List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dbreakwater")) {
                cmd.add(arg);
            }
        }
        if (System.getProperty(VARIANT_PROPERTY) != null) {
            cmd.add("-D" + VARIANT_PROPERTY + "=" + System.getProperty(VARIANT_PROPERTY));
        }
        cmd.add("-Xmx256m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CrashWorkload.class.getName());
        cmd.add(dir.toString());
        cmd.add(Long.toString(firstTxn));
        if (closeAfterMillis >= 0) {
            cmd.add(Long.toString(closeAfterMillis));
        }
        return cmd;
    }

    private static int partitions() {
        return Integer.getInteger(PARTITIONS_PROPERTY, 1);
    }

    static DatasetSpec ledger() {
        return DatasetSpec.builder("ledger").field("txn", INT64).field("grp", INT32).field("n", INT32).primaryKey("txn").partitions(partitions()).build();
    }

    static DatasetSpec events() {
        return DatasetSpec.builder("events").field("txn", INT64).field("i", INT32).field("tag", STRING).field("pad", STRING)
                .primaryKey("txn", "i").secondaryIndex("by_tag", "tag").partitions(partitions()).build();
    }

    static DatasetSpec counters() {
        return DatasetSpec.builder("counter").field("grp", INT32).field("count", INT64).primaryKey("grp").partitions(partitions()).build();
    }

    /**
     * Creates whichever of the three datasets and counter rows do not exist yet. Safe to call again
     * after a crash in the middle of it (each step checks what is there).
     */
    public static void setUp(StorageEngine engine) {
        for (DatasetSpec spec : new DatasetSpec[] {ledger(), events(), counters()}) {
            if (!engine.datasetNames().contains(spec.name())) {
                engine.createDataset(spec);
            }
        }
        Dataset counter = engine.dataset("counter");
        for (int g = 0; g < GROUPS; g++) {
            if (counter.get(Key.of(g)) == null) {
                counter.insert(Tuple.of(g, 0L));
            }
        }
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long firstTxn = Long.parseLong(args[1]);
        long closeAfterMillis = args.length > 2 ? Long.parseLong(args[2]) : -1;
        SplittableRandom rnd = new SplittableRandom(firstTxn);
        PrintStream out = System.out;
        out.println("OPENING");
        out.flush();
        StorageEngine engine = StorageEngine.open(dir, config());
        setUp(engine);
        Dataset ledger = engine.dataset("ledger");
        Dataset events = engine.dataset("events");
        Dataset counter = engine.dataset("counter");
        out.println("READY");
        out.flush();
        long deadline = closeAfterMillis < 0 ? Long.MAX_VALUE : System.nanoTime() + closeAfterMillis * 1_000_000L;
        for (long txn = firstTxn; System.nanoTime() < deadline; txn++) {
            long t = txn;
            int grp = rnd.nextInt(GROUPS);
            int n = 1 + rnd.nextInt(6);
            String pad = "p".repeat(rnd.nextInt(200));
            out.println("TRY " + t);
            out.flush();
            engine.inTransaction(tx -> {
                tx.insert(ledger, Tuple.of(t, grp, n));
                for (int i = 0; i < n; i++) {
                    tx.insert(events, Tuple.of(t, i, "tag" + ((t + i) % 17), pad));
                }
                Tuple c = tx.get(counter, Key.of(grp));
                tx.upsert(counter, c.with(1, c.getLong(1) + 1));
            });
            out.println("ACK " + t);
            out.flush();
        }
        out.println("CLOSING");
        out.flush();
        engine.close();
        out.println("CLOSED");
        out.flush();
    }
}
