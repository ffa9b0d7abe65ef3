package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random puts, deletes, point reads and scans against a {@link TreeMap} model that keeps the whole
 * history (key to LSN to version), so reads at any older snapshot can be checked. Seeded: a failure
 * names its seed and operation number.
 */
class MemoryComponentModelTest {

    /** A version in the model: null value means tombstone. */
    private record Version(byte[] value) {
    }

    private static final int OPS = 15_000;

    static Stream<Arguments> cases() {
        return MemoryKinds.all().stream().flatMap(spec -> LongStream.of(1, 2, 3, 0xB0A7L).limit(spec == MemoryKinds.SKIP_LIST ? 4 : 2)
                .mapToObj(seed -> Arguments.of(spec, seed)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void matchesTreeMapModelAtEverySnapshot(MemoryComponentSpec spec, long seed) throws IOException {
        long reservedBefore = OffHeapMemory.reservedBytes();
        SplittableRandom random = new SplittableRandom(seed);
        NavigableMap<byte[], NavigableMap<Long, Version>> model = new TreeMap<>(Arrays::compareUnsigned);
        ValueHolder out = new ValueHolder();
        long lsn = 0;
        long payload = 0;
        try (WriteMemoryPool pool = new WriteMemoryPool(new WriteMemoryPoolOptions("model", 4096, 64L << 20, 1L << 20))) {
            try (MemoryComponent c = spec.create(pool)) {
                for (int op = 0; op < OPS; op++) {
                    String where = spec.kind() + " seed " + seed + " op " + op;
                    int kind = random.nextInt(100);
                    if (kind < 55) {
                        byte[] key = randomKey(random);
                        boolean tombstone = kind < 12;
                        byte[] value = tombstone ? new byte[0] : randomBytes(random, random.nextInt(120));
                        // Sometimes a larger value array than the value, to check lengths are honoured.
                        byte[] valueArray = Arrays.copyOf(value, value.length + random.nextInt(3));
                        lsn += 1 + random.nextInt(3);
                        assertTrue(c.put(key, key.length, valueArray, value.length, tombstone, lsn), where);
                        model.computeIfAbsent(key, k -> new TreeMap<>()).put(lsn, new Version(tombstone ? null : value));
                        payload += key.length + value.length;
                    } else if (kind < 85) {
                        byte[] key = random.nextInt(4) == 0 ? randomKey(random) : existingKey(random, model);
                        long snapshot = randomSnapshot(random, lsn);
                        LookupResult result = c.get(key, key.length, snapshot, out);
                        Version expected = visible(model.get(key), snapshot);
                        if (expected == null) {
                            assertEquals(LookupResult.ABSENT, result, where);
                        } else if (expected.value() == null) {
                            assertEquals(LookupResult.DELETED, result, where);
                        } else {
                            assertEquals(LookupResult.FOUND, result, where);
                            assertArrayEquals(expected.value(), out.toArray(), where);
                        }
                    } else {
                        byte[] bound = random.nextInt(5) == 0 ? null : randomKey(random);
                        long snapshot = randomSnapshot(random, lsn);
                        checkScan(c, model, bound, random.nextBoolean(), snapshot, random.nextInt(60), where);
                    }
                }
                checkScan(c, model, null, false, Long.MAX_VALUE, Integer.MAX_VALUE, "final flush cursor, seed " + seed);
                checkScan(c, model, null, true, Long.MAX_VALUE, Integer.MAX_VALUE, "final reverse cursor, seed " + seed);
                long versions = model.values().stream().mapToLong(Map::size).sum();
                assertEquals(versions, c.entryCount());
                assertEquals(payload, c.payloadBytes());
                assertEquals(pool.usedBytes(), c.bytesUsed());
                assertEquals(model.values().stream().mapToLong(NavigableMap::firstKey).min().orElseThrow(), c.minLsn());
                assertEquals(lsn, c.maxLsn());
            }
            assertEquals(0, pool.usedBytes());
        }
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
    }

    /**
     * A forward cursor from {@code bound} (inclusive) or a reverse cursor below it (exclusive), null
     * for no bound, against the model's versions visible at {@code snapshot}, for {@code limit} keys.
     */
    private static void checkScan(MemoryComponent c, NavigableMap<byte[], NavigableMap<Long, Version>> model,
                                  byte[] bound, boolean descending, long snapshot, int limit, String where) throws IOException {
        Map<byte[], NavigableMap<Long, Version>> range = descending
                ? (bound == null ? model : model.headMap(bound, false)).descendingMap()
                : bound == null ? model : model.tailMap(bound, true);
        int boundLength = bound == null ? 0 : bound.length;
        where = where + (descending ? " reverse" : " forward") + " scan";
        try (EntryCursor cursor = descending ? c.reverseCursor(bound, boundLength, snapshot) : c.cursor(bound, boundLength, snapshot)) {
            int seen = 0;
            for (Map.Entry<byte[], NavigableMap<Long, Version>> e : range.entrySet()) {
                if (seen == limit) {
                    return;
                }
                Map.Entry<Long, Version> version = e.getValue().floorEntry(snapshot);
                if (version == null) {
                    continue;
                }
                assertTrue(cursor.next(), where + ": missing key " + Arrays.toString(e.getKey()));
                assertArrayEquals(e.getKey(), Arrays.copyOf(cursor.key(), cursor.keyLength()), where);
                assertEquals(version.getKey(), cursor.lsn(), where);
                assertEquals(version.getValue().value() == null, cursor.isTombstone(), where);
                if (version.getValue().value() != null) {
                    assertArrayEquals(version.getValue().value(), Arrays.copyOf(cursor.value(), cursor.valueLength()), where);
                } else {
                    assertEquals(0, cursor.valueLength(), where);
                }
                seen++;
            }
            assertFalse(cursor.next(), where + ": cursor has extra entries");
        }
    }

    private static Version visible(NavigableMap<Long, Version> history, long snapshot) {
        if (history == null) {
            return null;
        }
        Map.Entry<Long, Version> e = history.floorEntry(snapshot);
        return e == null ? null : e.getValue();
    }

    private static long randomSnapshot(SplittableRandom random, long lsn) {
        return switch (random.nextInt(3)) {
            case 0 -> Long.MAX_VALUE;
            case 1 -> lsn;
            default -> random.nextLong(lsn + 2) - 1; // -1 .. lsn: older snapshots, before everything included
        };
    }

    /** Keys over a small alphabet that includes 0x00, 0x7F, 0x80 and 0xFF, with many shared prefixes. */
    private static byte[] randomKey(SplittableRandom random) {
        byte[] alphabet = {0x00, 0x01, 0x41, 0x7F, (byte) 0x80, (byte) 0xFF};
        int length = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(4);
        byte[] key = new byte[length];
        for (int i = 0; i < length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }

    private static byte[] existingKey(SplittableRandom random, NavigableMap<byte[], ?> model) {
        if (model.isEmpty()) {
            return randomKey(random);
        }
        byte[] probe = randomKey(random);
        byte[] key = model.ceilingKey(probe);
        return key != null ? key : model.firstKey();
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }
}
