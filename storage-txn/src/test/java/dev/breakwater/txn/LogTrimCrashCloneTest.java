package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.txn.log.PackerStatistics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Log trimming and compression (paper 002) against a {@link TreeMap} model, with crash clones taken
 * while the packer runs in the background, so that crash images fall before, during and after
 * trimming passes, compressions and swaps. Every image must recover to exactly the acknowledged
 * state (SYNC: every acknowledged commit, nothing else), with the secondary index agreeing with the
 * primary. Keys are rewritten often and records hold several tree operations (a row, its index
 * entry, and the tombstone of the index entry a changed tag leaves), which is what makes trimming
 * per operation and in order necessary: a stale operation replayed over a trimmed newer one would
 * show up here as a wrong row or a dangling index entry.
 */
class LogTrimCrashCloneTest {

    private static final Path DIR = Path.of("/db");

    private static Tuple row(long id, SplittableRandom rnd) {
        char[] pad = new char[rnd.nextInt(800)];
        for (int i = 0; i < pad.length; i++) {
            pad[i] = (char) ('a' + rnd.nextInt(26)); // barely compressible: the log stays larger than memory
        }
        return Tuple.of(id, "t" + rnd.nextInt(40), new String(pad));
    }

    @Test
    void crashImagesTakenWhileThePackerRunsRecoverExactly() throws Exception {
        run(1, null, 1_500, false);
    }

    /**
     * Thirteen times more keys and half the write memory: partial flushes write some keys of a
     * transaction out while its other keys stay in memory, the situation where keeping a record
     * whole for one live operation would replay its stale ones (this test fails at once if the
     * trimmer keeps records whole), and where flushes run between the packer's judgements of two
     * writes of one key. It failed in about half the runs (a row or index entry one write too old)
     * while the packer read each segment oldest record first; see {@code
     * SegmentPackerTest#aPassJudgesEveryRecordAfterEveryNewerOne}.
     */
    @Test
    void withPartialFlushesEveryKeyRecoversItsNewestWrite() throws Exception {
        run(2, null, 20_000, true);
    }

    /**
     * The same with the rewrite threshold ({@code log-trim-min-dead}) at 0.6 and at 0: at 0.6 most
     * passes keep most segments whole and rewrite older ones only where a key left out as gone in a
     * newer rewrite makes that necessary (rule 3 of {@code SegmentPacker}); at 0 every changed
     * segment is rewritten, as before the threshold. (The default, 0.5, runs in the tests above.)
     */
    @Test
    void withPartialFlushesAtOtherRewriteThresholdsEveryKeyRecoversItsNewestWrite() throws Exception {
        PackerStatistics high = run(6, null, 20_000, true, 0.6);
        assertTrue(high.segmentsKeptWhole() > 0, "segments kept whole at 0.6: " + high);
        PackerStatistics zero = run(7, null, 20_000, true, 0.0);
        assertEquals(0, zero.segmentsKeptWhole(), "nothing kept whole at 0: " + zero);
    }

    /**
     * The same, with the packer's writes, syncs and renames failing now and then: a failed pass
     * leaves the log as it was (or with a prefix swapped), and the images still recover exactly.
     */
    @Test
    void packerFailuresLeaveARecoverableLog() throws Exception {
        run(3, FileOperation.RENAME, 1_500, false);
        run(4, FileOperation.SYNC, 1_500, false);
        run(5, FileOperation.WRITE, 1_500, false);
    }

    private static void run(long seed, FileOperation failing, int keys, boolean large) throws Exception {
        run(seed, failing, keys, large, ConfigOptions.LOG_TRIM_MIN_DEAD.defaultValue());
    }

