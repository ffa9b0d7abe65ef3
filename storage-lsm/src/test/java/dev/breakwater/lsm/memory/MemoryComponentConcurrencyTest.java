package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writers on several threads insert disjoint and overlapping keys with globally increasing LSNs while
 * readers scan and look up; afterwards every version must be there (no lost updates), each key's
 * newest version must be its largest LSN, and reads at older snapshots must match the write log.
 */
class MemoryComponentConcurrencyTest {

    private static final int WRITERS = 4;
    private static final int READERS = 2;
    private static final int PUTS_PER_WRITER = 40_000;
    private static final int SHARED_KEYS = 2_000;

    /** One logged write: key id and LSN (the value encodes both, so readers can check consistency). */
    private record Write(int keyId, long lsn, boolean tombstone) {
    }

    private static int keyId(int writer, int i, SplittableRandom random) {
        // Half the writes hit keys shared by all writers, half hit keys only this writer uses.
        return random.nextBoolean() ? random.nextInt(SHARED_KEYS) : SHARED_KEYS + writer * PUTS_PER_WRITER + i;
    }

    private static byte[] key(int keyId) {
        // Big-endian with a varying-length suffix, so keys are not all the same length.
        byte[] key = new byte[4 + keyId % 5];
        ByteBuffer.wrap(key).putInt(keyId);
        return key;
    }

    private static byte[] value(int keyId, long lsn) {
        return ByteBuffer.allocate(12 + (int) (lsn % 17)).putInt(keyId).putLong(lsn).array();
    }

