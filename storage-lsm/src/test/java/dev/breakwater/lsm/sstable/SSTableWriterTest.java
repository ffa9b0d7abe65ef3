package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FaultInjectors;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SSTableWriterTest {

    private static final int PAGE = SSTableFixture.PAGE;
    private final MemFileSystem mem = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();
    private final Path dir = Path.of("/db");
    private final Path path = dir.resolve("w.sst");

    private SSTableWriter writer() throws IOException {
        mem.createDirectories(dir);
        return SSTableWriter.create(mem, path, SSTableOptions.defaults(PAGE), io, IoPurpose.FLUSH);
    }

    @Test
    void rejectsEqualAndDecreasingKeys() throws IOException {
        try (SSTableWriter w = writer()) {
            w.add(new byte[] {1, 2}, 2, new byte[0], 0, false);
            IllegalArgumentException eq = assertThrows(IllegalArgumentException.class,
                    () -> w.add(new byte[] {1, 2}, 2, new byte[0], 0, false));
            assertTrue(eq.getMessage().contains("strictly increasing"), eq.getMessage());
            assertThrows(IllegalArgumentException.class, () -> w.add(new byte[] {1}, 1, new byte[0], 0, false));
            // unsigned order: 0x80 sorts after 0x01
            w.add(new byte[] {(byte) 0x80}, 1, new byte[0], 0, false);
            assertEquals(2, w.entryCount());
        }
    }

    @Test
    void rejectsOversizeKeysAndRecordsNamingSizeAndLimit() throws IOException {
        try (SSTableWriter w = writer()) {
            int maxKey = SSTableFormat.maxKeyLength(PAGE);
            int maxRecord = SSTableFormat.maxRecordLength(PAGE);
            IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
                    () -> w.add(new byte[maxKey + 1], maxKey + 1, new byte[0], 0, false));
            assertTrue(key.getMessage().contains(String.valueOf(maxKey + 1)) && key.getMessage().contains(String.valueOf(maxKey)), key.getMessage());
            IllegalArgumentException rec = assertThrows(IllegalArgumentException.class,
                    () -> w.add(new byte[10], 10, new byte[maxRecord], maxRecord, false));
            assertTrue(rec.getMessage().contains(String.valueOf(maxRecord + 10)) && rec.getMessage().contains(String.valueOf(maxRecord)), rec.getMessage());
            // the largest allowed key and record are accepted and read back
            byte[] k = new byte[maxKey];
            k[0] = 1;
            w.add(k, k.length, new byte[maxRecord - maxKey], maxRecord - maxKey, false);
            byte[] k2 = new byte[maxKey];
            k2[0] = 2;
            w.add(k2, k2.length, new byte[0], 0, true);
            w.finish(1, 1);
        }
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(mem, path, cache, false, IoPurpose.QUERY)) {
            byte[] k = new byte[SSTableFormat.maxKeyLength(PAGE)];
            k[0] = 1;
            ValueHolder out = new ValueHolder();
            assertEquals(LookupResult.FOUND, r.get(k, k.length, out, IoPurpose.QUERY));
            assertEquals(SSTableFormat.maxRecordLength(PAGE) - k.length, out.length());
            k[0] = 2;
            assertEquals(LookupResult.DELETED, r.get(k, k.length, out, IoPurpose.QUERY));
        }
    }

    @Test
    void abortDeletesThePartialFile() throws IOException {
        SSTableWriter w = writer();
        Random rnd = new Random(1);
        for (int i = 0; i < 20_000; i++) {
            byte[] k = {(byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
            byte[] v = new byte[50];
            rnd.nextBytes(v);
            w.add(k, 3, v, v.length, false);
        }
        assertTrue(mem.exists(path));
        assertTrue(mem.size(path) > 0, "leaves are written while adding");
        w.abort();
        assertFalse(mem.exists(path));
        w.abort(); // idempotent
        assertThrows(IllegalStateException.class, () -> w.add(new byte[] {9}, 1, new byte[0], 0, false));
    }

    @Test
    void finishWithoutEntriesIsRefused() throws IOException {
        try (SSTableWriter w = writer()) {
            assertThrows(IllegalStateException.class, () -> w.finish(0, 0));
        }
        assertFalse(mem.exists(path), "close() after a refused finish aborts");
    }

    @Test
    void finishedFileSurvivesACrashOnceItsDirectoryIsSynced() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        fs.createDirectories(dir);
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(9), 4_000, 16, 80);
        long syncsBefore = fs.operationCount(FileOperation.SYNC);
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(PAGE), io, m);
        assertEquals(syncsBefore + 1, fs.operationCount(FileOperation.SYNC), "finish fsyncs the file once");

        // Without a directory sync the new file's name is not yet durable (the caller's job).
        assertFalse(fs.crashClone().exists(path));

        fs.syncDirectory(dir);
        MemFileSystem afterCrash = fs.crashClone();
        assertEquals(meta.fileBytes(), afterCrash.size(path));
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(afterCrash, path, cache, false, IoPurpose.QUERY)) {
            assertEquals(meta, r.metadata());
            ValueHolder out = new ValueHolder();
            for (var e : m.entrySet()) {
                LookupResult res = r.get(e.getKey(), e.getKey().length, out, IoPurpose.QUERY);
                assertEquals(e.getValue().tombstone() ? LookupResult.DELETED : LookupResult.FOUND, res);
                if (!e.getValue().tombstone()) {
                    assertArrayEquals(e.getValue().value(), out.toArray());
                }
            }
        }
    }

    @Test
    void failedSyncLeavesTheWriterFailedAndAbortCleansUp() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        fs.createDirectories(dir);
        SSTableWriter w = SSTableWriter.create(fs, path, SSTableOptions.defaults(PAGE), io, IoPurpose.FLUSH);
        w.add(new byte[] {1}, 1, new byte[] {2}, 1, false);
        fs.setInjector(FaultInjectors.failNth(FileOperation.SYNC, 1));
        assertThrows(IOException.class, () -> w.finish(1, 1));
        fs.clearInjector();
        assertThrows(IllegalStateException.class, () -> w.finish(1, 1));
        w.abort();
        assertFalse(fs.exists(path));
    }
}
