package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.tuner.CostDerivative;
import dev.breakwater.tuner.CostModel;
import dev.breakwater.tuner.TuningSample;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The memory tuner's sample of a cycle carries the log packer's writes (paper 002, issue 16's "the
 * tuner sees the trim"): an engine with {@code log-trim} on, written until the packer has swapped
 * trimmed segments in, gives a {@link TuningSample} whose log-trim pages are the packer's bytes
 * written over the page size, and a write cost that includes them.
 */
class TunerSeesLogTrimTest {

    @Test
    void aCycleCountsThePackersWritesAsWriteCost() throws Exception {
        StorageConfig config = CrashWorkload.config(true).toBuilder().set(ConfigOptions.WRITE_MEMORY, 4L << 20).build();
        SplittableRandom rnd = new SplittableRandom(16);
        try (StorageEngine engine = StorageEngine.open(new MemFileSystem(), Path.of("/db"), config)) {
            engine.createDataset(LogCorruptionEngineTest.rows());
            Dataset ds = engine.dataset("rows");
            EngineStatistics before = EngineStatistics.of(engine);
            for (int i = 0; i < 200_000 && engine.logPackerStatistics().bytesWritten() == 0; i++) {
                long id = rnd.nextInt(20_000);
                engine.inTransaction(tx -> tx.upsert(ds, Tuple.of(id, "t" + rnd.nextInt(40), "p".repeat(rnd.nextInt(800)))));
            }
            EngineStatistics after = EngineStatistics.of(engine);
            long packed = after.logPacker().bytesWritten() - before.logPacker().bytesWritten();
            assertTrue(packed > 0, "the packer wrote: " + after.logPacker());
            int page = engine.cache.pageSize();
            long x = after.writeMemoryCapacity();
            TuningSample sample = TuningSampleAdapter.sample(before, after, x, config.get(ConfigOptions.TOTAL_MEMORY), page);
            assertEquals((packed + page - 1) / page, sample.logTrimWritePages());
            CostDerivative d = CostModel.derive(sample, 1, 1, 10);
            double withoutTrim = (sample.flushWritePages() + sample.mergeWritePages()) / (double) sample.ops();
            assertEquals(withoutTrim + sample.logTrimWritePages() / (double) sample.ops(), d.writeCost(), 1e-9);
        }
    }
}
