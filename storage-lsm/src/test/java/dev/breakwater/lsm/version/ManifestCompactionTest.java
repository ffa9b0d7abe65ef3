package dev.breakwater.lsm.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.InjectedIOException;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Manifest compaction: the edits an open replays stay bounded by the live version, not the history;
 * a crash or failure at any step of a compaction (new manifest written, {@code CURRENT.tmp} written,
 * renamed, directory synced, old manifest deleted) reopens to the last acknowledged version; and no
 * manifest that {@code CURRENT} may still name is deleted.
 */
class ManifestCompactionTest {

    private final MemFileSystem mem = new MemFileSystem();
    private final Path dir = Path.of("/db/tree-1");

    private static TableMeta table(long number) {
        byte[] k = ByteBuffer.allocate(8).putLong(number).array();
        return new TableMeta(number, 4096, 10, k, k, number, number);
    }

    /** Edit {@code i} of a history in which L0 keeps about ten tables: add table i, remove table i - 10. */
    private static VersionEdit edit(long i) {
        VersionEdit e = new VersionEdit().newRun(0, i, true).addTable(0, i, table(i)).setLastFlushedLsn(i);
        if (i > 10) {
            e.removeTable(0, i - 10, table(i - 10));
        }
        return e;
    }

    private static String describe(Version v) {
        return v.levels().stream().map(l -> l.stream().map(r -> r.id() + ":" + r.tables()).collect(Collectors.joining(",")))
                .collect(Collectors.joining(" / ")) + " lsn " + v.lastFlushedLsn();
    }

    private List<String> manifests(FileSystem fs) throws IOException {
        return fs.list(dir).stream().filter(n -> n.startsWith(ManifestFormat.MANIFEST_PREFIX)).sorted().toList();
    }

    @Test
    void replayStaysBoundedWhateverTheHistory() throws IOException {
        Manifest.Opened o = Manifest.open(mem, dir, new IoStatistics(), 1L << 40);
        Version v = o.version();
        List<Integer> replayed = new ArrayList<>();
        try (Manifest m = o.manifest()) {
            for (long i = 1; i <= 6000; i++) {
                VersionEdit e = edit(i);
                m.append(e, v);
                v = new VersionBuilder(v).apply(e).build();
                if (i % 2000 == 0) {
                    replayed.add(Manifest.read(mem, dir).edits());
                    assertEquals(describe(v), describe(Manifest.read(mem, dir).version()));
                }
            }
            assertTrue(m.number() > 1, "compacted at least once");
        }
        assertEquals(1, manifests(mem).size(), "old manifests are deleted: " + manifests(mem));
        // 64 KiB of ~100-byte edits at most, whatever the number of edits written.
        for (int r : replayed) {
            assertTrue(r <= 1000, "edits replayed " + replayed);
        }
        Manifest.Opened again = Manifest.open(mem, dir, new IoStatistics(), 1L << 40);
        again.manifest().close();
        assertEquals(describe(v), describe(again.version()));
    }

    /** Writes edits until the next append compacts; returns the version before that append. */
    private Version fillToTheBound(Manifest m, Version v, long[] next) throws IOException {
        while (m.sizeBytes() <= m.rotationBound()) {
            VersionEdit e = edit(next[0]++);
            m.append(e, v);
            v = new VersionBuilder(v).apply(e).build();
        }
        return v;
    }

    @Test
    void aCrashAtAnyStepOfACompactionReopensToAnAcknowledgedVersion() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), 1L << 40);
        long[] next = {1};
        List<MemFileSystem> clones = new ArrayList<>();
        Version before;
        Version after;
        try (Manifest m = o.manifest()) {
            before = fillToTheBound(m, o.version(), next);
            VersionEdit e = edit(next[0]++);
            fs.setInjector((op, path) -> {
                clones.add(mem.crashClone());
                return null;
            });
            m.append(e, before);
            fs.clearInjector();
            after = new VersionBuilder(before).apply(e).build();
            assertEquals(2, m.number(), "the append compacted");
        }
        assertTrue(clones.size() >= 8, "operations seen: " + clones.size());
        int sawOld = 0;
        int sawNew = 0;
        for (MemFileSystem c : clones) {
            Manifest.Opened r = Manifest.open(c, dir, new IoStatistics(), 1L << 40);
            r.manifest().close();
            String got = describe(r.version());
            assertTrue(got.equals(describe(before)) || got.equals(describe(after)), "clone reopened to " + got);
            if (r.manifest().number() == 1) {
                sawOld++;
            } else {
                sawNew++;
            }
        }
        assertTrue(sawOld > 0 && sawNew > 0, "crashes before and after the switch: " + sawOld + " / " + sawNew);
    }

    @Test
    void aFailureBeforeTheSwitchKeepsTheOldManifestLiveAndWritable() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), 1L << 40);
        long[] next = {1};
        Version v;
        try (Manifest m = o.manifest()) {
            v = fillToTheBound(m, o.version(), next);
            fs.setInjector((op, path) -> op == FileOperation.RENAME ? new InjectedIOException(op, path, "injected") : null);
            VersionEdit failed = edit(next[0]);
            assertThrows(IOException.class, () -> m.append(failed, v));
            assertEquals(1, m.number(), "CURRENT still names the old manifest");
            // Crash now: the new manifest is an orphan; the old one is complete.
            MemFileSystem crashed = mem.crashClone();
            assertTrue(manifests(crashed).contains(ManifestFormat.manifestName(1)), "old manifest kept: " + manifests(crashed));
            assertEquals(2, manifests(mem).size(), "the new manifest was written, then left as an orphan");
            Manifest.Opened r = Manifest.open(crashed, dir, new IoStatistics(), 1L << 40);
            r.manifest().close();
            assertEquals(describe(v), describe(r.version()));
            // Without a crash the next append compacts again and succeeds.
            fs.clearInjector();
            m.append(failed, v);
            assertEquals(2, m.number());
        }
        Version after = new VersionBuilder(v).apply(edit(next[0])).build();
        Manifest.Opened r = Manifest.open(mem, dir, new IoStatistics(), 1L << 40);
        r.manifest().close();
        assertEquals(describe(after), describe(r.version()));
        assertEquals(List.of(ManifestFormat.manifestName(2)), manifests(mem));
    }

    @Test
    void aFailureAfterTheRenameKeepsBothManifestsAndRefusesAppends() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), 1L << 40);
        long[] next = {1};
        Version v;
        try (Manifest m = o.manifest()) {
            v = fillToTheBound(m, o.version(), next);
            fs.setInjector((op, path) -> op == FileOperation.SYNC_DIRECTORY ? new InjectedIOException(op, path, "injected") : null);
            assertThrows(IOException.class, () -> m.append(edit(next[0]), v));
            fs.clearInjector();
            assertEquals(2, manifests(mem).size(), "neither manifest is deleted while CURRENT may name either");
            IOException refused = assertThrows(IOException.class, () -> m.append(edit(next[0]), v));
            assertTrue(refused.getMessage().contains("refuses appends"), refused.getMessage());
        }
        for (MemFileSystem c : List.of(mem.crashClone(), mem)) {
            Manifest.Opened r = Manifest.open(c, dir, new IoStatistics(), 1L << 40);
            r.manifest().close();
            assertEquals(describe(v), describe(r.version()), "the failed append was never acknowledged");
        }
    }
}
