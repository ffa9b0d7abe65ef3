package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static dev.breakwater.txn.log.LogTestSupport.SMALL_SEGMENT;
import static dev.breakwater.txn.log.LogTestSupport.flipByte;
import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LogReader#scanSegment}: one segment on its own, damage reported (not thrown), nothing changed. */
class ScanSegmentTest {

    private final MemFileSystem fs = new MemFileSystem();

    private long[] writeLog(int records) throws IOException {
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            for (int i = 0; i < records; i++) {
                log.commit(payload(i + 1));
            }
        }
        long[] segments = SegmentFiles.list(fs, DIR);
        assertTrue(segments.length > 3);
        return segments;
    }

    private byte[] bytes(Path p) throws IOException {
        try (StorageFile f = fs.open(p, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    @Test
    void reportsDamageInASealedSegmentWithItsOffsetAndLeavesTheFileAlone() throws IOException {
        long[] segments = writeLog(120);
        Path sealed = SegmentFiles.path(DIR, segments[1]);
        flipByte(fs, sealed, 20); // the payload of the segment's first record
        byte[] before = bytes(sealed);
        LogReader reader = new LogReader(fs, DIR, LogOptions.DEFAULT_MAX_RECORD_SIZE, new IoStatistics());

        List<Long> lsns = new ArrayList<>();
        ReplayResult r = reader.scanSegment(segments[1], (lsn, payload) -> lsns.add(lsn));

        assertEquals(LogStopReason.BAD_CHECKSUM, r.stopReason(), r.detail());
        assertEquals(segments[1], r.endLsn(), "stops at the damaged first record");
        assertTrue(r.detail().contains(sealed.toString()) && r.detail().contains("at offset 0"), r.detail());
        assertEquals(List.of(), lsns);
        assertArrayEquals(before, bytes(sealed));
        // The scan of another segment is unaffected: every record, clean end.
        ReplayResult next = reader.scanSegment(segments[2], (lsn, payload) -> lsns.add(lsn));
        assertEquals(LogStopReason.END_OF_LOG, next.stopReason(), next.detail());
        assertEquals(segments[3], next.endLsn());
        assertEquals(next.records(), lsns.size());
    }
}