    private static PackerStatistics run(long seed, FileOperation failing, int keys, boolean large, double minDead)
            throws Exception {
        StorageConfig config = (large
                ? CrashWorkload.config(true).toBuilder().set(ConfigOptions.WRITE_MEMORY, 4L << 20)
                : CrashWorkload.config(true).toBuilder()).set(ConfigOptions.LOG_TRIM_MIN_DEAD, minDead).build();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        SplittableRandom rnd = new SplittableRandom(seed);
        Map<Long, Tuple> model = new TreeMap<>();
        List<MemFileSystem> images = new ArrayList<>();
        List<Map<Long, Tuple>> expected = new ArrayList<>();
        PackerStatistics stats;
        try (StorageEngine engine = StorageEngine.open(fs, DIR, config)) {
            engine.createDataset(LogCorruptionEngineTest.rows());
            Dataset ds = engine.dataset("rows");
            if (failing != null) {
                // Only the packer's own files (the temporaries it writes, syncs and renames): everything
                // else must keep working.
                // Failures in the first half of the run only: its passes fail (some after a prefix of
                // their swaps), those of the second half succeed, so the run ends with trimmed segments.
                var random = FaultInjectors.failRandomly(seed, 0.2, failing);
                fs.setInjector((op, p) -> p.toString().contains(".packing") ? random.maybeFail(op, p) : null);
            }
            for (int step = 0; step < 24_000; step++) {
                if (step == 12_000) {
                    fs.clearInjector();
                }
                int n = 1 + rnd.nextInt(3);
                List<Tuple> puts = new ArrayList<>();
                List<Long> deletes = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long id = rnd.nextInt(keys);
                    if (rnd.nextInt(10) == 0) {
                        deletes.add(id);
                    } else {
                        puts.add(row(id, rnd));
                    }
                }
                engine.inTransaction(tx -> {
                    for (Tuple t : puts) {
                        tx.upsert(ds, t);
                    }
                    for (long id : deletes) {
                        tx.delete(ds, Key.of(id));
                    }
                });
                for (Tuple t : puts) {
                    model.put(t.getLong(0), t);
                }
                for (long id : deletes) {
                    model.remove(id);
                }
                if (step % 1000 == 999) {
                    images.add(fs.crashClone());
                    expected.add(new TreeMap<>(model));
                }
            }
            stats = engine.packer.statistics();
            fs.clearInjector();
        }
        if (config.get(ConfigOptions.LOG_TRIM)) {
            assertTrue(stats.trimmedSegments() > 0, "the packer trimmed: " + stats);
            assertTrue(stats.recordsDropped() + stats.recordsReduced() > 0, "records were trimmed: " + stats);
        }
        for (int i = 0; i < images.size(); i++) {
            String what = "seed " + seed + " image " + i + " (" + failing + " failing)";
            try (StorageEngine recovered = StorageEngine.open(images.get(i), DIR, config)) {
                assertSame(expected.get(i), scan(recovered.dataset("rows"), what), what);
            }
        }
        try (StorageEngine reopened = StorageEngine.open(fs.crashClone(), DIR, config)) {
            assertSame(model, scan(reopened.dataset("rows"), "final image"), "final image");
        }
        return stats;
    }

    /** Equal maps; on a difference, names the first key that differs (not the whole map). */
    private static void assertSame(Map<Long, Tuple> expected, Map<Long, Tuple> actual, String what) {
        TreeMap<Long, Boolean> keys = new TreeMap<>();
        expected.keySet().forEach(k -> keys.put(k, true));
        actual.keySet().forEach(k -> keys.put(k, true));
        for (long k : keys.keySet()) {
            Tuple e = expected.get(k);
            Tuple a = actual.get(k);
            if (e == null ? a != null : !e.equals(a)) {
                throw new AssertionError(what + ": key " + k + " should be " + brief(e) + " but recovery gave " + brief(a));
            }
        }
    }

    private static String brief(Tuple t) {
        return t == null ? "absent" : "(" + t.getLong(0) + ", " + t.getString(1) + ", pad of " + t.getString(2).length()
                + " chars, " + Integer.toHexString(t.getString(2).hashCode()) + ")";
    }

    private static Map<Long, Tuple> scan(Dataset ds, String what) {
        Map<Long, Tuple> rows = new TreeMap<>();
        try (Cursor<Tuple> c = ds.scan(KeyRange.all())) {
            c.forEachRemaining(t -> rows.put(t.getLong(0), t));
        }
        List<Tuple> indexed = new ArrayList<>();
        try (Cursor<Tuple> c = ds.index("by_tag").scan(KeyRange.all())) {
            c.forEachRemaining(indexed::add);
        }
        if (rows.size() != indexed.size()) {
            Map<Long, Integer> counts = new TreeMap<>();
            for (Tuple t : indexed) {
                counts.merge(t.getLong(0), 1, Integer::sum);
            }
            List<String> wrong = new ArrayList<>();
            for (long id : rows.keySet()) {
                if (counts.getOrDefault(id, 0) != 1) {
                    wrong.add(id + " (row " + brief(rows.get(id)) + ", " + counts.getOrDefault(id, 0) + " index entries)");
                }
            }
            throw new AssertionError(what + ": the secondary index has " + indexed.size() + " entries for " + rows.size()
                    + " rows; rows without exactly one: " + wrong);
        }
        for (Tuple t : indexed) {
            assertEquals(rows.get(t.getLong(0)), t, what + ": the index entry matches its row");
        }
        return rows;
    }
}
