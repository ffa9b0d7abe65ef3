package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.MemFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The log packer on its own, with a scripted {@link RecordTrimmer}: packed segments replay exactly
 * what was kept, reopen, and survive a crash or an I/O failure at every step of a pass; damage in a
 * packed segment is reported as corruption naming the file.
 */
class SegmentPackerTest {

    private static final long SEGMENT = 64 * 1024;

    /** Drops the records in {@link #dead}, halves those in {@link #reduced}; keeps the rest. */
    private static final class ScriptedTrimmer implements RecordTrimmer {
        final Set<Long> dead = new HashSet<>();
        final Set<Long> reduced = new HashSet<>();

        @Override
        public long oldestUnapplied() {
            return Long.MAX_VALUE;
        }

        @Override
        public ByteBuffer trim(long lsn, ByteBuffer payload) {
            if (dead.contains(lsn)) {
                return null;
            }
            if (reduced.contains(lsn) && payload.remaining() > 1) {
                ByteBuffer half = payload.duplicate();
                half.limit(half.position() + payload.remaining() / 2);
                return ByteBuffer.wrap(bytes(half));
            }
            return payload;
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** A compressible payload: a few distinct words repeated. */
    private static byte[] payload(long i) {
        byte[] b = new byte[200 + (int) (i % 300)];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) ("field" + (i % 7)).charAt(j % 6);
        }
        b[0] = (byte) i;
        return b;
    }

    /** Appends {@code n} records; returns LSN to payload. */
    private static Map<Long, byte[]> append(LogManager log, int n, long from) throws IOException {
        Map<Long, byte[]> written = new LinkedHashMap<>();
        for (long i = from; i < from + n; i++) {
            byte[] p = payload(i);
            written.put(log.commit(p), p);
        }
        return written;
    }

    private static Map<Long, byte[]> expected(Map<Long, byte[]> written, ScriptedTrimmer t, long sealedEnd) {
        Map<Long, byte[]> out = new LinkedHashMap<>();
        for (var e : written.entrySet()) {
            long lsn = e.getKey();
            if (lsn < sealedEnd && t.dead.contains(lsn)) {
                continue;
            }
            byte[] p = e.getValue();
            out.put(lsn, lsn < sealedEnd && t.reduced.contains(lsn) ? Arrays.copyOf(p, p.length / 2) : p);
        }
        return out;
    }

    private static void assertReplay(FileSystem fs, Map<Long, byte[]> expected) throws IOException {
        List<LogTestSupport.Rec> got = LogTestSupport.replayAll(fs);
        assertEquals(expected.size(), got.size(), "records replayed");
        int i = 0;
        for (var e : expected.entrySet()) {
            LogTestSupport.assertRecord(got.get(i++), e.getKey(), e.getValue());
        }
    }

    private static long sealedEnd(LogManager log) {
        List<SegmentList.Sealed> s = log.sealedSegments();
        return s.isEmpty() ? 0 : s.get(s.size() - 1).endLsn();
    }

