package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.txn.log.PackerStatistics;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The engine's trimmer finds a write superseded by a newer write of its key <em>in the same memory
 * table</em> (session 13 of docs/benchmarks-log-trim.md: the table's oldest LSN alone keeps every
 * write of its keys, and in a skewed write-only load most of the sealed log stayed in memory that
 * way), and a log trimmed that way recovers every key's newest write.
 */
class LiveOperationTrimmerTest {

    private static final Path DIR = Path.of("/db");

    private static DatasetSpec spec() {
        return DatasetSpec.builder("rows").field("id", FieldType.INT64).field("pad", FieldType.STRING).primaryKey("id")
                .build();
    }

    private static Tuple row(long id, SplittableRandom rnd) {
        char[] pad = new char[900];
        for (int i = 0; i < pad.length; i++) {
            pad[i] = (char) ('a' + rnd.nextInt(26));
        }
        return Tuple.of(id, new String(pad));
    }

    /**
     * Key 0 is written at the start and again 2 MiB later; both writes sit in the first memory table
     * (8 MiB), nothing is flushed (64 MiB of write memory, the log below max-log-size), and passes run
     * once the log passes half of max-log-size. The first write of key 0 is the only dead operation
     * in the log: passes count exactly it as dead, rewrite its segment (threshold 0) without it, and
     * a crash image recovers key 0's second write and every other row.
     */
    @Test
    void aWriteSupersededInItsOwnMemoryTableIsDroppedAndTheNewestRecovers() throws Exception {
        StorageConfig config = EngineFixture.smallConfig().toBuilder()
                .set(ConfigOptions.TOTAL_MEMORY, 96L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 64L << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 8L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, 16L << 20)
                .set(ConfigOptions.LOG_TRIM, true)
                .set(ConfigOptions.LOG_COMPRESSION, false)
                .set(ConfigOptions.LOG_TRIM_START, 1000.0)
                .set(ConfigOptions.LOG_TRIM_STOP, 1000.0)
                .set(ConfigOptions.LOG_TRIM_MIN_DEAD, 0.0)
                .build();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        SplittableRandom rnd = new SplittableRandom(13);
        Map<Long, Tuple> model = new TreeMap<>();
        PackerStatistics stats;
        long flushed;
        MemFileSystem image;
        try (StorageEngine engine = StorageEngine.open(fs, DIR, config)) {
            Dataset ds = engine.createDataset(spec());
            Tuple first = row(0, rnd);
            ds.upsert(first);
            long id = 1;
            for (; id <= 2_000; id++) {
                Tuple t = row(id, rnd);
                ds.upsert(t);
                model.put(id, t);
            }
            Tuple second = row(0, rnd);
            ds.upsert(second);
            model.put(0L, second);
            // Until a pass has judged (and rewritten) the segment holding the first write, with the
            // log kept under max-log-size (a log-triggered flush would make everything flushed dead).
            long deadline = System.nanoTime() + 30_000_000_000L;
            do {
                for (int i = 0; i < 100; i++, id++) {
                    Tuple t = row(id, rnd);
                    ds.upsert(t);
                    model.put(id, t);
                }
                stats = engine.packer.statistics();
            } while ((stats.recordsDropped() == 0 || stats.passes() < 2) && engine.logDiskBytes() < (14L << 20)
                    && System.nanoTime() < deadline);
            Thread.sleep(200); // a pass in progress finishes
            stats = engine.packer.statistics();
            flushed = engine.statistics().trees().values().stream().mapToLong(s -> s.bytesFlushed()).sum();
            image = fs.crashClone();
        }
        assertEquals(0, flushed, "nothing was flushed: every write but the first of key 0 is live");
        assertTrue(stats.passes() > 0, "passes ran: " + stats);
        assertEquals(1, stats.recordsDropped(), "the first write of key 0, superseded in its own memory table: " + stats);
        assertTrue(stats.deadBytesJudged() > 0 && stats.deadBytesJudged() <= 2 * 1024 * stats.passes(),
                "only that write is dead, once per pass: " + stats);
        try (StorageEngine recovered = StorageEngine.open(image, DIR, config)) {
            Dataset ds = recovered.dataset("rows");
            Map<Long, Tuple> rows = new TreeMap<>();
            try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
                c.forEachRemaining(t -> rows.put(t.getLong(0), t));
            }
            assertEquals(model.size(), rows.size());
            assertEquals(model.get(0L), rows.get(0L), "key 0 recovers its second write");
            assertEquals(model, rows);
        }
    }
}
