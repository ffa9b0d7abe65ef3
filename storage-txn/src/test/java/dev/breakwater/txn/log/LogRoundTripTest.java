package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static dev.breakwater.txn.log.LogTestSupport.SMALL_SEGMENT;
import static dev.breakwater.txn.log.LogTestSupport.assertRecord;
import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static dev.breakwater.txn.log.LogTestSupport.replay;
import static dev.breakwater.txn.log.LogTestSupport.replayAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.txn.log.LogTestSupport.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRoundTripTest {

    @Test
    void roundTripAcrossSegmentsWithLsnsAsBytePositions() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        List<Long> lsns = new ArrayList<>();
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            long expected = 0;
            for (int i = 0; i < 500; i++) {
                byte[] p = payload(i);
                long lsn = log.append(p);
                // A record goes at the end of the log, or starts a new segment there: either way
                // its LSN is the byte position where the previous record ended.
                assertEquals(expected, lsn, "record " + i);
                expected = lsn + LogRecordFormat.recordLength(p.length);
                assertEquals(expected, log.endLsn());
                lsns.add(lsn);
            }
            log.awaitDurable(lsns.get(lsns.size() - 1));
            assertEquals(log.endLsn(), log.durableLsn());
        }
        long[] segments = SegmentFiles.list(fs, DIR);
        assertTrue(segments.length > 10, "expected many 4 KiB segments, got " + segments.length);
        for (int i = 0; i < segments.length; i++) {
            long size = fs.size(SegmentFiles.path(DIR, segments[i]));
            assertTrue(size <= SMALL_SEGMENT, "segment " + segments[i] + " is " + size + " bytes");
            assertTrue(lsns.contains(segments[i]), "segment " + segments[i] + " starts with a record");
        }
        List<Rec> recs = replayAll(fs);
        assertEquals(500, recs.size());
        for (int i = 0; i < recs.size(); i++) {
            assertRecord(recs.get(i), lsns.get(i), payload(i));
        }
    }

    @Test
    void replayFromTheMiddleStartsAtTheNextRecord() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        List<Long> lsns = new ArrayList<>();
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            for (int i = 0; i < 200; i++) {
                lsns.add(log.commit(payload(i)));
            }
        }
        List<Rec> out = new ArrayList<>();
        ReplayResult r = replay(fs, lsns.get(150), out);
        assertEquals(50, out.size());
        assertRecord(out.get(0), lsns.get(150), payload(150));
        assertEquals(LogStopReason.END_OF_LOG, r.stopReason());
        assertFalse(r.tornTail());

        out.clear();
        replay(fs, lsns.get(150) + 1, out);
        assertEquals(49, out.size(), "an LSN inside a record starts replay at the next one");
        assertRecord(out.get(0), lsns.get(151), payload(151));
    }

    @Test
    void reopenContinuesLsns() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        long end;
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            for (int i = 0; i < 100; i++) {
                log.commit(payload(i));
            }
            end = log.endLsn();
        }
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            assertEquals(end, log.endLsn());
            assertEquals(end, log.durableLsn());
            for (int i = 100; i < 200; i++) {
                log.commit(payload(i));
            }
        }
        List<Rec> recs = replayAll(fs);
        assertEquals(200, recs.size());
        for (int i = 0; i < 200; i++) {
            assertEquals(payload(i).length, recs.get(i).payload().length);
        }
    }

    @Test
    void emptyPayloadsAndLargestRecordRoundTrip() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions opts = options(SMALL_SEGMENT, Durability.SYNC);
        byte[] largest = new byte[opts.maxRecordSize()];
        largest[largest.length - 1] = 7;
        try (LogManager log = open(fs, opts)) {
            log.commit(new byte[0]);
            log.commit(largest);
            log.commit(new byte[0]);
            assertThrows(IllegalArgumentException.class, () -> log.append(new byte[opts.maxRecordSize() + 1]));
        }
        List<Rec> recs = replayAll(fs);
        assertEquals(3, recs.size());
        assertRecord(recs.get(1), LogRecordFormat.recordLength(0), largest);
        // The largest record does not fit behind the first one, so it starts segment 16 and fills it.
        assertEquals(16 + SMALL_SEGMENT, recs.get(2).lsn());
        assertEquals(List.of(0L, 16L, 16L + SMALL_SEGMENT), java.util.Arrays.stream(SegmentFiles.list(fs, DIR)).boxed().toList());
    }

    @Test
    void appendLeavesThePayloadBufferUnchanged() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            ByteBuffer b = ByteBuffer.allocateDirect(64);
            b.position(8).limit(40);
            log.commit(b);
            assertEquals(8, b.position());
            assertEquals(40, b.limit());
        }
        assertEquals(32, replayAll(fs).get(0).payload().length);
    }

    @Test
    void truncateBeforeDeletesOnlyWholeOldSegments() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            List<Long> lsns = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                lsns.add(log.commit(payload(i)));
            }
            long[] before = SegmentFiles.list(fs, DIR);
            assertEquals(before.length, log.segmentCount());
            assertEquals(log.endLsn(), log.sizeBytes());

            // A cut inside segment 3 keeps segment 3: only segments 0..2 lie wholly below it.
            long cut = before[3] + 1;
            assertEquals(3, log.truncateBefore(cut));
            long[] after = SegmentFiles.list(fs, DIR);
            assertEquals(before[3], after[0]);
            assertEquals(before[3], log.firstLsn());
            assertEquals(log.endLsn() - before[3], log.sizeBytes());

            // A cut at a segment's first LSN deletes everything below it.
            assertEquals(2, log.truncateBefore(before[5]));
            assertEquals(before[5], SegmentFiles.list(fs, DIR)[0]);

            // Even a cut past the end never deletes the active segment.
            log.truncateBefore(Long.MAX_VALUE);
            long[] last = SegmentFiles.list(fs, DIR);
            assertEquals(1, last.length);
            assertEquals(before[before.length - 1], last[0]);
            log.commit(payload(1));

            List<Rec> out = new ArrayList<>();
            replay(fs, last[0], out);
            assertFalse(out.isEmpty());
            assertThrows(LogCorruptedException.class, () -> replay(fs, 0, new ArrayList<>()),
                    "replaying from a deleted LSN is an error, not an empty replay");
        }
    }

    @Test
    void realFileSystemRoundTrip(@TempDir Path tmp) throws IOException {
        RealFileSystem fs = RealFileSystem.create();
        Path dir = tmp.resolve("log");
        List<Long> lsns = new ArrayList<>();
        try (LogManager log = LogManager.open(fs, dir, options(1 << 16, Durability.SYNC),
                new dev.breakwater.common.stats.IoStatistics())) {
            for (int i = 0; i < 2000; i++) {
                lsns.add(log.append(payload(i)));
            }
            log.awaitDurable(lsns.get(lsns.size() - 1));
        }
        List<Long> seen = new ArrayList<>();
        new LogReader(fs, dir, LogOptions.DEFAULT_MAX_RECORD_SIZE, new dev.breakwater.common.stats.IoStatistics())
                .forEach(0, (lsn, p) -> seen.add(lsn));
        assertEquals(lsns, seen);
    }
}
