package dev.breakwater.txn.log;

import static dev.breakwater.txn.log.LogTestSupport.DIR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.Durability;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which segments a trimming pass rewrites (rule 3 of {@link SegmentPacker}: those worth it by
 * {@link PackingOptions#minDeadRatio()}, and the older ones holding a key a newer rewrite left out as
 * gone), checked against a model of a tree: records of several key writes, a memory that holds each
 * key's newest write in a table with an oldest LSN (or not: flushed to the model's disk), flushes and
 * merges between and <em>during</em> the packer's judgements. After every pass, and in the image of
 * a crash at every file operation of a pass, replaying every logged write over the disk must give
 * each key its newest value (the strictest replay: the tree's durable LSN is 0, so every write left
 * in the log is replayed).
 */
class TrimRewriteRuleTest {

    private static final long SEGMENT = 32 * 1024;
    private static final int PAD = 90;

    /**
     * The tree: the newest value of each key, whether memory holds it and the oldest LSN of the
     * memory table that does (its floor), and the disk. Also the packer's {@link RecordTrimmer}.
     */
    private static final class Tree implements RecordTrimmer {
        final int keys;
        final long[] newest;
        final boolean[] inMemory;
        final long[] floor;
        final Map<Integer, Long> disk = new TreeMap<>();
        final SplittableRandom rnd;
        /** Chance per judgement of a flush or merge happening meanwhile (the packer runs beside them). */
        double churn;
        long tableStart = -1;
        LogManager log;
        long nextValue = 1;

        Tree(int keys, long seed) {
            this.keys = keys;
            this.newest = new long[keys];
            this.inMemory = new boolean[keys];
            this.floor = new long[keys];
            this.rnd = new SplittableRandom(seed);
        }

        /** Logs one record writing {@code ks} (a value per key, the next of a counter) and applies it. */
        long write(int... ks) throws IOException {
            ByteBuffer b = ByteBuffer.allocate(4 + ks.length * (12 + PAD));
            long[] values = new long[ks.length];
            b.putInt(ks.length);
            for (int i = 0; i < ks.length; i++) {
                values[i] = nextValue++;
                b.putInt(ks[i]).putLong(values[i]).put(new byte[PAD]);
            }
            long lsn = log.commit(b.array());
            if (tableStart < 0) {
                tableStart = lsn;
            }
            for (int i = 0; i < ks.length; i++) {
                newest[ks[i]] = values[i];
                inMemory[ks[i]] = true;
                floor[ks[i]] = tableStart; // the active table's oldest LSN
            }
            return lsn;
        }

        /** A new active table: writes from here on have a higher floor. */
        void rotate() {
            tableStart = log.endLsn();
        }

        /** A (partial) flush of one key: its newest value goes to disk and leaves memory. */
        void flush(int k) {
            if (inMemory[k]) {
                disk.put(k, newest[k]);
                inMemory[k] = false;
            }
        }

        /** A memory merge: the key's table joins an older one, so its floor falls (never below 1). */
        void merge(int k) {
            if (inMemory[k] && floor[k] > 1) {
                floor[k] = 1 + rnd.nextLong(floor[k]);
            }
        }

        void randomChurn() {
            int k = rnd.nextInt(keys);
            switch (rnd.nextInt(3)) {
                case 0 -> flush(k);
                case 1 -> merge(k);
                default -> rotate();
            }
        }

        @Override
        public long oldestUnapplied() {
            return Long.MAX_VALUE;
        }

        @Override
        public ByteBuffer trim(long lsn, ByteBuffer payload) {
            throw new AssertionError("the packer asks with a sink");
        }

        @Override
        public ByteBuffer trim(long lsn, ByteBuffer payload, Dropped dropped) {
            if (rnd.nextDouble() < churn) {
                randomChurn();
            }
            ByteBuffer in = payload.duplicate().order(java.nio.ByteOrder.BIG_ENDIAN);
            int n = in.getInt();
            List<byte[]> kept = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = in.getInt();
                long v = in.getLong();
                in.position(in.position() + PAD);
                if (inMemory[k] && floor[k] <= lsn) {
                    kept.add(ByteBuffer.allocate(12 + PAD).putInt(k).putLong(v).array());
                } else {
                    dropped.dropped(hash(k), !inMemory[k]);
                }
            }
            if (kept.size() == n) {
                return payload;
            }
            if (kept.isEmpty()) {
                return null;
            }
            ByteBuffer out = ByteBuffer.allocate(4 + kept.size() * (12 + PAD)).putInt(kept.size());
            kept.forEach(out::put);
            return out.flip();
        }

        static long hash(int k) {
            byte[] key = ByteBuffer.allocate(4).putInt(k).array();
            return RecordTrimmer.keyHash(7, key, key.length);
        }

