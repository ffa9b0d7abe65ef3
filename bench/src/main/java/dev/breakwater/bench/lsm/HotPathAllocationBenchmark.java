package dev.breakwater.bench.lsm;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.txn.log.LogManager;
import dev.breakwater.txn.log.LogOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The three hot paths the issue requires to allocate nothing per operation, one benchmark each, to
 * be run with {@code -prof gc} (whose {@code gc.alloc.rate.norm} is bytes allocated per operation,
 * counted over all threads, so background flushes and merges are included):
 * <ul>
 *   <li>{@code put}: {@code LsmTree.put} of a 16-byte key and a 100-byte value, overwriting a key
 *       set of {@value #KEYS} keys (so the tree stays small; flushes run in the background);</li>
 *   <li>{@code get}: {@code LsmTree.get} of one of those keys into a reused {@link ValueHolder};</li>
 *   <li>{@code logAppend}: {@code LogManager.append(ByteBuffer)} of a 100-byte payload, ASYNC.</li>
 * </ul>
 * Keys are pre-generated and chosen by an inline xorshift, so the harness allocates nothing.
 *
 * <p>Thread safety: JMH states, one thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
@State(Scope.Benchmark)
public class HotPathAllocationBenchmark {

    static final int KEYS = 100_000;
    static final int VALUE_BYTES = 100;

    BenchTree bench;
    LogManager log;
    Path logDir;
    byte[][] keys;
    byte[] value = new byte[VALUE_BYTES];
    ByteBuffer payload = ByteBuffer.allocateDirect(VALUE_BYTES);
    ValueHolder out = new ValueHolder();
    long seed = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void open() throws IOException {
        bench = new BenchTree(null, LsmTreeOptions.defaults(4096, 8L << 20), 256L << 20, 64L << 20);
        keys = BenchKeys.keys(BenchKeys.PRESENT, KEYS);
        for (byte[] k : keys) {
            bench.tree.put(k, value, 0);
        }
        logDir = Files.createTempDirectory("breakwater-hotpath-log-");
        log = LogManager.open(RealFileSystem.create(), logDir, LogOptions.of(64L << 20, Durability.ASYNC), new IoStatistics());
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        bench.close();
        log.close();
        try (Stream<Path> s = Files.walk(logDir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private int next() {
        long x = seed;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        seed = x;
        return (int) ((x >>> 1) % KEYS);
    }

    @Benchmark
    public void put() throws IOException {
        bench.tree.put(keys[next()], value, 0);
    }

    @Benchmark
    public LookupResult get() throws IOException {
        return bench.tree.get(keys[next()], out);
    }

    @Benchmark
    public long logAppend() throws IOException {
        payload.clear();
        return log.append(payload);
    }
}
