package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link MemoryComponent#firstKey()} and {@link MemoryComponent#lastKey()} of every kind: the smallest
 * and largest key over all versions (tombstones included), the same as the first and last record of
 * {@link MemoryComponent#sealedRecords()}, and null while empty.
 */
class MemoryComponentKeyRangeTest {

    private static final int PAGE = 4096;

    private WriteMemoryPool pool;

    @BeforeEach
    void openPool() {
        pool = new WriteMemoryPool(new WriteMemoryPoolOptions("key-range-test", PAGE, 2048L * PAGE, 16L * PAGE));
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    static List<MemoryComponentSpec> specs() {
        return MemoryKinds.all();
    }

    @ParameterizedTest
    @MethodSource("specs")
    void emptyComponentHasNoRange(MemoryComponentSpec spec) {
        try (MemoryComponent c = spec.create(pool)) {
            assertNull(c.firstKey());
            assertNull(c.lastKey());
        }
    }

    /** After every put the range is the minimum and maximum of the keys put so far, in unsigned order. */
    @ParameterizedTest
    @MethodSource("specs")
    void rangeFollowsEveryPut(MemoryComponentSpec spec) {
        Random random = new Random(13 + spec.hashCode());
        for (int round = 0; round < 20; round++) {
            try (MemoryComponent c = spec.create(pool)) {
                byte[] min = null;
                byte[] max = null;
                int puts = 1 + random.nextInt(300);
                for (int i = 0; i < puts; i++) {
                    byte[] key = randomKey(random);
                    boolean tombstone = random.nextInt(5) == 0;
                    assertTrue(c.put(key, key.length, new byte[3], 3, tombstone, random.nextInt(1000)));
                    if (min == null || Arrays.compareUnsigned(key, min) < 0) {
                        min = key;
                    }
                    if (max == null || Arrays.compareUnsigned(key, max) > 0) {
                        max = key;
                    }
                    assertArrayEquals(min, c.firstKey(), spec + " first key after put " + i);
                    assertArrayEquals(max, c.lastKey(), spec + " last key after put " + i);
                }
                assertSealedRange(c);
            }
        }
    }

    /** Writers on two threads: the tracked range (hash kinds) must not lose a CAS race. */
    @ParameterizedTest
    @MethodSource("specs")
    void rangeAfterConcurrentPuts(MemoryComponentSpec spec) throws InterruptedException {
        try (MemoryComponent c = spec.create(pool)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                long seed = w;
                Thread t = new Thread(() -> {
                    Random random = new Random(seed);
                    try {
                        start.await();
                        for (int i = 0; i < 2000; i++) {
                            byte[] key = randomKey(random);
                            if (!c.put(key, key.length, new byte[8], 8, false, i)) {
                                throw new AssertionError("pool exhausted");
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                writers.add(t);
                t.start();
            }
            start.countDown();
            for (Thread t : writers) {
                t.join();
            }
            assertEquals(List.of(), failures);
            assertSealedRange(c);
        }
    }

    /** The range equals the first and last record a seal reads. */
    private static void assertSealedRange(MemoryComponent c) {
        byte[] first = null;
        byte[] last = null;
        try (RecordCursor r = c.sealedRecords()) {
            while (r.next()) {
                byte[] k = MemorySSTable.copyKey(r.keyAddress(), r.keyLength());
                if (first == null) {
                    first = k;
                }
                last = k;
            }
        }
        assertArrayEquals(first, c.firstKey());
        assertArrayEquals(last, c.lastKey());
    }

    /** Lengths 0..40 over a small alphabet, often sharing long prefixes, including 0x00 and 0xFF bytes. */
    private static byte[] randomKey(Random random) {
        byte[] key = new byte[random.nextInt(41)];
        byte[] alphabet = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
        int shared = random.nextInt(key.length + 1);
        for (int i = 0; i < key.length; i++) {
            key[i] = i < shared ? (byte) 'u' : alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }
}