        /** Replays every write in {@code image}'s log over the disk; fails on a key not at its newest value. */
        void assertRecovers(FileSystem image, String what) throws IOException {
            Map<Integer, Long> state = new TreeMap<>(disk);
            for (LogTestSupport.Rec r : LogTestSupport.replayAll(image)) {
                ByteBuffer in = ByteBuffer.wrap(r.payload());
                int n = in.getInt();
                for (int i = 0; i < n; i++) {
                    int k = in.getInt();
                    state.put(k, in.getLong());
                    in.position(in.position() + PAD);
                }
            }
            for (int k = 0; k < keys; k++) {
                if (newest[k] != 0) {
                    assertEquals(Long.valueOf(newest[k]), state.get(k), what + ": key " + k);
                }
            }
        }
    }

    private static PackingOptions trimming(double minDeadRatio) {
        return new PackingOptions(false, true, 1, 1, 10, Long.MAX_VALUE, minDeadRatio);
    }

    private static int sealedCount(LogManager log) {
        return log.sealedSegments().size();
    }

    /** Fills the current segment with writes of keys {@code from} to {@code from + count} until it is sealed. */
    private static void fillSegment(Tree t, int from, int count) throws IOException {
        int sealed = sealedCount(t.log);
        for (int i = 0; sealedCount(t.log) == sealed; i++) {
            t.write(from + i % count);
        }
    }

    /**
     * The newest segments hold mostly live writes and a few superseded ones: with a threshold they are
     * kept whole (nothing older depends on them), where rewriting every changed segment (threshold
     * 0, the rule before) rewrites them all.
     */
    @Test
    void segmentsWithLittleToDropAreKeptWhole() throws IOException {
        long[] written = new long[2];
        long[] keptWhole = new long[2];
        for (int variant = 0; variant < 2; variant++) {
            MemFileSystem fs = new MemFileSystem();
            Tree t = new Tree(2000, 1);
            try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
                t.log = log;
                fillSegment(t, 0, 500); // keys 0..499, then flushed: the oldest segments are all gone
                fillSegment(t, 0, 500);
                for (int k = 0; k < 500; k++) {
                    t.flush(k);
                }
                t.rotate();
                for (int s = 0; s < 4; s++) {
                    fillSegment(t, 1000 + 200 * s, 200); // live keys ...
                    t.rotate();
                    t.write(1000 + 200 * s); // ... one of them superseded by a write in a newer table
                }
                SegmentPacker packer = new SegmentPacker(log, trimming(variant == 0 ? 0 : 0.5), t, () -> 1);
                packer.trimPass();
                written[variant] = packer.statistics().bytesWritten();
                keptWhole[variant] = packer.statistics().segmentsKeptWhole();
                assertEquals(0, packer.statistics().segmentsForced(), "superseded writes force nothing");
                assertTrue(packer.statistics().trimmedSegments() >= 2, "the gone segments are rewritten");
                t.assertRecovers(fs, "threshold " + (variant == 0 ? 0 : 0.5));
            }
        }
        assertEquals(0, keptWhole[0], "threshold 0 keeps no changed segment whole");
        assertTrue(keptWhole[1] >= 3, "kept whole: " + keptWhole[1]);
        assertTrue(written[1] * 3 < written[0], "bytes written " + written[1] + " against " + written[0]);
    }

    /**
     * The case a rule "skip every segment not worth rewriting" gets wrong: key K is written in an
     * old segment (A, otherwise live) and again in a newer one (B, otherwise gone); K is then flushed.
     * B is worth rewriting and drops K's newer write as gone; A is not worth it by its own bytes, but
     * kept whole it would replay K's older write over the newer value on disk. Rule 3b rewrites it.
     */
    @Test
    void anOlderSegmentHoldingAKeyGoneInANewerRewriteIsRewritten() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Tree t = new Tree(3000, 2);
        final int key = 2999;
        try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
            t.log = log;
            t.write(key);
            fillSegment(t, 0, 250); // A: K's first write and live keys 0..249
            long aFirst = log.sealedSegments().get(0).firstLsn();
            t.write(key);
            fillSegment(t, 1000, 250); // B: K's second write and keys 1000..1249, all flushed below
            for (int k = 1000; k < 1250; k++) {
                t.flush(k);
            }
            t.flush(key);
            t.rotate();
            fillSegment(t, 2000, 250); // C, newest sealed: live
            SegmentPacker packer = new SegmentPacker(log, trimming(0.5), t, () -> 1);
            packer.trimPass();
            PackerStatistics st = packer.statistics();
            assertEquals(1, st.segmentsForced(), "A is rewritten for K: " + st);
            assertEquals(2, st.trimmedSegments(), st.toString());
            assertTrue(log.sealedSegments().get(0).packed(), "A was rewritten");
            assertEquals(aFirst, log.sealedSegments().get(0).firstLsn());
            for (LogTestSupport.Rec r : LogTestSupport.replayAll(fs)) {
                ByteBuffer in = ByteBuffer.wrap(r.payload());
                int n = in.getInt();
                for (int i = 0; i < n; i++) {
                    assertTrue(in.getInt() != key, "K's older write is still in the log at " + r.lsn());
                    in.position(in.position() + 8 + PAD);
                }
            }
            t.assertRecovers(fs, "after the pass");
        }
    }

    /** The same key superseded (not gone) in the newer segment: A may stay whole, K's newest write is kept. */
    @Test
    void anOlderSegmentUnderASupersededKeyMayStayWhole() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Tree t = new Tree(3000, 3);
        final int key = 2999;
        try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
            t.log = log;
            t.write(key);
            fillSegment(t, 0, 250);
            t.write(key);
            fillSegment(t, 1000, 250);
            for (int k = 1000; k < 1250; k++) {
                t.flush(k);
            }
            t.rotate();
            t.write(key); // K's newest write, in a newer table: both older ones are superseded
            fillSegment(t, 2000, 250);
            SegmentPacker packer = new SegmentPacker(log, trimming(0.5), t, () -> 1);
            packer.trimPass();
            PackerStatistics st = packer.statistics();
            assertEquals(0, st.segmentsForced(), st.toString());
            assertEquals(1, st.trimmedSegments(), st.toString());
            assertFalse(log.sealedSegments().get(0).packed(), "A kept whole");
            t.assertRecovers(fs, "after the pass");
        }
    }

    /**
     * Random writes of several keys per record, flushes, merges and table switches between and during
     * passes, at thresholds from 0 to 1: after every pass the log replays every key to its newest value.
     */
    @Test
    void randomWorkloadsRecoverEveryKeyAfterEveryPass() throws IOException {
        double[] ratios = {0, 0.2, 0.5, 0.8, 1};
        long forced = 0;
        long keptWhole = 0;
        for (int seed = 1; seed <= 10; seed++) {
            MemFileSystem fs = new MemFileSystem();
            Tree t = new Tree(seed % 2 == 0 ? 300 : 3000, seed);
            try (LogManager log = LogTestSupport.open(fs, LogOptions.of(SEGMENT, Durability.SYNC))) {
                t.log = log;
                SegmentPacker packer = new SegmentPacker(log, trimming(ratios[seed % ratios.length]), t, () -> 1);
                for (int round = 0; round < 12; round++) {
                    int writes = 200 + t.rnd.nextInt(400);
                    for (int w = 0; w < writes; w++) {
                        int[] ks = new int[1 + t.rnd.nextInt(3)];
                        for (int i = 0; i < ks.length; i++) {
                            ks[i] = t.rnd.nextInt(t.keys);
                        }
                        t.write(ks);
                        if (t.rnd.nextInt(20) == 0) {
                            t.randomChurn();
                        }
                        if (t.rnd.nextInt(200) == 0) { // a flush of much of memory
                            for (int k = 0; k < t.keys; k++) {
                                if (t.rnd.nextBoolean()) {
                                    t.flush(k);
                                }
                            }
                        }
                    }
                    t.churn = 0.05;
                    packer.trimPass();
                    t.churn = 0;
                    t.assertRecovers(fs, "seed " + seed + " round " + round);
                }
                forced += packer.statistics().segmentsForced();
                keptWhole += packer.statistics().segmentsKeptWhole();
            }
        }
        assertTrue(forced > 0, "some segments were rewritten for safety");
        assertTrue(keptWhole > 0, "some segments were kept whole");
    }

    /**
     * A crash (or an I/O failure) at each file operation of a pass over an already trimmed log, with
     * the rule keeping some segments whole and forcing others: every crash image replays every key to
     * its newest value.
     */
    @Test
    void aCrashAnywhereInAPassRecoversEveryKey() throws IOException {
        int images = 0;
        for (FileOperation op : new FileOperation[] {FileOperation.WRITE, FileOperation.SYNC, FileOperation.RENAME,
                FileOperation.SYNC_DIRECTORY}) {
            for (int n = 1; n <= 8; n++) {
                FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
                Tree t = new Tree(400, n);
                MemFileSystem image;
                try (LogManager log = LogManager.open(fs, DIR, LogOptions.of(SEGMENT, Durability.SYNC), new IoStatistics())) {
                    t.log = log;
                    SegmentPacker packer = new SegmentPacker(log, trimming(0.5), t, () -> 1);
                    for (int round = 0; round < 3; round++) {
                        for (int w = 0; w < 800; w++) {
                            t.write(t.rnd.nextInt(t.keys), t.rnd.nextInt(t.keys));
                            if (t.rnd.nextInt(10) == 0) {
                                t.randomChurn();
                            }
                        }
                        for (int k = 0; k < t.keys; k += 1 + t.rnd.nextInt(3)) {
                            t.flush(k);
                        }
                        if (round < 2) {
                            packer.trimPass();
                        }
                    }
                    fs.setInjector(FaultInjectors.failNth(op, p -> p.toString().endsWith(".packing")
                            || (op != FileOperation.WRITE && op != FileOperation.SYNC), n));
                    t.churn = 0.05;
                    try {
                        packer.trimPass();
                    } catch (IOException expected) {
                        // the pass stops; what it swapped stays swapped
                    }
                    t.churn = 0;
                    fs.clearInjector();
                    image = fs.crashClone();
                }
                t.assertRecovers(image, op + " #" + n);
                images++;
            }
        }
        assertEquals(32, images);
    }
}