    @ParameterizedTest
    @MethodSource("dev.breakwater.lsm.memory.MemoryKinds#all")
    void concurrentWritersLoseNothingAndReadersSeeSortedConsistentEntries(MemoryComponentSpec spec) throws Exception {
        // The skip-list gets the full run; the other kinds a shorter one (CI time).
        int puts = spec == MemoryKinds.SKIP_LIST ? PUTS_PER_WRITER
                : spec == MemoryKinds.HASH_LINKED_LIST ? PUTS_PER_WRITER / 32 : PUTS_PER_WRITER / 8; // O(n) buckets
        long reservedBefore = OffHeapMemory.reservedBytes();
        AtomicLong lsns = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<List<Write>> logs = new ArrayList<>();
        try (WriteMemoryPool pool = new WriteMemoryPool(new WriteMemoryPoolOptions("concurrency", 4096, 256L << 20, 1L << 20));
             MemoryComponent c = spec.create(pool)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                List<Write> log = new ArrayList<>(puts);
                logs.add(log);
                writers.add(new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(writer);
                    try {
                        start.await();
                        for (int i = 0; i < puts; i++) {
                            int id = keyId(writer, i, random);
                            byte[] key = key(id);
                            boolean tombstone = random.nextInt(10) == 0;
                            long lsn = lsns.incrementAndGet();
                            byte[] value = value(id, lsn);
                            if (!c.put(key, key.length, value, value.length, tombstone, lsn)) {
                                throw new AssertionError("pool exhausted unexpectedly");
                            }
                            log.add(new Write(id, lsn, tombstone));
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "writer-" + w));
            }
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                readers.add(new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(100 + reader);
                    ValueHolder out = new ValueHolder();
                    try {
                        start.await();
                        while (writing.get()) {
                            if (reader == 0) {
                                scanAndCheck(c, Long.MAX_VALUE);
                            } else {
                                for (int i = 0; i < 1000; i++) {
                                    int id = random.nextInt(SHARED_KEYS);
                                    byte[] key = key(id);
                                    LookupResult result = c.get(key, key.length, Long.MAX_VALUE, out);
                                    if (result == LookupResult.FOUND) {
                                        ByteBuffer v = ByteBuffer.wrap(out.bytes(), 0, out.length());
                                        assertEquals(id, v.getInt());
                                        assertEquals(out.lsn(), v.getLong(), "value belongs to the version found");
                                    }
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "reader-" + r));
            }
            writers.forEach(Thread::start);
            readers.forEach(Thread::start);
            start.countDown();
            for (Thread t : writers) {
                t.join();
            }
            writing.set(false);
            for (Thread t : readers) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }

            // No lost updates: every version is there, and each key's newest is its largest LSN.
            NavigableMap<Integer, NavigableMap<Long, Boolean>> history = new TreeMap<>();
            for (List<Write> log : logs) {
                for (Write w : log) {
                    history.computeIfAbsent(w.keyId(), k -> new TreeMap<>()).put(w.lsn(), w.tombstone());
                }
            }
            assertEquals((long) WRITERS * puts, c.entryCount());
            assertEquals(1, c.minLsn());
            assertEquals(lsns.get(), c.maxLsn());
            ValueHolder out = new ValueHolder();
            for (List<Write> log : logs) {
                for (Write w : log) {
                    // Every version is linked: read at its own LSN, it is the one found.
                    byte[] key = key(w.keyId());
                    LookupResult result = c.get(key, key.length, w.lsn(), out);
                    assertEquals(w.tombstone() ? LookupResult.DELETED : LookupResult.FOUND, result, "version " + w);
                    assertEquals(w.lsn(), out.lsn(), "version " + w);
                }
            }
            SplittableRandom random = new SplittableRandom(42);
            for (Map.Entry<Integer, NavigableMap<Long, Boolean>> e : history.entrySet()) {
                byte[] key = key(e.getKey());
                checkGet(c, key, Long.MAX_VALUE, e.getValue(), out);
                checkGet(c, key, random.nextLong(lsns.get() + 1), e.getValue(), out);
            }
            assertEquals(history.size(), scanAndCheck(c, Long.MAX_VALUE));

            // A scan at an older snapshot yields exactly the keys written at or before it.
            long snapshot = lsns.get() / 2;
            long expectedKeys = history.values().stream().filter(h -> h.firstKey() <= snapshot).count();
            assertEquals(expectedKeys, scanAndCheck(c, snapshot));
        }
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
    }

    private static void checkGet(MemoryComponent c, byte[] key, long snapshot, NavigableMap<Long, Boolean> versions, ValueHolder out) {
        Map.Entry<Long, Boolean> expected = versions.floorEntry(snapshot);
        LookupResult result = c.get(key, key.length, snapshot, out);
        if (expected == null) {
            assertEquals(LookupResult.ABSENT, result);
            return;
        }
        assertEquals(expected.getValue() ? LookupResult.DELETED : LookupResult.FOUND, result, "key " + Arrays.toString(key));
        assertEquals(expected.getKey(), out.lsn(), "newest version at the snapshot");
    }

    /** Scans at {@code snapshot}, checking strictly increasing keys and value/LSN consistency; returns the key count. */
    private static long scanAndCheck(MemoryComponent c, long snapshot) throws Exception {
        long count = 0;
        byte[] previous = null;
        try (EntryCursor cursor = c.cursor(null, 0, snapshot)) {
            while (cursor.next()) {
                byte[] key = Arrays.copyOf(cursor.key(), cursor.keyLength());
                if (previous != null) {
                    assertTrue(Arrays.compareUnsigned(previous, key) < 0, "keys strictly increase");
                }
                assertTrue(cursor.lsn() <= snapshot);
                if (!cursor.isTombstone()) {
                    ByteBuffer v = ByteBuffer.wrap(cursor.value(), 0, cursor.valueLength());
                    assertEquals(ByteBuffer.wrap(key).getInt(), v.getInt());
                    assertEquals(cursor.lsn(), v.getLong());
                } else {
                    assertEquals(0, cursor.valueLength());
                }
                previous = key;
                count++;
            }
            assertFalse(cursor.next());
        }
        return count;
    }

    @ParameterizedTest
    @MethodSource("dev.breakwater.lsm.memory.MemoryKinds#all")
    void concurrentWritersAgainstAnExhaustedPoolStopCleanly(MemoryComponentSpec spec) throws Exception {
        long reservedBefore = OffHeapMemory.reservedBytes();
        AtomicLong lsns = new AtomicLong();
        AtomicLong inserted = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (WriteMemoryPool pool = new WriteMemoryPool(new WriteMemoryPoolOptions("exhaust", 4096, 16L * 4096, 4L * 4096));
             MemoryComponent c = spec.create(pool)) {
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(new Thread(() -> {
                    try {
                        int refused = 0;
                        for (int i = 0; refused < 1000; i++) {
                            int id = writer * 1_000_000 + i;
                            byte[] key = key(id);
                            long lsn = lsns.incrementAndGet();
                            byte[] value = value(id, lsn);
                            if (c.put(key, key.length, value, value.length, false, lsn)) {
                                inserted.incrementAndGet();
                            } else {
                                refused++;
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (Thread t : writers) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(16L * 4096, pool.usedBytes());
            assertEquals(pool.usedBytes(), c.bytesUsed());
            assertEquals(inserted.get(), c.entryCount());
            assertEquals(inserted.get(), scanAndCheck(c, Long.MAX_VALUE));
        }
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
    }
}
