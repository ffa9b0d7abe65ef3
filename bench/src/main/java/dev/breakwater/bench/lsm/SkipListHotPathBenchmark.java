package dev.breakwater.bench.lsm;

import dev.breakwater.common.key.KeyEncoder;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemoryComponent;
import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.RecordCursor;
import dev.breakwater.lsm.memory.RecordMerger;
import dev.breakwater.lsm.memory.SkipListMemoryComponent;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The active skip list's hot paths at the scale of the issue-13 YCSB run (1M records of 1 KB, 64 MB
 * of write memory): a point {@code get} of a present key (YCSB's read, and the read before every
 * update), a {@code put} into an M0 that already holds {@code m0MiB} of records, and the seal of such
 * an M0: learning its key range (what {@code Flusher.keyRange} does) and copying its records into
 * memory SSTables ({@link MemorySSTable#build}, what a seal into the memory levels does). The key
 * range is measured both ways: {@code keyRangeFullPass} is the pass over every record that
 * {@code Flusher.keyRange} made before issue 13's sixth session, {@code keyRange} the
 * {@link MemoryComponent#firstKey()}/{@link MemoryComponent#lastKey()} it uses now.
 *
 * <p>Keys are YCSB's: {@code "user"} followed by the FNV-64 hash of the record number in decimal,
 * encoded as the YCSB binding encodes its string key ({@link KeyEncoder#writeString}: a type tag,
 * the bytes, a terminator; about 24 bytes). Values are 1,000 bytes. The component of the get and
 * seal benchmarks is filled once per trial with {@code m0MiB} of such records, single-threaded.
 *
 * <p>The put benchmark starts every iteration on a fresh component holding the same {@code m0MiB}
 * of records and times {@value #PUTS_PER_ITERATION} puts of new keys as one shot, so the component
 * grows by only about 8 MB during the measurement.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar SkipListHotPathBenchmark -rf json -rff out.json}.
 */
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SkipListHotPathBenchmark {

    static final int VALUE_BYTES = 1000;
    static final int PUTS_PER_ITERATION = 8192;
    /** Holds the filled component, the put benchmark's growth and the seal's memory SSTables. */
    static final long POOL_BYTES = 1L << 30;
    /** Record numbers of the M1 run's keys start here, far from M0's. */
    static final long OTHER_KEYS = 1L << 40;

    /** A filled component and the keys it holds. */
    @State(Scope.Benchmark)
    public static class Filled {
        @Param({"16", "64"})
        int m0MiB;

        WriteMemoryPool pool;
        MemoryComponent component;
        byte[][] keys;
        final byte[] value = new byte[VALUE_BYTES];
        final ValueHolder out = new ValueHolder();
        long random = 0x9E3779B97F4A7C15L;
        int nextRecord;
        /** An M1 run for the merging seal: memory SSTables of 16 MB holding as many other keys as M0. */
        List<MemorySSTable> m1;

        @Setup(Level.Trial)
        public void fill() {
            pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(POOL_BYTES).withName("bench-skiplist-hotpath"));
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) BenchKeys.mix(i);
            }
            component = new SkipListMemoryComponent(pool);
            int n = 0;
            byte[][] k = new byte[1 << 16][];
            while (component.bytesUsed() < ((long) m0MiB << 20)) {
                if (n == k.length) {
                    k = java.util.Arrays.copyOf(k, n * 2);
                }
                k[n] = ycsbKey(n);
                put(component, k[n], value, n);
                n++;
            }
            keys = java.util.Arrays.copyOf(k, n);
            nextRecord = n;
            try (MemoryComponent other = new SkipListMemoryComponent(pool)) {
                for (int i = 0; i < n; i++) {
                    put(other, ycsbKey(OTHER_KEYS + i), value, i);
                }
                m1 = sealed(pool, other.sealedRecords());
            }
            System.out.printf("  [M0: %,d records, %,d MiB of pages]%n", component.entryCount(), component.bytesUsed() >> 20);
        }

        @TearDown(Level.Trial)
        public void close() {
            m1.forEach(MemorySSTable::unref);
            component.close();
            pool.close();
        }
    }

    /** The put benchmark's component: refilled before every iteration, closed after it. */
    @State(Scope.Benchmark)
    public static class Growing {
        @Param({"16", "64"})
        int m0MiB;

        WriteMemoryPool pool;
        MemoryComponent component;
        final byte[] value = new byte[VALUE_BYTES];
        byte[][] newKeys;
        int loaded;

        @Setup(Level.Trial)
        public void open() {
            pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(POOL_BYTES).withName("bench-skiplist-put"));
        }

        @Setup(Level.Iteration)
        public void refill() {
            component = new SkipListMemoryComponent(pool);
            int n = 0;
            while (component.bytesUsed() < ((long) m0MiB << 20)) {
                put(component, ycsbKey(n), value, n);
                n++;
            }
            loaded = n;
            newKeys = new byte[PUTS_PER_ITERATION][];
            for (int i = 0; i < PUTS_PER_ITERATION; i++) {
                newKeys[i] = ycsbKey(n + i);
            }
        }

        @TearDown(Level.Iteration)
        public void closeComponent() {
            component.close();
        }

        @TearDown(Level.Trial)
        public void close() {
            pool.close();
        }
    }

    /** YCSB's key for record {@code n} ({@code CoreWorkload.buildKeyName} with hashed inserts), encoded as the binding does. */
    static byte[] ycsbKey(long n) {
        return new KeyEncoder().writeString("user" + fnv64(n)).toByteArray();
    }

    /** YCSB's {@code Utils.fnvhash64}: FNV-1 over the 8 bytes of {@code v}, least significant first, made non-negative. */
    static long fnv64(long v) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            long octet = v & 0xFF;
            v >>= 8;
            h ^= octet;
            h *= 1099511628211L;
        }
        return Math.abs(h);
    }

    static void put(MemoryComponent c, byte[] key, byte[] value, long lsn) {
        if (!c.put(key, key.length, value, value.length, false, lsn)) {
            throw new IllegalStateException("write-memory pool of " + POOL_BYTES + " B exhausted");
        }
    }

    /** Point lookup of a random present key. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public LookupResult get(Filled f) {
        long r = BenchKeys.xorshift(f.random);
        f.random = r;
        byte[] k = f.keys[BenchKeys.index(r, f.keys.length)];
        return f.component.get(k, k.length, Long.MAX_VALUE, f.out);
    }

    /** {@value #PUTS_PER_ITERATION} puts of new keys into a component holding {@code m0MiB}; time per put. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(PUTS_PER_ITERATION)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 15, batchSize = 1)
    public long put(Growing g) {
        long lsn = g.loaded;
        for (byte[] k : g.newKeys) {
            put(g.component, k, g.value, lsn++);
        }
        return lsn;
    }

    /** The seal's first step before the change: a full pass over the sealed records for the first and last key. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public byte[][] keyRangeFullPass(Filled f) {
        long first = 0;
        int firstLength = 0;
        long last = 0;
        int lastLength = 0;
        boolean any = false;
        try (RecordCursor c = f.component.sealedRecords()) {
            while (c.next()) {
                if (!any) {
                    any = true;
                    first = c.keyAddress();
                    firstLength = c.keyLength();
                }
                last = c.keyAddress();
                lastLength = c.keyLength();
            }
        }
        return any ? new byte[][] {MemorySSTable.copyKey(first, firstLength), MemorySSTable.copyKey(last, lastLength)} : null;
    }

    /** The seal's first step after the change: the component reports its first and last key. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public byte[][] keyRange(Filled f) {
        byte[] first = f.component.firstKey();
        return first == null ? null : new byte[][] {first, f.component.lastKey()};
    }

    /**
     * The seal's copy: the M0's records into memory SSTables of 16 MB (the tree's cut for 64 MB of
     * write memory), Bloom filters of 10 bits per key, as a seal into empty memory levels does. The
     * tables are freed at once.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int sealCopy(Filled f) {
        List<MemorySSTable> tables = sealed(f.pool, f.component.sealedRecords());
        tables.forEach(MemorySSTable::unref);
        return tables.size();
    }

    /**
     * The seal into a non-empty M1: M0 merged ({@link RecordMerger}) with an M1 run of as many other
     * keys, into new memory SSTables, freed at once.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int sealMerge(Filled f) {
        List<MemorySSTable> tables = sealed(f.pool, new RecordMerger(List.of(f.component.sealedRecords(), MemorySSTable.records(f.m1))));
        tables.forEach(MemorySSTable::unref);
        return tables.size();
    }

    /** Builds memory SSTables of 16 MB from {@code records} (closing it), as {@code MemorySSTables.build} does. */
    static List<MemorySSTable> sealed(WriteMemoryPool pool, RecordCursor records) {
        List<MemorySSTable> tables = new ArrayList<>();
        try (records) {
            while (true) {
                MemorySSTable.BuildResult r = MemorySSTable.build(pool, records, 16L << 20, 10, 0, Long.MAX_VALUE);
                if (r.status() == MemorySSTable.BuildStatus.POOL_EXHAUSTED) {
                    throw new IllegalStateException("pool exhausted during the seal");
                }
                if (r.table() != null) {
                    tables.add(r.table());
                }
                if (r.status() == MemorySSTable.BuildStatus.END_OF_SOURCE) {
                    return tables;
                }
            }
        }
    }
}
