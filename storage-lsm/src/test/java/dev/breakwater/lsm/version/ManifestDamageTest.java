package dev.breakwater.lsm.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.FileSystem;
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

/**
 * A manifest whose synced part is damaged is refused with the file and offset, and no file is
 * changed; only an append that never reached its commit point (a zero or torn checksum field, as
 * the last record) is left out.
 */
class ManifestDamageTest {

    private static final long NO_ROTATION = 1L << 40;

    private final MemFileSystem mem = new MemFileSystem();
    private final Path dir = Path.of("/db/tree-1");
    private final Path manifest = dir.resolve(ManifestFormat.manifestName(1));

    private static TableMeta table(long number) {
        return new TableMeta(number, 4096, 10, new byte[] {1}, new byte[] {9}, 1, 100);
    }

    /** Creates a manifest with three flushes of one table each; returns the offsets of its records. */
    private List<Long> writeThreeFlushes(FileSystem fs) throws IOException {
        List<Long> offsets = new ArrayList<>();
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), NO_ROTATION);
        offsets.add(0L);
        Version v = o.version();
        try (Manifest m = o.manifest()) {
            for (long n = 1; n <= 3; n++) {
                offsets.add(fs.size(manifest));
                VersionEdit e = new VersionEdit().newRun(0, n, true).addTable(0, n, table(n)).setLastFlushedLsn(n * 100);
                m.append(e, v);
                v = new VersionBuilder(v).apply(e).build();
            }
        }
        return offsets;
    }

    private byte[] bytes(Path p) throws IOException {
        try (StorageFile f = mem.open(p, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    private void replace(Path p, byte[] content) throws IOException {
        try (StorageFile f = mem.open(p, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(content));
            f.sync();
        }
    }

    private CorruptManifestException assertRefusedUnchanged(long offset) throws IOException {
        byte[] before = bytes(manifest);
        List<String> namesBefore = mem.list(dir);
        CorruptManifestException e = assertThrows(CorruptManifestException.class,
                () -> Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION));
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(e.path().toString()), e.getMessage());
        assertArrayEquals(before, bytes(manifest), "a refused open must not change the manifest");
        assertEquals(namesBefore, mem.list(dir), "a refused open must not create or delete files");
        return e;
    }

    @Test
    void aManifestCutShortByThreeBytesIsRefusedAtItsLastRecord() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] full = bytes(manifest);
        replace(manifest, java.util.Arrays.copyOf(full, full.length - 3));
        CorruptManifestException e = assertRefusedUnchanged(offsets.get(3));
        assertTrue(e.getMessage().contains("past the end of the file"), e.getMessage());
    }

    @Test
    void aManifestCutInsideAHeaderIsRefused() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] full = bytes(manifest);
        replace(manifest, java.util.Arrays.copyOf(full, (int) (offsets.get(3) + 5)));
        assertRefusedUnchanged(offsets.get(3));
    }

    @Test
    void aFlippedBitInAnEarlierRecordIsRefusedThere() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] damaged = bytes(manifest);
        damaged[(int) (offsets.get(2) + ManifestFormat.RECORD_HEADER + 3)] ^= 0x10;
        replace(manifest, damaged);
        CorruptManifestException e = assertRefusedUnchanged(offsets.get(2));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void aFlippedBitInTheLastRecordIsRefused() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] damaged = bytes(manifest);
        damaged[damaged.length - 1] ^= 0x01;
        replace(manifest, damaged);
        assertRefusedUnchanged(offsets.get(3));
    }

    @Test
    void anEmptyLiveManifestIsRefused() throws IOException {
        writeThreeFlushes(mem);
        replace(manifest, new byte[0]);
        assertRefusedUnchanged(0);
    }

    @Test
    void aMissingCurrentWithTablesInTheManifestIsRefused() throws IOException {
        writeThreeFlushes(mem);
        mem.delete(dir.resolve(ManifestFormat.CURRENT));
        CorruptManifestException e = assertRefusedUnchanged(-1);
        assertTrue(e.getMessage().contains("CURRENT is missing"), e.getMessage());
        assertFalse(mem.exists(dir.resolve(ManifestFormat.CURRENT)));
    }

    @Test
    void aMissingCurrentWithATableFileIsRefused() throws IOException {
        Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION).manifest().close();
        mem.open(dir.resolve("000001.sst"), OpenOption.CREATE, OpenOption.WRITE).close();
        mem.delete(dir.resolve(ManifestFormat.CURRENT));
        assertRefusedUnchanged(-1);
    }

    @Test
    void aCreationThatDidNotFinishStartsANewTree() throws IOException {
        Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION).manifest().close();
        mem.delete(dir.resolve(ManifestFormat.CURRENT)); // crash before CURRENT was written
        Manifest.Opened o = Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION);
        o.manifest().close();
        assertEquals(0, o.version().allTables().size());
        assertTrue(mem.exists(dir.resolve(ManifestFormat.CURRENT)));
    }

    @Test
    void anAppendWhoseChecksumWasNeverWrittenIsLeftOutThenCutOff() throws IOException {
        // A crash after the first sync of an append and before the checksum's: its field is zero.
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] crashed = bytes(manifest);
        int at = offsets.get(3).intValue();
        java.util.Arrays.fill(crashed, at + 4, at + ManifestFormat.RECORD_HEADER, (byte) 0);
        replace(manifest, crashed);
        assertOpensWithTwoFlushesThenAppends();
    }

    @Test
    void anAppendWithATornChecksumIsLeftOut() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] crashed = bytes(manifest);
        int at = offsets.get(3).intValue();
        java.util.Arrays.fill(crashed, at + 6, at + ManifestFormat.RECORD_HEADER, (byte) 0);
        replace(manifest, crashed);
        assertOpensWithTwoFlushesThenAppends();
    }

    @Test
    void anAppendWithOnlyPartOfItsPayloadIsLeftOut() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] full = bytes(manifest);
        byte[] crashed = java.util.Arrays.copyOf(full, full.length - 5);
        int at = offsets.get(3).intValue();
        java.util.Arrays.fill(crashed, at + 4, at + ManifestFormat.RECORD_HEADER, (byte) 0);
        replace(manifest, crashed);
        assertOpensWithTwoFlushesThenAppends();
    }

    @Test
    void anAppendCutInsideItsHeaderBeforeItsChecksumIsLeftOut() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] crashed = java.util.Arrays.copyOf(bytes(manifest), offsets.get(3).intValue() + 6);
        java.util.Arrays.fill(crashed, offsets.get(3).intValue() + 4, crashed.length, (byte) 0);
        replace(manifest, crashed);
        assertOpensWithTwoFlushesThenAppends();
    }

    @Test
    void aZeroedHeaderInTheMiddleIsRefusedNotTakenForAnUnfinishedAppend() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] damaged = bytes(manifest);
        int at = offsets.get(2).intValue();
        java.util.Arrays.fill(damaged, at, at + ManifestFormat.RECORD_HEADER, (byte) 0);
        replace(manifest, damaged);
        assertRefusedUnchanged(offsets.get(2));
    }

    @Test
    void aZeroedChecksumInTheMiddleIsRefused() throws IOException {
        List<Long> offsets = writeThreeFlushes(mem);
        byte[] damaged = bytes(manifest);
        int at = offsets.get(2).intValue();
        java.util.Arrays.fill(damaged, at + 4, at + ManifestFormat.RECORD_HEADER, (byte) 0);
        replace(manifest, damaged);
        CorruptManifestException e = assertRefusedUnchanged(offsets.get(2));
        assertTrue(e.getMessage().contains("bytes follow it"), e.getMessage());
    }

    private void assertOpensWithTwoFlushesThenAppends() throws IOException {
        byte[] before = bytes(manifest);
        Manifest.Opened o = Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION);
        assertTrue(o.droppedTail());
        assertEquals(3, o.editsReplayed());
        assertEquals(2, o.version().allTables().size());
        assertEquals(200, o.version().lastFlushedLsn());
        assertArrayEquals(before, bytes(manifest), "open leaves the file as it was");
        VersionEdit next = new VersionEdit().newRun(0, 9, true).addTable(0, 9, table(9)).setLastFlushedLsn(300);
        o.manifest().append(next, o.version());
        o.manifest().close();
        Manifest.Opened again = Manifest.open(mem, dir, new IoStatistics(), NO_ROTATION);
        again.manifest().close();
        assertFalse(again.droppedTail(), "the append cut the unfinished tail off");
        assertEquals(3, again.version().allTables().size());
        assertEquals(300, again.version().lastFlushedLsn());
    }

    @Test
    void aTornHeaderWriteFromTheFileSystemIsLeftOutAfterACrash() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        writeThreeFlushes(fs);
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), NO_ROTATION);
        // The second write of the next append is its checksum: keep 3 of its 4 bytes, then fail.
        fs.setInjector(new TornSecondWrite(manifest));
        VersionEdit e = new VersionEdit().newRun(0, 9, true).addTable(0, 9, table(9)).setLastFlushedLsn(400);
        assertThrows(IOException.class, () -> o.manifest().append(e, o.version()));
        fs.clearInjector();
        MemFileSystem crashed = fs.crashClone();
        Manifest.Opened reopened = Manifest.open(crashed, dir, new IoStatistics(), NO_ROTATION);
        reopened.manifest().close();
        assertTrue(reopened.droppedTail());
        assertEquals(3, reopened.version().allTables().size());
        o.manifest().close();
    }

    /** Tears the second WRITE on one path: 3 leading bytes persisted, then a failure. */
    private final class TornSecondWrite implements dev.breakwater.common.io.FaultInjector {
        private final Path path;
        private int writes;

        TornSecondWrite(Path path) {
            this.path = path;
        }

        @Override
        public IOException maybeFail(FileOperation op, Path p) {
            if (op == FileOperation.WRITE && p.equals(path) && ++writes == 2) {
                return new dev.breakwater.common.io.InjectedIOException(op, p, "torn checksum", 3);
            }
            return null;
        }
    }
}
