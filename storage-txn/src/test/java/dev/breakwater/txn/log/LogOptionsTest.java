package dev.breakwater.txn.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import org.junit.jupiter.api.Test;

class LogOptionsTest {

    @Test
    void fromConfigReadsTheLogOptions() {
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.ASYNC_SYNC_INTERVAL, 7L)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, 2L << 20)
                .build();
        LogOptions o = LogOptions.fromConfig(config);
        assertEquals(Durability.ASYNC, o.durability());
        assertEquals(7, o.asyncSyncIntervalMillis());
        assertEquals(2L << 20, o.segmentSize());
        assertEquals(LogOptions.DEFAULT_MAX_RECORD_SIZE, o.maxRecordSize());

        LogOptions defaults = LogOptions.fromConfig(StorageConfig.defaults());
        assertEquals(Durability.SYNC, defaults.durability());
        assertEquals(64L << 20, defaults.segmentSize());
    }

    @Test
    void recordsMustFitSegmentAndBuffer() {
        assertThrows(IllegalArgumentException.class, () -> new LogOptions(1024, Durability.SYNC, 10, 1024, 4096));
        assertThrows(IllegalArgumentException.class, () -> new LogOptions(8192, Durability.SYNC, 10, 4096, 4096));
        assertThrows(IllegalArgumentException.class, () -> new LogOptions(8192, Durability.SYNC, 0, 100, 4096));
        assertEquals(4096 - LogRecordFormat.HEADER_LENGTH, LogOptions.of(4096, Durability.SYNC).maxRecordSize());
    }

    @Test
    void segmentNamesSortByLsn() {
        assertEquals("log-00000000000000004096.seg", SegmentFiles.fileName(4096));
        assertEquals(4096, SegmentFiles.parse("log-00000000000000004096.seg"));
        assertEquals(Long.MAX_VALUE, SegmentFiles.parse(SegmentFiles.fileName(Long.MAX_VALUE)));
        assertEquals(-1, SegmentFiles.parse("log-0000000000000000409x.seg"));
        assertEquals(-1, SegmentFiles.parse("log-99999999999999999999.seg"));
        assertEquals(-1, SegmentFiles.parse("MANIFEST-1"));
    }
}
