package dev.breakwater.bench.membuf;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemoryComponent;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per-operation cost of each memory-buffer kind (paper 001 Fig. 2): inserts, point lookups, short
 * (16 keys) and long (1,000 keys) range scans, one thread, 64-byte entries (16-byte keys from
 * {@link BufferKind#key}, 48-byte values).
 *
 * <p>How: {@code insert} fills a new, empty component with {@value #ENTRIES} entries per invocation
 * (so the reported time is the mean over sizes 0 to {@value #ENTRIES}; the component is closed after
 * each invocation). The reads run against one component filled with the same {@value #ENTRIES}
 * entries at set-up and read once there, so a vector is sorted before measuring (the cost of reads
 * interleaved with writes is the driver's {@link MemoryBufferFigures}). Lookups probe existing keys
 * in a pseudo-random order. {@code -p prefix=..,.. -p buckets=..,..} sweeps the hash parameters
 * (Fig. 2b); {@code -prof gc} shows that {@code insert} and {@code pointGet} allocate nothing
 * ({@code gc.alloc.rate.norm} about 0 B/op); scans allocate their cursor.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
        "-XX:MaxDirectMemorySize=4g"})
@State(Scope.Benchmark)
public class MemoryBufferBenchmark {

    static final int ENTRIES = 50_000;
    static final int VALUE_BYTES = 48;
    static final long POOL_BYTES = 1L << 30;

    @Param({"SKIP_LIST", "VECTOR", "VECTOR_PRESIZED", "HASH_SKIP_LIST", "HASH_LINKED_LIST"})
    public String kind;
    @Param({"8"})
    public int prefix;
    @Param({"1024"})
    public int buckets;

    WriteMemoryPool pool;
    MemoryComponentSpec spec;
    byte[][] keys;
    final byte[] value = new byte[VALUE_BYTES];
    MemoryComponent filled;
    final ValueHolder out = new ValueHolder();
    long random = 0x2545F4914F6CDD1DL;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(POOL_BYTES).withName("bench-membuf"));
        spec = BufferKind.valueOf(kind).spec(prefix, buckets, ENTRIES);
        keys = BufferKind.keys(1, ENTRIES);
        for (int i = 0; i < VALUE_BYTES; i++) {
            value[i] = (byte) i;
        }
        filled = spec.create(pool);
        fill(filled, keys, value);
        filled.get(keys[0], keys[0].length, Long.MAX_VALUE, out); // a vector sorts here
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        filled.close();
        pool.close();
    }

    static void fill(MemoryComponent c, byte[][] keys, byte[] value) {
        for (int i = 0; i < keys.length; i++) {
            if (!c.put(keys[i], keys[i].length, value, value.length, false, i + 1)) {
                throw new IllegalStateException("write-memory pool exhausted");
            }
        }
    }

    /** An empty component for each invocation of {@link #insert}. */
    @State(Scope.Thread)
    public static class Fresh {
        MemoryComponent component;

        @Setup(Level.Invocation)
        public void create(MemoryBufferBenchmark b) {
            component = b.spec.create(b.pool);
        }

        @TearDown(Level.Invocation)
        public void close() {
            component.close();
        }
    }

    private int nextIndex() {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return (int) ((x >>> 33) % ENTRIES);
    }

    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long insert(Fresh f) {
        fill(f.component, keys, value);
        return f.component.entryCount();
    }

    @Benchmark
    public LookupResult pointGet() {
        byte[] k = keys[nextIndex()];
        return filled.get(k, k.length, Long.MAX_VALUE, out);
    }

    @Benchmark
    public long shortScan() throws IOException {
        return scan(16);
    }

    @Benchmark
    public long longScan() throws IOException {
        return scan(1_000);
    }

    private long scan(int n) throws IOException {
        byte[] k = keys[nextIndex()];
        long sum = 0;
        try (EntryCursor c = filled.cursor(k, k.length, Long.MAX_VALUE)) {
            for (int i = 0; i < n && c.next(); i++) {
                sum += c.keyLength();
            }
        }
        return sum;
    }
}