    @Test
    void compressedSegmentsReplayAndReopen() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        Map<Long, byte[]> written;
        try (LogManager log = LogTestSupport.open(fs, options)) {
            written = append(log, 2000, 0);
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(true, false, 2.5, 1.5, 10), null, () -> 1);
            while (packer.tick()) {
                // compress every sealed segment
            }
            assertTrue(log.sealedSegments().size() > 5);
            log.sealedSegments().forEach(s -> assertTrue(s.packed(), "packed: " + s));
            assertTrue(log.diskBytes() < log.sizeBytes() / 2, log.diskBytes() + " on disk for " + log.sizeBytes());
            assertEquals(log.sealedSegments().size(), packer.statistics().compressedSegments());
        }
        assertReplay(fs, written);
        try (LogManager log = LogTestSupport.open(fs, options)) {
            assertTrue(log.diskBytes() < log.sizeBytes() / 2, "stored sizes are known after reopening");
            written.putAll(append(log, 300, 5000));
        }
        assertReplay(fs, written);
    }

    /**
     * With max-log-size below λ_t times write memory (Fig 5's setting: 32 MiB of log, 64 MiB of write
     * memory), λ never reaches λ_t before the log-triggered flush fires, so a pass must also start at
     * half of max-log-size on disk, and stop being due once a pass brought the log back under it.
     */
    @Test
    void aPassStartsAtHalfOfMaxLogSizeWhenLambdaWouldNot() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        ScriptedTrimmer trimmer = new ScriptedTrimmer();
        long maxLog = 8 * SEGMENT;
        try (LogManager log = LogTestSupport.open(fs, options)) {
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(false, true, 2.5, 1.5, 10, maxLog), trimmer,
                    () -> 1L << 30);
            SegmentPacker lambdaOnly = new SegmentPacker(log, new PackingOptions(false, true, 2.5, 1.5, 10), trimmer,
                    () -> 1L << 30);
            Map<Long, byte[]> written = new LinkedHashMap<>();
            while (log.diskBytes() <= maxLog / 2) {
                assertFalse(packer.trimDue(), "not due at " + log.diskBytes() + " bytes on disk");
                written.putAll(append(log, 20, written.size()));
            }
            assertTrue(packer.trimDue(), "due above half of max-log-size: " + log.diskBytes());
            assertFalse(lambdaOnly.trimDue(), "λ alone (sealed bytes / 1 GiB of memory) is far below λ_t");
            trimmer.dead.addAll(written.keySet());
            assertTrue(packer.tick());
            assertEquals(1, packer.statistics().passes());
            assertTrue(packer.statistics().trimmedSegments() > 0);
            assertTrue(log.diskBytes() <= maxLog / 2, "trimmed below the half: " + log.diskBytes());
            assertFalse(packer.trimDue(), "no pass due once the log is back under the half");
            assertReplay(fs, expected(written, trimmer, sealedEnd(log)));
        }
    }

    @Test
    void trimmingKeepsExactlyWhatTheTrimmerKeeps() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        ScriptedTrimmer trimmer = new ScriptedTrimmer();
        Random rnd = new Random(7);
        Map<Long, byte[]> written;
        long sealedEnd;
        try (LogManager log = LogTestSupport.open(fs, options)) {
            written = append(log, 2000, 0);
            for (boolean compress : new boolean[] {false, true}) {
                for (long lsn : written.keySet()) {
                    int r = rnd.nextInt(10);
                    if (r < 4) {
                        trimmer.dead.add(lsn);
                    } else if (r < 6) {
                        trimmer.reduced.add(lsn);
                    }
                }
                SegmentPacker packer = new SegmentPacker(log, new PackingOptions(compress, true, 1, 1, 10), trimmer,
                        () -> 1);
                packer.trimPass();
                assertTrue(packer.statistics().trimmedSegments() > 0);
                if (compress) {
                    break; // checked below: the second pass may halve a record the first already halved
                }
                sealedEnd = sealedEnd(log);
                assertReplay(fs, expected(written, trimmer, sealedEnd));
                trimmer.reduced.clear();
            }
            sealedEnd = sealedEnd(log);
        }
        // After the second (compressing) pass: no dead record is left, every other one is its original
        // payload or a prefix of it (halved once or twice), and the log reopens.
        List<LogTestSupport.Rec> got = LogTestSupport.replayAll(fs);
        for (LogTestSupport.Rec r : got) {
            assertFalse(r.lsn() < sealedEnd && trimmer.dead.contains(r.lsn()), "dead record replayed: " + r.lsn());
            byte[] original = written.get(r.lsn());
            assertArrayEquals(Arrays.copyOf(original, r.payload().length), r.payload(), "a prefix of the original");
        }
        try (LogManager log = LogTestSupport.open(fs, options)) {
            assertTrue(log.diskBytes() < log.sizeBytes(), "trimmed and compressed: " + log.diskBytes());
        }
    }

    /**
     * With both compression and trimming on, plain sealed segments are compressed, one per tick,
     * before a due pass runs: a pass of a second or more would otherwise leave the newest segments
     * plain meanwhile, and the log on disk peaked at its whole span (session 13). The pass that
     * follows finds every segment it keeps whole already compressed and writes nothing for them.
     */
    @Test
    void compressionGoesBeforeADuePass() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        ScriptedTrimmer trimmer = new ScriptedTrimmer();
        long maxLog = 8 * SEGMENT;
        try (LogManager log = LogTestSupport.open(fs, options)) {
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(true, true, 2.5, 1.5, 10, maxLog, 0.5),
                    trimmer, () -> 1L << 30);
            Map<Long, byte[]> written = new LinkedHashMap<>();
            while (log.diskBytes() <= maxLog / 2) {
                written.putAll(append(log, 20, written.size()));
            }
            assertTrue(packer.trimDue(), "a pass is due: " + log.diskBytes());
            int plain = log.sealedSegments().size();
            assertTrue(plain >= 3, "sealed: " + plain);
            for (int i = 1; i <= plain; i++) {
                assertTrue(packer.tick());
                assertEquals(0, packer.statistics().passes(), "no pass while a sealed segment is plain");
                assertEquals(i, packer.statistics().compressedSegments());
            }
            long written0 = packer.statistics().bytesWritten();
            if (packer.trimDue()) {
                assertTrue(packer.tick());
                assertEquals(1, packer.statistics().passes(), "then the due pass");
                assertEquals(written0, packer.statistics().bytesWritten(), "nothing dead: nothing rewritten");
            }
            assertReplay(fs, expected(written, trimmer, sealedEnd(log)));
        }
    }

    /**
     * The dead-share counters say what a pass saw, whether or not it rewrote: every sealed record's
     * payload is judged once per pass, and the bytes the trimmer leaves out count as dead even in
     * segments kept whole (threshold 1: no segment is worth rewriting here).
     */
    @Test
    void aPassCountsTheBytesItJudgedAndTheDeadOnesAmongThem() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        ScriptedTrimmer trimmer = new ScriptedTrimmer();
        try (LogManager log = LogTestSupport.open(fs, options)) {
            Map<Long, byte[]> written = append(log, 1500, 0);
            long sealedEnd = sealedEnd(log);
            long judged = 0;
            long dead = 0;
            int i = 0;
            for (var e : written.entrySet()) {
                if (e.getKey() >= sealedEnd) {
                    continue;
                }
                int n = e.getValue().length;
                judged += n;
                if (i++ % 5 == 0) {
                    trimmer.dead.add(e.getKey());
                    dead += n;
                } else if (i % 5 == 2) {
                    trimmer.reduced.add(e.getKey());
                    dead += n - n / 2;
                }
            }
            assertTrue(judged > 0 && dead > 0 && dead < judged / 2, judged + " / " + dead);
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(false, true, 1, 1, 10,
                    Long.MAX_VALUE, 1.0), trimmer, () -> 1);
            packer.trimPass();
            packer.trimPass();
            PackerStatistics st = packer.statistics();
            assertEquals(0, st.trimmedSegments(), "nothing is worth rewriting at threshold 1: " + st);
            assertEquals(2 * judged, st.bytesJudged(), st.toString());
            assertEquals(2 * dead, st.deadBytesJudged(), st.toString());
        }
    }

    /**
     * The order the packer's safety rests on (rule 2 of {@link SegmentPacker}): within a pass every
     * record is judged after every newer one, inside a segment as across segments. A trimmer whose
     * answer changes between two questions (a flush in between) would otherwise keep an older write
     * of a key and drop the newer one, and replay would resurrect the older value; the crash-clone
     * stress load found exactly that when a segment was read oldest record first.
     */
    @Test
    void aPassJudgesEveryRecordAfterEveryNewerOne() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        List<Long> asked = new ArrayList<>();
        RecordTrimmer recording = new RecordTrimmer() {
            @Override
            public long oldestUnapplied() {
                return Long.MAX_VALUE;
            }

            @Override
            public ByteBuffer trim(long lsn, ByteBuffer payload) {
                asked.add(lsn);
                return asked.size() % 3 == 0 ? null : payload;
            }
        };
        try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
            append(log, 1500, 0);
            assertTrue(log.sealedSegments().size() > 3, "several sealed segments");
            new SegmentPacker(log, new PackingOptions(false, true, 1, 1, 10), recording, () -> 1).trimPass();
            long sealedEnd = sealedEnd(log);
            assertTrue(asked.size() > 3 * log.sealedSegments().size(), "several records per segment: " + asked.size());
            for (int i = 1; i < asked.size(); i++) {
                assertTrue(asked.get(i) < asked.get(i - 1), "record " + asked.get(i) + " judged after the older "
                        + asked.get(i - 1));
            }
            assertTrue(asked.get(0) < sealedEnd, "only sealed records are judged");
        }
    }

    /**
     * Truncation may delete the older segments a pass has listed but not yet read (the checkpoint
     * runs on its own thread): the pass skips them and still swaps what it filtered, instead of
     * failing as a whole on the missing file.
     */
    @Test
    void segmentsTruncatedDuringAPassAreSkipped() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
            append(log, 1500, 0);
            List<SegmentList.Sealed> sealed = log.sealedSegments();
            long newestFirst = sealed.get(sealed.size() - 1).firstLsn();
            boolean[] truncated = new boolean[1];
            RecordTrimmer truncating = new RecordTrimmer() {
                @Override
                public long oldestUnapplied() {
                    return Long.MAX_VALUE;
                }

                @Override
                public ByteBuffer trim(long lsn, ByteBuffer payload) throws IOException {
                    if (!truncated[0]) {
                        truncated[0] = true;
                        log.truncateBefore(newestFirst); // every sealed segment but the newest
                    }
                    return lsn % 2 == 0 ? null : payload;
                }
            };
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(false, true, 1, 1, 10), truncating, () -> 1);
            packer.trimPass();
            assertEquals(0, packer.statistics().failures());
            assertEquals(1, packer.statistics().trimmedSegments(), "the newest sealed segment was swapped");
            assertTrue(log.sealedSegments().get(0).packed());
        }
    }

    /**
     * Fails the n-th file operation of each kind a pass makes (write, sync, rename, directory sync),
     * then checks the crash image: it replays without error, every record is there whole, trimmed
     * or (only if dead) absent, no temporary file survives the next open.
     */
    /**
     * Compression alone takes the oldest unpacked sealed segment; truncation may delete it between
     * the packer's look at the segment list and its read (a log-triggered flush, more likely once
     * trim passes keep the packer busy). That is no failure: the segment is skipped.
     */
    @Test
    void aSegmentTruncatedBeforeItIsCompressedIsSkipped() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
            append(log, 1500, 0);
            List<SegmentList.Sealed> sealed = log.sealedSegments();
            Path oldest = SegmentFiles.path(DIR, sealed.get(0).firstLsn());
            long newestFirst = sealed.get(sealed.size() - 1).firstLsn();
            boolean[] truncated = new boolean[1];
            fs.setInjector((op, path) -> {
                if (op == FileOperation.OPEN && path.equals(oldest) && !truncated[0]) {
                    truncated[0] = true;
                    try {
                        log.truncateBefore(newestFirst); // every sealed segment but the newest
                    } catch (IOException e) {
                        return e;
                    }
                }
                return null;
            });
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(true, false, 2.5, 1.5, 10), null, () -> 1);
            while (packer.tick()) {
                // compress what is left
            }
            assertTrue(truncated[0], "the oldest segment was opened for compression");
            assertEquals(0, packer.statistics().failures());
            assertEquals(1, packer.statistics().compressedSegments(), "the newest sealed segment was compressed");
            assertTrue(log.sealedSegments().get(0).packed());
        }
    }

    @Test
    void aFailureOrCrashAnywhereInAPassLeavesAReplayableLog() throws IOException {
        for (FileOperation op : new FileOperation[] {FileOperation.WRITE, FileOperation.SYNC, FileOperation.RENAME,
                FileOperation.SYNC_DIRECTORY, FileOperation.OPEN}) {
            for (int n = 1; n <= 6; n++) {
                MemFileSystem mem = new MemFileSystem();
                FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
                LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
                ScriptedTrimmer trimmer = new ScriptedTrimmer();
                Map<Long, byte[]> written;
                MemFileSystem image;
                try (LogManager log = LogManager.open(fs, DIR, options, new dev.breakwater.common.stats.IoStatistics())) {
                    written = append(log, 1200, 0);
                    Random rnd = new Random(n);
                    for (long lsn : written.keySet()) {
                        if (rnd.nextInt(3) == 0) {
                            trimmer.dead.add(lsn);
                        }
                    }
                    SegmentPacker packer = new SegmentPacker(log, new PackingOptions(n % 2 == 0, true, 1, 1, 10), trimmer,
                            () -> 1);
                    fs.setInjector(FaultInjectors.failNth(op, p -> p.toString().endsWith(".packing")
                            || (op != FileOperation.WRITE && op != FileOperation.SYNC), n));
                    try {
                        packer.trimPass();
                    } catch (IOException expected) {
                        // the pass stops; what it swapped stays swapped
                    }
                    fs.clearInjector();
                    image = fs.crashClone();
                }
                String what = op + " #" + n;
                List<LogTestSupport.Rec> got = LogTestSupport.replayAll(image);
                Set<Long> seen = new HashSet<>();
                for (LogTestSupport.Rec r : got) {
                    assertArrayEquals(written.get(r.lsn()), r.payload(), what + ": record " + r.lsn());
                    seen.add(r.lsn());
                }
                for (long lsn : written.keySet()) {
                    assertTrue(seen.contains(lsn) || trimmer.dead.contains(lsn), what + ": live record lost: " + lsn);
                }
                try (LogManager reopened = LogTestSupport.open(image, options)) {
                    for (String name : image.list(DIR)) {
                        assertFalse(name.endsWith(".packing"), what + ": leftover " + name);
                    }
                }
            }
        }
    }

    @Test
    void damageInAPackedSegmentIsCorruptionNamingTheFile() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        LogOptions options = LogOptions.of(SEGMENT, Durability.SYNC);
        try (LogManager log = LogTestSupport.open(fs, options)) {
            append(log, 600, 0);
            SegmentPacker packer = new SegmentPacker(log, new PackingOptions(true, false, 2.5, 1.5, 10), null, () -> 1);
            while (packer.tick()) {
                // pack all
            }
        }
        long[] firsts = SegmentFiles.list(fs, DIR);
        Path packed = SegmentFiles.path(DIR, firsts[1]);
        assertTrue(PackedSegment.isPacked(fs, packed));
        MemFileSystem body = fs.crashClone();
        LogTestSupport.flipByte(body, packed, PackedSegmentFormat.HEADER_LENGTH + 10);
        LogCorruptedException e = assertThrows(LogCorruptedException.class, () -> LogTestSupport.replayAll(body));
        assertEquals(packed, e.segment());
        MemFileSystem header = fs.crashClone();
        LogTestSupport.flipByte(header, packed, PackedSegmentFormat.END_LSN_OFFSET);
        e = assertThrows(LogCorruptedException.class, () -> LogTestSupport.open(header, options));
        assertEquals(packed, e.segment());
        MemFileSystem noActive = fs.crashClone();
        noActive.delete(SegmentFiles.path(DIR, firsts[firsts.length - 1]));
        assertThrows(LogCorruptedException.class, () -> LogTestSupport.open(noActive, options));
        assertThrows(LogCorruptedException.class, () -> LogTestSupport.replayAll(noActive));
    }
}
