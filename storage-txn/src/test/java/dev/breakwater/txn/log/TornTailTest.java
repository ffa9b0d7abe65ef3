package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static dev.breakwater.txn.log.LogTestSupport.SMALL_SEGMENT;
import static dev.breakwater.txn.log.LogTestSupport.assertRecord;
import static dev.breakwater.txn.log.LogTestSupport.flipByte;
import static dev.breakwater.txn.log.LogTestSupport.lastSegment;
import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static dev.breakwater.txn.log.LogTestSupport.replay;
import static dev.breakwater.txn.log.LogTestSupport.replayAll;
import static dev.breakwater.txn.log.LogTestSupport.truncate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.txn.log.LogTestSupport.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class TornTailTest {

    private static final int RECORDS = 120;

    private final MemFileSystem fs = new MemFileSystem();
    private final List<Long> lsns = new ArrayList<>();

    /** Writes {@link #RECORDS} records over several segments and closes the log. */
    private void writeLog() throws IOException {
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            for (int i = 0; i < RECORDS; i++) {
                lsns.add(log.commit(payload(i + 1)));
            }
        }
        assertTrue(SegmentFiles.list(fs, DIR).length > 3);
    }

    private long lastLsn() {
        return lsns.get(RECORDS - 1);
    }

    /** Offset of the last record in the last segment. */
    private long lastRecordOffset() throws IOException {
        long[] segments = SegmentFiles.list(fs, DIR);
        return lastLsn() - segments[segments.length - 1];
    }

    /** The reader stops after record {@code good - 1}; a reopened log appends at the torn record's LSN. */
    private void assertStopsAndResumes(int good, LogStopReason reason) throws IOException {
        List<Rec> out = new ArrayList<>();
        ReplayResult r = replay(fs, 0, out);
        assertEquals(good, out.size());
        assertEquals(reason, r.stopReason(), r.detail());
        assertTrue(r.tornTail());
        long resumeAt = lsns.get(good);
        assertEquals(resumeAt, r.endLsn());
        assertTrue(r.detail().contains(r.lastSegment().getFileName().toString()), r.detail());

        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            assertEquals(resumeAt, log.endLsn(), "the reopened log continues right after the last good record");
            assertEquals(resumeAt, log.commit(new byte[] {42}));
        }
        List<Rec> after = replayAll(fs);
        assertEquals(good + 1, after.size());
        assertRecord(after.get(good), resumeAt, new byte[] {42});
        assertEquals(LogStopReason.END_OF_LOG, replay(fs, 0, new ArrayList<>()).stopReason());
    }

    @Test
    void truncatedLastRecordEndsReplayAtThePreviousOne() throws IOException {
        writeLog();
        Path last = lastSegment(fs);
        truncate(fs, last, fs.size(last) - 3);
        assertStopsAndResumes(RECORDS - 1, LogStopReason.LENGTH_PAST_END);
    }

    @Test
    void partialHeaderEndsReplay() throws IOException {
        writeLog();
        truncate(fs, lastSegment(fs), lastRecordOffset() + 5);
        assertStopsAndResumes(RECORDS - 1, LogStopReason.SHORT_HEADER);
    }

    @Test
    void flippedByteInTheLastRecordEndsReplay() throws IOException {
        writeLog();
        flipByte(fs, lastSegment(fs), lastRecordOffset() + LogRecordFormat.HEADER_LENGTH);
        assertStopsAndResumes(RECORDS - 1, LogStopReason.BAD_CHECKSUM);
    }

    @Test
    void garbageLengthEndsReplay() throws IOException {
        writeLog();
        flipByte(fs, lastSegment(fs), lastRecordOffset() + 3);
        assertStopsAndResumes(RECORDS - 1, LogStopReason.BAD_LENGTH);
    }

    @Test
    void intactRecordWithAnotherPositionsLsnEndsReplay() throws IOException {
        writeLog();
        // A well-formed record claiming LSN 0 appended at the end: stale bytes, not ours.
        byte[] p = {1, 2, 3};
        ByteBuffer rec = ByteBuffer.allocate(LogRecordFormat.recordLength(p.length)).order(ByteOrder.LITTLE_ENDIAN);
        rec.position(LogRecordFormat.HEADER_LENGTH);
        rec.put(p);
        int crc = LogRecordFormat.checksum(new CRC32C(), ByteBuffer.wrap(p), 0L);
        LogRecordFormat.writeHeader(rec, 0, p.length, crc, 0L);
        rec.clear();
        lsns.add(lsns.get(RECORDS - 1) + LogRecordFormat.recordLength(payload(RECORDS).length));
        LogTestSupport.appendBytes(fs, lastSegment(fs), rec);
        assertStopsAndResumes(RECORDS, LogStopReason.LSN_MISMATCH);
    }

    @Test
    void tornWriteOfABatchThenProcessCrash() throws IOException {
        // The process dies in the middle of writing a batch: some leading bytes of the write reach
        // the file (the page cache survives a process crash), the rest do not.
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(fs);
        int good = 10;
        try (LogManager log = open(faulty, options(1 << 16, Durability.SYNC))) {
            for (int i = 0; i < good; i++) {
                lsns.add(log.commit(payload(i + 1)));
            }
            faulty.setInjector(FaultInjectors.tornWrite(p -> true, 21));
            long torn = log.append(payload(good + 1));
            lsns.add(torn);
            assertThrows(LogFailedException.class, () -> log.awaitDurable(torn));
        }
        assertTrue(fs.size(lastSegment(fs)) > lsns.get(good), "torn bytes reached the file");
        assertStopsAndResumes(good, LogStopReason.LENGTH_PAST_END);
    }

    @Test
    void crashImageTakenWhileBatchesAreUnsyncedReplaysCleanly() throws IOException {
        MemFileSystem image;
        long durable;
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.ASYNC)
                .withAsyncSyncIntervalMillis(60_000))) {
            for (int i = 0; i < 50; i++) {
                lsns.add(log.commit(payload(i + 1)));
            }
            log.awaitDurable(lsns.get(49));
            durable = log.durableLsn();
            for (int i = 50; i < 100; i++) {
                lsns.add(log.commit(payload(i + 1)));
            }
            image = fs.crashClone();
        }
        List<Rec> out = new ArrayList<>();
        ReplayResult r = replay(image, 0, out);
        assertEquals(durable, r.endLsn(), "the crash keeps exactly what was synced");
        assertEquals(50, out.size());
        try (LogManager log = LogTestSupport.open(image, options(SMALL_SEGMENT, Durability.SYNC))) {
            assertEquals(durable, log.endLsn());
        }
    }

    @Test
    void damageInAnEarlierSegmentIsAnError() throws IOException {
        writeLog();
        long[] segments = SegmentFiles.list(fs, DIR);
        Path second = SegmentFiles.path(DIR, segments[1]);
        flipByte(fs, second, LogRecordFormat.HEADER_LENGTH + 1);
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> replayAll(fs));
        assertEquals(second, e.segment());
        assertTrue(e.getMessage().contains("not the last"), e.getMessage());
        assertTrue(e.getMessage().contains(second.getFileName().toString()), e.getMessage());
    }

    @Test
    void shortenedOrMissingEarlierSegmentIsAnError() throws IOException {
        writeLog();
        long[] segments = SegmentFiles.list(fs, DIR);
        truncate(fs, SegmentFiles.path(DIR, segments[1]), 100);
        assertThrows(LogCorruptedException.class, () -> replayAll(fs));
        LogCorruptedException onOpen = assertThrows(LogCorruptedException.class,
                () -> open(fs, options(SMALL_SEGMENT, Durability.SYNC)));
        assertTrue(onOpen.getMessage().contains("next segment starts at LSN " + segments[2]), onOpen.getMessage());

        fs.delete(SegmentFiles.path(DIR, segments[1]));
        assertThrows(LogCorruptedException.class, () -> replayAll(fs), "a missing segment is a gap");
    }
}
