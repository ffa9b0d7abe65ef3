package dev.breakwater.bench.lsm;

import dev.breakwater.lsm.memory.MemoryComponent;
import dev.breakwater.lsm.memory.SkipListMemoryComponent;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Measures {@link MemoryComponent#put}: the average time of one insert of a random 16-byte key with
 * a 100-byte value into the concurrent off-heap skip-list, on one thread and on two threads sharing
 * one component.
 *
 * <p>How: every measurement iteration starts with a new, empty component over a write-memory pool
 * of {@value #POOL_BYTES} bytes (64 KiB pages, the default), so the component grows from empty
 * during the iteration and the pool never runs out (a refused insert fails the run rather than
 * being measured). Keys are generated on the measured path by an inline xorshift into a per-thread
 * array (a few ns, allocation-free); each thread has its own LSN counter. Because the component
 * grows during an iteration, the reported time is the average over component sizes from 0 to the
 * size reached at the end of the iteration, which the tear-down prints. Run with {@code -prof gc}
 * to confirm the insert path allocates nothing ({@code gc.alloc.rate.norm} close to 0 B/op).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
public class MemoryComponentInsertBenchmark {

    /** Large enough for several million inserts per iteration on two threads. */
    static final long POOL_BYTES = 6L << 30;
    static final int VALUE_BYTES = 100;

    /** The pool (for the whole trial) and the component (new per iteration), shared by all threads. */
    @State(Scope.Benchmark)
    public static class Shared {
        WriteMemoryPool pool;
        MemoryComponent component;

        @Setup(Level.Trial)
        public void openPool() {
            pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(POOL_BYTES).withName("bench-memory-component"));
        }

        @Setup(Level.Iteration)
        public void newComponent() {
            component = new SkipListMemoryComponent(pool);
        }

        @TearDown(Level.Iteration)
        public void closeComponent() {
            System.out.printf("  [component after iteration: %,d entries, %,d MiB of pages]%n",
                    component.entryCount(), component.bytesUsed() >> 20);
            component.close();
        }

        @TearDown(Level.Trial)
        public void closePool() {
            pool.close();
        }
    }

    /** One writer's key and value buffers, random state and LSN counter. */
    @State(Scope.Thread)
    public static class Writer {
        final byte[] key = new byte[BenchKeys.KEY_BYTES];
        final byte[] value = new byte[VALUE_BYTES];
        long random;
        long lsn;

        @Setup(Level.Trial)
        public void init() {
            random = BenchKeys.mix(System.nanoTime() ^ Thread.currentThread().getId()) | 1;
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) BenchKeys.mix(i);
            }
        }
    }

    private static boolean insert(Shared s, Writer w) {
        long r1 = BenchKeys.xorshift(w.random);
        long r2 = BenchKeys.xorshift(r1);
        w.random = r2;
        BenchKeys.putLong(w.key, 0, r1);
        BenchKeys.putLong(w.key, 8, r2);
        if (!s.component.put(w.key, BenchKeys.KEY_BYTES, w.value, VALUE_BYTES, false, w.lsn++)) {
            throw new IllegalStateException("write-memory pool of " + POOL_BYTES + " B exhausted: shorten the iteration");
        }
        return true;
    }

    @Benchmark
    @Threads(1)
    public boolean put1Thread(Shared s, Writer w) {
        return insert(s, w);
    }

    @Benchmark
    @Threads(2)
    public boolean put2Threads(Shared s, Writer w) {
        return insert(s, w);
    }
}
