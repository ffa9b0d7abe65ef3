package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: under B+-dynamic with a short log, flushes are log-triggered, and the engine's monitor
 * asks for one on every tick while the log is too long. With write memory to spare, each flush must
 * carry about a log's worth of data (not one tiny table per tick while the oldest LSN's table is
 * still flushing), and every such flush is counted as log-triggered.
 */
class LogTriggeredFlushEngineTest {

    private static final long MAX_LOG = 2L << 20;

    @TempDir
    Path dir;

    @Test
    void logTriggeredFlushesCarryALogsWorthAndAreCountedAsLog() throws Exception {
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.PAGE_SIZE, 4096L)
                .set(ConfigOptions.TOTAL_MEMORY, 48L << 20)
                .set(ConfigOptions.WRITE_MEMORY, 32L << 20)
                .set(ConfigOptions.WRITE_MEMORY_SCHEME, WriteMemoryScheme.DYNAMIC)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, 4L << 20)
                .set(ConfigOptions.TARGET_SSTABLE_SIZE, 1L << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 1L << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, MAX_LOG)
                .set(ConfigOptions.DIRECT_IO, false)
                .build();
        long logBytes;
        TreeStatisticsSnapshot s;
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset ds = engine.createDataset(DatasetSpec.builder("t").field("k", FieldType.INT32)
                    .field("v", FieldType.STRING).primaryKey("k").build());
            String pad = "x".repeat(1000);
            for (int batch = 0; batch < 240; batch++) {          // about 24 MiB of log
                int base = batch * 100;
                engine.inTransaction(tx -> {
                    for (int i = 0; i < 100; i++) {
                        tx.upsert(ds, Tuple.of(base + i, pad));
                    }
                });
            }
            EngineStatistics st = engine.statistics();
            logBytes = st.log().appendedBytes();
            s = st.trees().values().iterator().next();
        }
        System.out.printf("log %d B, %d flushes of %d B on average (log %d B, memory %d B)%n", logBytes, s.flushes(),
                s.flushes() == 0 ? 0 : s.bytesFlushed() / s.flushes(), s.bytesFlushedForLog(), s.bytesFlushedForMemory());
        assertTrue(logBytes > 10 * MAX_LOG, "the log passed its limit many times: " + logBytes);
        assertTrue(s.flushes() >= 3, "log-triggered flushes happened: " + s);
        long average = s.bytesFlushed() / s.flushes();
        // The old trigger sealed a new table on every monitor tick while the oldest one flushed:
        // flushes of about a tenth of the log limit. One flush per log window is about the limit.
        assertTrue(average >= MAX_LOG / 4, "average flush " + average + " B for a log limit of " + MAX_LOG + " B: " + s);
        assertEquals(0, s.bytesFlushedForMemory(), "write memory never ran short, so no flush is memory-triggered: " + s);
        assertEquals(s.bytesFlushed(), s.bytesFlushedForLog(), s.toString());
    }
}
