package dev.breakwater.bench.lsm;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Bytes allocated per committed single-record upsert through the engine's API (run with
 * {@code -prof gc}; {@code gc.alloc.rate.norm} counts every thread, so the log's flusher and the
 * trees' flushes and merges are included): {@code Dataset.upsert} of a record {@code (id INT64,
 * payload BYTES)} with a {@value #VALUE_BYTES}-byte payload, ASYNC, overwriting a key set of
 * {@value #KEYS} keys. The records are built before the measurement, so the harness allocates
 * nothing; what is counted is the transaction, its write set, the record's encoding, the commit
 * record and the tree write.
 *
 * <p>Thread safety: a JMH state, one thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.EXPORTS_REF, BenchJvm.EXPORTS_NIO_CH, BenchJvm.OPENS_NIO, BenchJvm.OPENS_LANG,
        BenchJvm.OPENS_MISC, BenchJvm.EXPORTS_MISC, BenchJvm.OPENS_REFLECT, BenchJvm.OPENS_IO, BenchJvm.OPENS_UTIL,
        BenchJvm.HEAP_MIN, BenchJvm.HEAP_MAX, BenchJvm.DIRECT_MAX})
@State(Scope.Benchmark)
public class CommitPathAllocationBenchmark {

    static final int KEYS = 100_000;
    static final int VALUE_BYTES = 1000;

    Path dir;
    StorageEngine engine;
    Dataset table;
    Tuple[] records;
    long seed = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("breakwater-commitpath-");
        engine = StorageEngine.open(dir, StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, 256L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 64L << 20)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build());
        table = engine.createDataset(DatasetSpec.builder("t").field("id", FieldType.INT64).field("payload", FieldType.BYTES)
                .primaryKey("id").build());
        records = new Tuple[KEYS];
        byte[] payload = new byte[VALUE_BYTES];
        for (int i = 0; i < KEYS; i++) {
            records[i] = Tuple.of((long) i, payload);
            table.upsert(records[i]);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        engine.close();
        BenchTree.deleteRecursively(dir);
    }

    private int next() {
        seed = BenchKeys.xorshift(seed);
        return BenchKeys.index(seed, KEYS);
    }

    @Benchmark
    public void upsert() {
        table.upsert(records[next()]);
    }
}
