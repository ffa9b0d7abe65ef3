package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SSTableRoundTripTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();

    @ParameterizedTest
    @EnumSource(Compression.class)
    void singleEntry(Compression compression) throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.model();
        m.put(new byte[] {5}, new Entry(new byte[] {1, 2, 3}));
        SSTableMetadata meta = roundTrip(fs, m, SSTableOptions.defaults(SSTableFixture.PAGE).withCompression(compression), 0);
        assertEquals(0, meta.indexHeight());
        assertEquals(1, meta.leafPageCount());
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void randomEntriesManyLeaves(Compression compression) throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(42), 20_000, 40, 120);
        SSTableMetadata meta = roundTrip(fs, m, SSTableOptions.defaults(SSTableFixture.PAGE).withCompression(compression), 1);
        assertEquals(m.values().stream().filter(Entry::tombstone).count(), meta.tombstoneCount());
        assertTrue(meta.leafPageCount() > 100, meta.toString());
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void longSeparatorsBuildMultiLevelIndex(Compression compression) throws IOException {
        Random rnd = new Random(7);
        byte[] prefix = new byte[900];
        rnd.nextBytes(prefix);
        TreeMap<byte[], Entry> m = SSTableFixture.model();
        for (int i = 0; i < 5_000; i++) {
            byte[] k = Arrays.copyOf(prefix, prefix.length + 4);
            k[prefix.length] = (byte) (i >>> 24);
            k[prefix.length + 1] = (byte) (i >>> 16);
            k[prefix.length + 2] = (byte) (i >>> 8);
            k[prefix.length + 3] = (byte) i;
            m.put(k, new Entry(i % 7 == 0 ? null : SSTableFixture.compressibleValue(rnd, rnd.nextInt(200))));
        }
        SSTableMetadata meta = roundTrip(fs, m, SSTableOptions.defaults(SSTableFixture.PAGE).withCompression(compression), 2);
        assertTrue(meta.indexHeight() >= 2, "expected a multi-level index: " + meta);
    }

    @Test
    void lz4PacksMoreEntriesPerLeaf() throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(3), 10_000, 16, 300);
        SSTableOptions base = SSTableOptions.defaults(SSTableFixture.PAGE);
        SSTableMetadata plain = SSTableFixture.write(fs, Path.of("/plain.sst"), base, io, m);
        SSTableMetadata lz4 = SSTableFixture.write(fs, Path.of("/lz4.sst"), base.withCompression(Compression.LZ4), io, m);
        assertTrue(lz4.leafPageCount() * 2 < plain.leafPageCount(),
                "LZ4 leaves " + lz4.leafPageCount() + " vs plain " + plain.leafPageCount());
        assertEquals(Compression.LZ4, lz4.compression());
    }

    @Test
    void realFileSystemWithDirectIo(@TempDir Path dir) throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(11), 3_000, 24, 64);
        roundTrip(RealFileSystem.create(), dir, m, SSTableOptions.defaults(SSTableFixture.PAGE).withDirectIo(true), 5);
    }

    @Test
    void writesAreCountedUnderThePurposeInLargeBatches() throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(1), 5_000, 20, 100);
        IoStatistics stats = new IoStatistics();
        SSTableOptions options = SSTableOptions.defaults(SSTableFixture.PAGE).withWriteBatchPages(16);
        SSTableMetadata meta;
        try (SSTableWriter w = SSTableWriter.create(fs, Path.of("/merge.sst"), options, stats, IoPurpose.MERGE)) {
            for (Map.Entry<byte[], Entry> e : m.entrySet()) {
                byte[] v = e.getValue().tombstone() ? new byte[0] : e.getValue().value();
                w.add(e.getKey(), e.getKey().length, v, v.length, e.getValue().tombstone());
            }
            meta = w.finish(1, 2);
        }
        assertEquals(meta.pageCount(), stats.snapshot().pagesWritten(IoPurpose.MERGE));
        assertEquals(meta.fileBytes(), stats.snapshot().bytesWritten(IoPurpose.MERGE));
        assertEquals(meta.fileBytes(), fs.size(Path.of("/merge.sst")));
    }

    private SSTableMetadata roundTrip(MemFileSystem mem, TreeMap<byte[], Entry> m, SSTableOptions options, long seed) throws IOException {
        return roundTrip(mem, Path.of("/"), m, options, seed);
    }

    static SSTableMetadata roundTrip(FileSystem fs, Path dir, TreeMap<byte[], Entry> m, SSTableOptions options, long seed)
            throws IOException {
        IoStatistics io = new IoStatistics();
        Path path = dir.resolve("t-" + seed + "-" + options.compression() + ".sst");
        SSTableMetadata written = SSTableFixture.write(fs, path, options, io, m);
        assertEquals(m.size(), written.entryCount());
        assertArrayEquals(m.firstKey(), written.firstKey());
        assertArrayEquals(m.lastKey(), written.lastKey());
        try (BufferCache cache = SSTableFixture.cache(2 << 20, io);
             SSTableReader r = SSTableReader.open(fs, path, cache, options.directIo(), IoPurpose.QUERY)) {
            assertEquals(written, r.metadata());
            assertEquals(100, r.metadata().minLsn());
            assertEquals(200, r.metadata().maxLsn());
            checkGets(r, m, new Random(seed));
            checkCursor(r, m, null);
            Random rnd = new Random(seed + 1);
            List<byte[]> keys = new ArrayList<>(m.keySet());
            for (int i = 0; i < 20; i++) {
                checkCursor(r, m, keys.get(rnd.nextInt(keys.size())));
                byte[] probe = new byte[rnd.nextInt(8)];
                rnd.nextBytes(probe);
                checkCursor(r, m, probe);
            }
            byte[] beyond = Arrays.copyOf(m.lastKey(), m.lastKey().length + 1);
            checkCursor(r, m, beyond);
            checkCursor(r, m, m.firstKey());
            assertEquals(0, cache.snapshot().pinnedFrames(), "pins leaked");
            return r.metadata();
        }
    }

    private static void checkGets(SSTableReader r, TreeMap<byte[], Entry> m, Random rnd) throws IOException {
        ValueHolder out = new ValueHolder();
        for (Map.Entry<byte[], Entry> e : m.entrySet()) {
            LookupResult res = r.get(e.getKey(), e.getKey().length, out, IoPurpose.QUERY);
            if (e.getValue().tombstone()) {
                assertEquals(LookupResult.DELETED, res);
            } else {
                assertEquals(LookupResult.FOUND, res);
                assertArrayEquals(e.getValue().value(), out.toArray());
                assertEquals(200, out.lsn());
            }
        }
        for (int i = 0; i < 2_000; i++) {
            byte[] k = new byte[rnd.nextInt(12)];
            rnd.nextBytes(k);
            if (!m.containsKey(k)) {
                assertEquals(LookupResult.ABSENT, r.get(k, k.length, out, IoPurpose.QUERY));
            }
            // a present key's neighbour: the same key plus a zero byte
            byte[] base = m.ceilingKey(k) == null ? m.firstKey() : m.ceilingKey(k);
            byte[] near = Arrays.copyOf(base, base.length + 1);
            if (!m.containsKey(near)) {
                assertEquals(LookupResult.ABSENT, r.get(near, near.length, out, IoPurpose.QUERY));
            }
        }
    }

    /** A forward cursor from {@code bound} (inclusive) and a reverse cursor below it (exclusive; it walks leaves backward). */
    private static void checkCursor(SSTableReader r, TreeMap<byte[], Entry> m, byte[] bound) throws IOException {
        checkCursor(r, bound == null ? m : m.tailMap(bound, true), bound, false);
        checkCursor(r, (bound == null ? m : m.headMap(bound, false)).descendingMap(), bound, true);
    }

    private static void checkCursor(SSTableReader r, NavigableMap<byte[], Entry> expected, byte[] bound, boolean descending)
            throws IOException {
        int boundLength = bound == null ? 0 : bound.length;
        try (EntryCursor c = descending ? r.reverseCursor(bound, boundLength, IoPurpose.QUERY) : r.cursor(bound, boundLength, IoPurpose.QUERY)) {
            for (Map.Entry<byte[], Entry> e : expected.entrySet()) {
                assertTrue(c.next(), "cursor ended early");
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                byte[] v = e.getValue().tombstone() ? new byte[0] : e.getValue().value();
                assertArrayEquals(v, Arrays.copyOf(c.value(), c.valueLength()));
                assertEquals(200, c.lsn());
            }
            assertFalse(c.next());
            assertFalse(c.next());
        }
    }
}
