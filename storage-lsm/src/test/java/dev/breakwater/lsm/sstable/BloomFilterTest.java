package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheSnapshot;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BloomFilterTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();

    /** Keys "k" + 8-byte big-endian number: even numbers are present, odd absent, all within the key range. */
    private static byte[] key(long n) {
        byte[] k = new byte[9];
        k[0] = 'k';
        for (int i = 0; i < 8; i++) {
            k[1 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return k;
    }

    private TreeMap<byte[], Entry> evenKeys(int n) {
        TreeMap<byte[], Entry> m = SSTableFixture.model();
        for (int i = 0; i < n; i++) {
            m.put(key(2L * i), new Entry(new byte[] {(byte) i}));
        }
        return m;
    }

    @Test
    void noFalseNegativesAndAboutOnePercentFalsePositives() throws IOException {
        TreeMap<byte[], Entry> m = evenKeys(50_000);
        Path path = Path.of("/bloom.sst");
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE), io, m);
        assertEquals(7, meta.bloomHashCount());
        try (BufferCache cache = SSTableFixture.cache(4 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            for (byte[] k : m.keySet()) {
                assertTrue(r.mayContain(k, k.length, IoPurpose.QUERY), "false negative");
            }
            int falsePositives = 0;
            int probes = 100_000;
            for (int i = 0; i < probes; i++) {
                byte[] k = key(2L * i + 1);
                if (r.mayContain(k, k.length, IoPurpose.QUERY)) {
                    falsePositives++;
                }
            }
            double fpr = (double) falsePositives / probes;
            assertTrue(fpr < 0.02, "false-positive rate " + fpr);
            assertTrue(fpr > 0.001, "implausibly low false-positive rate " + fpr + ": is the filter probing?");
            assertEquals(m.size() + probes, r.statistics().bloomProbes());
            assertEquals(probes - falsePositives, r.statistics().bloomNegatives());
        }
    }

    @Test
    void fewerBitsPerKeyMeansMoreFalsePositives() throws IOException {
        TreeMap<byte[], Entry> m = evenKeys(20_000);
        Path path = Path.of("/bloom4.sst");
        SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE).withBloomBitsPerKey(4), io, m);
        try (BufferCache cache = SSTableFixture.cache(4 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            int fp = 0;
            for (int i = 0; i < 20_000; i++) {
                byte[] k = key(2L * i + 1);
                fp += r.mayContain(k, k.length, IoPurpose.QUERY) ? 1 : 0;
            }
            double fpr = fp / 20_000.0;
            assertTrue(fpr > 0.05 && fpr < 0.25, "4 bits/key false-positive rate " + fpr);
        }
    }

    @Test
    void noFilterAnswersMaybeAndLookupsStillWork() throws IOException {
        TreeMap<byte[], Entry> m = evenKeys(1_000);
        Path path = Path.of("/nobloom.sst");
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE).withBloomBitsPerKey(0), io, m);
        assertEquals(0, meta.bloomPageCount());
        try (BufferCache cache = SSTableFixture.cache(1 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            byte[] absent = key(7);
            assertTrue(r.mayContain(absent, absent.length, IoPurpose.QUERY));
            assertEquals(LookupResult.ABSENT, r.get(absent, absent.length, new ValueHolder(), IoPurpose.QUERY));
            assertEquals(LookupResult.FOUND, r.get(key(8), 9, new ValueHolder(), IoPurpose.QUERY));
        }
    }

    @Test
    void lookupExcludedByTheFilterPinsOnlyOneBloomPage() throws IOException {
        TreeMap<byte[], Entry> m = evenKeys(50_000);
        Path path = Path.of("/pins.sst");
        SSTableMetadata meta = SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE), io, m);
        assertTrue(meta.indexHeight() >= 1);
        try (BufferCache cache = SSTableFixture.cache(4 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            ValueHolder out = new ValueHolder();
            int checked = 0;
            for (int i = 0; checked < 200; i++) {
                byte[] k = key(2L * i + 1);
                if (r.mayContain(k, k.length, IoPurpose.QUERY)) {
                    continue;
                }
                BufferCacheSnapshot before = cache.snapshot();
                long ioBefore = io.snapshot().pagesRead(IoPurpose.QUERY);
                assertEquals(LookupResult.ABSENT, r.get(k, k.length, out, IoPurpose.QUERY));
                BufferCacheSnapshot after = cache.snapshot();
                assertEquals(1, after.pins(IoPurpose.QUERY) - before.pins(IoPurpose.QUERY), "only the Bloom page is pinned");
                assertEquals(0, after.misses(IoPurpose.QUERY) - before.misses(IoPurpose.QUERY), "the Bloom page was cached by mayContain");
                assertEquals(ioBefore, io.snapshot().pagesRead(IoPurpose.QUERY), "no data page read");
                checked++;
            }
            // A present key pins the Bloom page, one page per index level and the leaf.
            BufferCacheSnapshot before = cache.snapshot();
            assertEquals(LookupResult.FOUND, r.get(key(0), 9, out, IoPurpose.QUERY));
            assertEquals(2 + meta.indexHeight(), cache.snapshot().pins(IoPurpose.QUERY) - before.pins(IoPurpose.QUERY));
            // A key outside the key range pins nothing.
            before = cache.snapshot();
            byte[] below = {'a'};
            assertEquals(LookupResult.ABSENT, r.get(below, 1, out, IoPurpose.QUERY));
            assertEquals(0, cache.snapshot().pins(IoPurpose.QUERY) - before.pins(IoPurpose.QUERY));
        }
    }

    @Test
    void falsePositivesAreCountedByLookups() throws IOException {
        TreeMap<byte[], Entry> m = evenKeys(10_000);
        Path path = Path.of("/fp.sst");
        SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE), io, m);
        try (BufferCache cache = SSTableFixture.cache(4 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            ValueHolder out = new ValueHolder();
            long maybes = 0;
            for (int i = 0; i < 10_000; i++) {
                byte[] k = key(2L * i + 1);
                maybes += r.mayContain(k, k.length, IoPurpose.QUERY) ? 1 : 0;
                assertEquals(LookupResult.ABSENT, r.get(k, k.length, out, IoPurpose.QUERY));
            }
            assertTrue(maybes > 0);
            assertEquals(maybes, r.statistics().bloomFalsePositives());
        }
    }

    @Test
    void hashSpreadsSimilarKeys() {
        // Keys differing in one bit must land in many different blocks.
        java.util.HashSet<Integer> blocks = new java.util.HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            byte[] k = key(i);
            blocks.add(BloomFilterBuilder.blockOf(KeyHash.hash(k, 0, k.length), 1_000));
        }
        assertTrue(blocks.size() > 550, "only " + blocks.size() + " distinct blocks of 1000");
    }
}
