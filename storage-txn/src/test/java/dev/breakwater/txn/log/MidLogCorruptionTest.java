package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static dev.breakwater.txn.log.LogTestSupport.SMALL_SEGMENT;
import static dev.breakwater.txn.log.LogTestSupport.assertRecord;
import static dev.breakwater.txn.log.LogTestSupport.assertSameFiles;
import static dev.breakwater.txn.log.LogTestSupport.lastSegment;
import static dev.breakwater.txn.log.LogTestSupport.open;
import static dev.breakwater.txn.log.LogTestSupport.options;
import static dev.breakwater.txn.log.LogTestSupport.payload;
import static dev.breakwater.txn.log.LogTestSupport.replay;
import static dev.breakwater.txn.log.LogTestSupport.replayAll;
import static dev.breakwater.txn.log.LogTestSupport.snapshot;
import static dev.breakwater.txn.log.LogTestSupport.truncate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.txn.log.LogTestSupport.Rec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damage that a crash cannot cause (a bad record with intact records after it, or a bad record in a
 * sealed segment) is refused with the segment and byte offset, and no file is changed; what a crash
 * can leave (a cut, zero-filled or garbage tail of the last segment) still recovers every record
 * before it.
 */
class MidLogCorruptionTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final List<Long> lsns = new ArrayList<>();

    private void writeLog(long segmentSize, int records) throws IOException {
        try (LogManager log = open(fs, options(segmentSize, Durability.SYNC))) {
            for (int i = 0; i < records; i++) {
                lsns.add(log.commit(payload(i + 1)));
            }
        }
    }

    private static void flipBit(MemFileSystem fs, Path path, long offset, int bit) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            f.read(offset, b);
            b.put(0, (byte) (b.get(0) ^ (1 << bit))).rewind();
            f.write(offset, b);
            f.sync();
        }
    }

    /** Index of the record holding log byte {@code lsn}. */
    private int recordAt(long lsn) {
        int i = 0;
        while (i + 1 < lsns.size() && lsns.get(i + 1) <= lsn) {
            i++;
        }
        return i;
    }

    /** Replay and reopen both refuse, naming {@code segment} and the offset of record {@code bad}; nothing changes. */
    private void assertRefused(Path segment, long segmentFirstLsn, int bad) throws IOException {
        Map<String, byte[]> before = snapshot(fs);
        List<Rec> replayed = new ArrayList<>();
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> replay(fs, 0, replayed));
        long offset = lsns.get(bad) - segmentFirstLsn;
        assertEquals(segment, e.segment());
        assertEquals(offset, e.offset(), e.getMessage());
        assertEquals(lsns.get(bad), e.lsn());
        assertTrue(e.getMessage().contains(segment.getFileName().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("byte offset " + offset), e.getMessage());
        assertEquals(bad, replayed.size(), "every record before the damage was replayed, none after");
        if (segment.equals(lastSegment(fs))) {
            LogCorruptedException onOpen = assertThrows(LogCorruptedException.class,
                    () -> open(fs, options(SMALL_SEGMENT, Durability.SYNC)));
            assertEquals(offset, onOpen.offset(), onOpen.getMessage());
            assertTrue(onOpen.getMessage().contains("intact record follows"), onOpen.getMessage());
        }
        assertSameFiles(before, snapshot(fs));
    }

    @Test
    void oneBitFlippedAtATenthOfTheOnlySegmentIsCorruptionNotATornTail() throws IOException {
        // The case: one segment, a bit flipped a tenth of the way in.
        writeLog(1 << 20, 2000);
        Path segment = lastSegment(fs);
        assertEquals(1, SegmentFiles.list(fs, DIR).length);
        long target = fs.size(segment) / 10;
        int bad = recordAt(target);
        flipBit(fs, segment, target, 3);
        assertRefused(segment, 0, bad);
    }

    @Test
    void damagedRecordInTheMiddleOfTheLastOfSeveralSegments() throws IOException {
        writeLog(SMALL_SEGMENT, 300);
        long[] segments = SegmentFiles.list(fs, DIR);
        long first = segments[segments.length - 1];
        int bad = recordAt(first);
        while (lsns.get(bad) < first) {
            bad++;
        }
        assertTrue(bad < lsns.size() - 2, "intact records follow the damaged one");
        // Damage the length field: the scanner sees a length past the end, the rest is intact.
        flipBit(fs, lastSegment(fs), lsns.get(bad) - first + 2, 6);
        assertRefused(lastSegment(fs), first, bad);
    }

    @Test
    void damagedRecordInASealedSegmentNamesItsOffsetAndChangesNothing() throws IOException {
        writeLog(SMALL_SEGMENT, 300);
        long[] segments = SegmentFiles.list(fs, DIR);
        int bad = recordAt(segments[1] + 1000);
        flipBit(fs, SegmentFiles.path(DIR, segments[1]), lsns.get(bad) - segments[1] + LogRecordFormat.HEADER_LENGTH, 0);
        assertRefused(SegmentFiles.path(DIR, segments[1]), segments[1], bad);
    }

    @Test
    void damagedLastRecordOfASealedSegmentIsCorruptionToo() throws IOException {
        writeLog(SMALL_SEGMENT, 300);
        long[] segments = SegmentFiles.list(fs, DIR);
        int bad = recordAt(segments[2] - 1);
        flipBit(fs, SegmentFiles.path(DIR, segments[1]), segments[2] - segments[1] - 1, 7);
        assertRefused(SegmentFiles.path(DIR, segments[1]), segments[1], bad);
    }

    // ---- what a crash can leave: still a torn tail --------------------------------------------

    /** Replay keeps the first {@code good} records; a reopened log continues at the next record's LSN. */
    private void assertTornTailKeeps(int good) throws IOException {
        List<Rec> out = new ArrayList<>();
        ReplayResult r = replay(fs, 0, out);
        assertTrue(r.tornTail(), r.toString());
        assertEquals(good, out.size());
        for (int i = 0; i < good; i++) {
            assertRecord(out.get(i), lsns.get(i), payload(i + 1));
        }
        long resumeAt = lsns.get(good - 1) + LogRecordFormat.recordLength(payload(good).length);
        assertEquals(resumeAt, r.endLsn());
        try (LogManager log = open(fs, options(SMALL_SEGMENT, Durability.SYNC))) {
            assertEquals(resumeAt, log.commit(new byte[] {7}));
        }
        assertEquals(good + 1, replayAll(fs).size());
    }

    @Test
    void zeroFilledTailAfterTheSyncedEndIsATornTail() throws IOException {
        writeLog(SMALL_SEGMENT, 120);
        // What a file system can leave after a crash: the size was extended, the data never written.
        LogTestSupport.appendBytes(fs, lastSegment(fs), ByteBuffer.allocate(3000));
        assertTornTailKeeps(120);
    }

    @Test
    void randomGarbageAfterTheSyncedEndIsATornTail() throws IOException {
        writeLog(SMALL_SEGMENT, 120);
        byte[] garbage = new byte[5000];
        new Random(11).nextBytes(garbage);
        LogTestSupport.appendBytes(fs, lastSegment(fs), ByteBuffer.wrap(garbage));
        assertTornTailKeeps(120);
    }

    @Test
    void aBatchCutInItsMiddleLosesSeveralRecordsAsATornTail() throws IOException {
        writeLog(1 << 20, 200);
        // A group-commit batch of the last 5 records, of which only the first 2 and a half reached the disk.
        long cut = lsns.get(197) + 9;
        truncate(fs, lastSegment(fs), cut);
        assertTornTailKeeps(197);
    }

    @Test
    void aBatchCutAndZeroFilledIsATornTail() throws IOException {
        writeLog(1 << 20, 200);
        Path last = lastSegment(fs);
        long size = fs.size(last);
        long cut = lsns.get(195) + 3;
        try (StorageFile f = fs.open(last, OpenOption.WRITE)) {
            f.write(cut, ByteBuffer.allocate((int) (size - cut)));
            f.sync();
        }
        assertTornTailKeeps(195);
    }
}
