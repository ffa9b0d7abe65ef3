package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.sstable.SSTableFixture.Entry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SSTableReaderConcurrencyTest {

    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();

    @ParameterizedTest
    @EnumSource(Compression.class)
    void concurrentGetsAndCursorsThroughASmallCache(Compression compression) throws Exception {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(21), 20_000, 24, 100);
        Path path = Path.of("/cc.sst");
        SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE).withCompression(compression), io, m);
        List<byte[]> keys = new ArrayList<>(m.keySet());
        // 64 frames for a table of several hundred pages: constant eviction under concurrent pins.
        try (BufferCache cache = SSTableFixture.cache(64 * SSTableFixture.PAGE, io);
             SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    long seed = t;
                    futures.add(pool.submit(() -> {
                        Random rnd = new Random(seed);
                        ValueHolder out = new ValueHolder();
                        for (int i = 0; i < 20_000; i++) {
                            byte[] k = keys.get(rnd.nextInt(keys.size()));
                            Entry e = m.get(k);
                            LookupResult res = r.get(k, k.length, out, IoPurpose.QUERY);
                            assertEquals(e.tombstone() ? LookupResult.DELETED : LookupResult.FOUND, res);
                            if (!e.tombstone()) {
                                assertArrayEquals(e.value(), out.toArray());
                            }
                        }
                        byte[] from = keys.get(rnd.nextInt(keys.size()));
                        try (EntryCursor c = r.cursor(from, from.length, IoPurpose.QUERY)) {
                            for (byte[] expected : m.tailMap(from, true).keySet()) {
                                assertTrue(c.next());
                                assertArrayEquals(expected, java.util.Arrays.copyOf(c.key(), c.keyLength()));
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            assertEquals(0, cache.snapshot().pinnedFrames());
            assertTrue(cache.snapshot().evictions() > 0, "the cache was too large to exercise eviction");
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void warmGetsAllocateNothing(Compression compression) throws IOException {
        TreeMap<byte[], Entry> m = SSTableFixture.randomEntries(new Random(8), 5_000, 24, 100);
        Path path = Path.of("/alloc.sst");
        SSTableFixture.write(fs, path, SSTableOptions.defaults(SSTableFixture.PAGE).withCompression(compression), io, m);
        byte[][] keys = m.keySet().toArray(new byte[0][]);
        byte[][] absent = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            absent[i] = java.util.Arrays.copyOf(keys[i], keys[i].length + 1);
        }
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        try (BufferCache cache = SSTableFixture.cache(4 << 20, io); SSTableReader r = SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY)) {
            ValueHolder out = new ValueHolder();
            out.prepare(4096, 0);
            long sink = 0;
            for (int round = 0; round < 3; round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < keys.length; i++) {
                    sink += r.get(keys[i], keys[i].length, out, IoPurpose.QUERY).ordinal();
                    sink += r.get(absent[i], absent[i].length, out, IoPurpose.QUERY).ordinal();
                }
                long allocated = threads.getThreadAllocatedBytes(thread) - before;
                if (round == 2) {
                    assertTrue(allocated < 4096, "warm lookups allocated " + allocated + " bytes for " + 2 * keys.length + " gets");
                }
            }
            assertTrue(sink > 0);
        }
    }
}
