package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Shared helpers: a model of entries (a TreeMap in unsigned key order) and writing it out. */
final class SSTableFixture {

    static final int PAGE = 4096;

    /** A model entry: value, or null for a tombstone. */
    record Entry(byte[] value) {
        boolean tombstone() {
            return value == null;
        }
    }

    private SSTableFixture() {
    }

    static TreeMap<byte[], Entry> model() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /** Looks {@code key} up in {@code r} and checks the answer against the model's {@code expected}. */
    static void assertGet(SSTableReader r, byte[] key, Entry expected, ValueHolder out) throws IOException {
        LookupResult result = r.get(key, key.length, out, IoPurpose.QUERY);
        if (expected.tombstone()) {
            assertEquals(LookupResult.DELETED, result);
        } else {
            assertEquals(LookupResult.FOUND, result);
            assertArrayEquals(expected.value(), out.toArray());
        }
    }

    static BufferCache cache(long bytes, IoStatistics io) {
        return new BufferCache(BufferCacheOptions.of(PAGE, bytes).withChunkBytes(64 * PAGE), io);
    }

    /** Random entries: key lengths 0..maxKey, values 0..maxValue bytes, ~10% tombstones, ~5% empty values. */
    static TreeMap<byte[], Entry> randomEntries(Random rnd, int n, int maxKey, int maxValue) {
        TreeMap<byte[], Entry> m = model();
        while (m.size() < n) {
            byte[] k = new byte[rnd.nextInt(maxKey + 1)];
            rnd.nextBytes(k);
            int r = rnd.nextInt(100);
            byte[] v = r < 10 ? null : r < 15 ? new byte[0] : compressibleValue(rnd, rnd.nextInt(maxValue + 1));
            m.put(k, new Entry(v));
        }
        return m;
    }

    /** A value of a random 8-letter phrase repeated, with random letters mixed in: LZ4 finds matches. */
    static byte[] compressibleValue(Random rnd, int length) {
        byte[] phrase = new byte[8];
        for (int i = 0; i < phrase.length; i++) {
            phrase[i] = (byte) ('a' + rnd.nextInt(26));
        }
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = rnd.nextInt(16) == 0 ? (byte) ('a' + rnd.nextInt(26)) : phrase[i % phrase.length];
        }
        return v;
    }

    static SSTableMetadata write(FileSystem fs, Path path, SSTableOptions options, IoStatistics io,
                                 Map<byte[], Entry> entries) throws IOException {
        try (SSTableWriter w = SSTableWriter.create(fs, path, options, io, IoPurpose.FLUSH)) {
            for (Map.Entry<byte[], Entry> e : entries.entrySet()) {
                byte[] v = e.getValue().tombstone() ? new byte[0] : e.getValue().value();
                w.add(e.getKey(), e.getKey().length, v, v.length, e.getValue().tombstone());
            }
            return w.finish(100, 200);
        }
    }
}
