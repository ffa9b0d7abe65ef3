package dev.breakwater.lsm.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.ThreadMXBean;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.List;

class MemoryComponentTest {

    private static final int PAGE = 4096;

    private long reservedBefore;
    private WriteMemoryPool pool;

    @BeforeEach
    void openPool() {
        reservedBefore = OffHeapMemory.reservedBytes();
        pool = new WriteMemoryPool(new WriteMemoryPoolOptions("component-test", PAGE, 256L * PAGE, 16L * PAGE));
    }

    @AfterEach
    void closePool() {
        pool.close(); // throws if a component leaked a page
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
    }

    static List<MemoryComponentSpec> specs() {
        return MemoryKinds.all();
    }

    /**
     * The skip-list holds exactly {@code pages} data pages; the other kinds hold those plus their own
     * pages (index chunks, a bucket array, bucket heads), and every one of them is accounted.
     */
    private void assertDataPages(MemoryComponentSpec spec, MemoryComponent c, long pages) {
        assertEquals(pool.usedBytes(), c.bytesUsed(), "accounted exactly");
        if (spec == MemoryKinds.SKIP_LIST) {
            assertEquals(pages * PAGE, c.bytesUsed());
        } else {
            assertTrue(c.bytesUsed() > pages * PAGE, spec + " holds its own pages beyond the data: " + c.bytesUsed());
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static boolean put(MemoryComponent c, String key, String value, long lsn) {
        byte[] k = b(key);
        byte[] v = value == null ? new byte[0] : b(value);
        return c.put(k, k.length, v, v.length, value == null, lsn);
    }

    private static String get(MemoryComponent c, String key, long snapshot) {
        ValueHolder out = new ValueHolder();
        byte[] k = b(key);
        LookupResult r = c.get(k, k.length, snapshot, out);
        return switch (r) {
            case FOUND -> new String(out.bytes(), 0, out.length(), UTF_8);
            case DELETED -> "<deleted@" + out.lsn() + ">";
            case ABSENT -> null;
        };
    }

    private static String scan(EntryCursor cursor) throws IOException {
        StringBuilder s = new StringBuilder();
        try (cursor) {
            while (cursor.next()) {
                s.append(new String(cursor.key(), 0, cursor.keyLength(), UTF_8)).append('=');
                s.append(cursor.isTombstone() ? "X" : new String(cursor.value(), 0, cursor.valueLength(), UTF_8));
                s.append('@').append(cursor.lsn()).append(' ');
            }
            assertFalse(cursor.next(), "stays exhausted");
        }
        return s.toString().trim();
    }

    @ParameterizedTest
    @MethodSource("specs")
    void emptyComponentHoldsNoMemoryAndFindsNothing(MemoryComponentSpec spec) throws IOException {
        try (MemoryComponent c = spec.create(pool)) {
            assertTrue(c.isEmpty());
            assertEquals(0, c.bytesUsed());
            assertEquals(0, pool.usedBytes());
            assertEquals(Long.MAX_VALUE, c.minLsn());
            assertEquals(Long.MIN_VALUE, c.maxLsn());
            assertEquals(null, get(c, "a", Long.MAX_VALUE));
            assertEquals("", scan(c.flushCursor()));
            assertEquals("", scan(c.cursor(b("a"), 1, Long.MAX_VALUE)));
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void versionsAreReadAtTheirSnapshotsAndTombstonesAreReported(MemoryComponentSpec spec) throws IOException {
        try (MemoryComponent c = spec.create(pool)) {
            assertTrue(put(c, "b", "b1", 10));
            assertTrue(put(c, "a", "a1", 11));
            assertTrue(put(c, "b", "b2", 12));
            assertTrue(put(c, "c", "c1", 13));
            assertTrue(put(c, "b", null, 14));
            assertTrue(put(c, "ab", "ab1", 15));

            assertEquals(null, get(c, "b", 9));
            assertEquals("b1", get(c, "b", 10));
            assertEquals("b1", get(c, "b", 11));
            assertEquals("b2", get(c, "b", 13));
            assertEquals("<deleted@14>", get(c, "b", 14));
            assertEquals("<deleted@14>", get(c, "b", Long.MAX_VALUE));
            assertEquals(null, get(c, "bb", Long.MAX_VALUE));
            assertEquals(null, get(c, "", Long.MAX_VALUE));

            assertEquals("a=a1@11 ab=ab1@15 b=X@14 c=c1@13", scan(c.flushCursor()));
            assertEquals("a=a1@11 b=b2@12 c=c1@13", scan(c.cursor(null, 0, 13)));
            assertEquals("b=b1@10", scan(c.cursor(null, 0, 10)));
            assertEquals("", scan(c.cursor(null, 0, 9)));
            assertEquals("ab=ab1@15 b=X@14 c=c1@13", scan(c.cursor(b("aa"), 2, Long.MAX_VALUE)));
            assertEquals("b=b2@12 c=c1@13", scan(c.cursor(b("b"), 1, 13)));
            assertEquals("c=c1@13", scan(c.cursor(b("b\0"), 2, 13)));
            assertEquals("", scan(c.cursor(b("d"), 1, Long.MAX_VALUE)));

            assertEquals(6, c.entryCount());
            assertEquals(10, c.minLsn());
            assertEquals(15, c.maxLsn());
            assertEquals(1 + 2 + 1 + 2 + 1 + 2 + 1 + 2 + 1 + 0 + 2 + 3, c.payloadBytes());
            assertDataPages(spec, c, 1);
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void keysCompareAsUnsignedBytesAndPrefixesSortFirst(MemoryComponentSpec spec) throws IOException {
        try (MemoryComponent c = spec.create(pool)) {
            byte[][] keys = {
                {(byte) 0xFF}, {0x7F}, {}, {0x00}, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09},
                {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08}, {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, (byte) 0x80},
                {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 1}, {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0},
            };
            long lsn = 1;
            for (byte[] k : keys) {
                assertTrue(c.put(k, k.length, k, k.length, false, lsn++));
            }
            byte[][] sorted = keys.clone();
            Arrays.sort(sorted, Arrays::compareUnsigned);
            try (EntryCursor cursor = c.flushCursor()) {
                for (byte[] expected : sorted) {
                    assertTrue(cursor.next());
                    assertArrayEquals(expected, Arrays.copyOf(cursor.key(), cursor.keyLength()));
                    assertArrayEquals(expected, Arrays.copyOf(cursor.value(), cursor.valueLength()));
                }
                assertFalse(cursor.next());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void sameKeyAndLsnWrittenTwiceTheLaterWins(MemoryComponentSpec spec) {
        try (MemoryComponent c = spec.create(pool)) {
            assertTrue(put(c, "k", "first", 7));
            assertTrue(put(c, "k", "second", 7));
            assertEquals("second", get(c, "k", 7));
            assertEquals(2, c.entryCount());
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void oversizeRecordIsRejectedNamingSizeAndLimit(MemoryComponentSpec spec) {
        try (MemoryComponent c = spec.create(pool)) {
            int limit = c.maxRecordLength();
            assertEquals(PAGE - SkipListNodeDescriptor.NEXT_OFFSET - 8 * SkipListNodeDescriptor.MAX_HEIGHT, limit);
            byte[] key = new byte[100];
            byte[] big = new byte[limit];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.put(key, key.length, big, limit - 99, false, 1));
            assertTrue(e.getMessage().contains("record of " + (limit + 1) + " bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("limit of " + limit + " bytes"), e.getMessage());
            assertEquals(0, c.entryCount());
            // The largest record fits at any height, several times over.
            for (int i = 0; i < 20; i++) {
                key[0] = (byte) i;
                assertTrue(c.put(key, key.length, big, limit - 100, false, i));
            }
            assertDataPages(spec, c, 20); // one page per maximal record
            assertThrows(IllegalArgumentException.class, () -> c.put(key, 1, big, 1, false, -1));
        }
    }

    @ParameterizedTest
    @MethodSource("specs")
    void exhaustedPoolMakesPutReturnFalseWithoutInsertingAndRetryWorksAfterGrowth(MemoryComponentSpec spec) {
        assumeTrue(spec.vectorReserve() == 0, "a pre-sized vector's reserve alone exceeds two pages");
        pool.setCapacity(2L * PAGE);
        try (MemoryComponent c = spec.create(pool)) {
            byte[] value = new byte[200];
            int inserted = 0;
            byte[] key = new byte[4];
            while (true) {
                key[0] = (byte) (inserted >> 8);
                key[1] = (byte) inserted;
                if (!c.put(key, key.length, value, value.length, false, inserted)) {
                    break;
                }
                inserted++;
            }
            assertTrue(inserted > 10, "two pages hold some records: " + inserted);
            assertEquals(inserted, c.entryCount(), "a failed put inserts nothing");
            assertEquals(2L * PAGE, c.bytesUsed());
            assertEquals(2L * PAGE, pool.usedBytes());
            // A retry may fit where the failed put did not (a skip-list node's height, hence its size,
            // is drawn per put), but the pool stays full: retries soon fail again, and each inserts
            // only when it returns true.
            int retries = 0;
            while (retries < 64 && c.put(key, key.length, value, value.length, false, inserted)) {
                retries++;
                inserted++;
                key[0] = (byte) (inserted >> 8);
                key[1] = (byte) inserted;
            }
            assertTrue(retries < 64, "still exhausted: " + retries + " retries fitted");
            assertEquals(inserted, c.entryCount(), "only successful retries inserted");
            ValueHolder out = new ValueHolder();
            key[0] = 0;
            key[1] = 0;
            assertEquals(LookupResult.FOUND, c.get(key, key.length, Long.MAX_VALUE, out));

            pool.setCapacity(3L * PAGE); // e.g. another tree flushed
            key[0] = (byte) (inserted >> 8);
            key[1] = (byte) inserted;
            assertTrue(c.put(key, key.length, value, value.length, false, inserted));
            assertEquals(3L * PAGE, c.bytesUsed());
        }
        assertEquals(0, pool.usedBytes(), "close returned every page");
    }

    @ParameterizedTest
    @MethodSource("specs")
    void closeReturnsAllPagesAndIsIdempotent(MemoryComponentSpec spec) {
        MemoryComponent a = spec.create(pool);
        MemoryComponent b = spec.create(pool);
        byte[] value = new byte[500];
        for (int i = 0; i < 100; i++) {
            byte[] key = b("key" + i);
            assertTrue(a.put(key, key.length, value, value.length, false, i));
            assertTrue(b.put(key, key.length, value, 10, false, i));
        }
        assertEquals(a.bytesUsed() + b.bytesUsed(), pool.usedBytes(), "components account exactly what the pool handed out");
        assertEquals(0, a.bytesUsed() % PAGE);
        assertTrue(a.bytesUsed() >= a.payloadBytes());
        a.close();
        a.close();
        assertTrue(a.isClosed());
        assertEquals(0, a.bytesUsed());
        assertEquals(b.bytesUsed(), pool.usedBytes());
        assertThrows(IllegalStateException.class, () -> put(a, "x", "y", 1));
        b.close();
        assertEquals(0, pool.usedBytes());
    }

    @ParameterizedTest
    @MethodSource("specs")
    void putAndGetAllocateNothingOnTheHeapOnceWarm(MemoryComponentSpec spec) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (WriteMemoryPool big = new WriteMemoryPool(WriteMemoryPoolOptions.of(64L << 20).withName("alloc-test"));
             MemoryComponent c = spec.create(big)) {
            byte[] key = new byte[16];
            byte[] value = new byte[40];
            ValueHolder out = new ValueHolder();
            long lsn = 0;
            for (int round = 0; round < 3; round++) {
                long pagesBefore = c.bytesUsed() / big.pageSize();
                long before = threads.getCurrentThreadAllocatedBytes();
                // The vector re-sorts on every get after an out-of-order put: fewer rounds keep it quick.
                int ops = spec.kind() == MemoryComponentKind.VECTOR ? 2_000 : 20_000;
                for (int i = 0; i < ops; i++) {
                    key[1] = (byte) i;
                    key[0] = (byte) (i >> 8);
                    c.put(key, key.length, value, value.length, (i & 7) == 0, lsn++);
                    c.get(key, key.length, Long.MAX_VALUE, out);
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                long pages = c.bytesUsed() / big.pageSize() - pagesBefore;
                if (round == 2) {
                    // Only page changes allocate (a slab per page, the page list and the pool's
                    // bookkeeping growing): here ~1 page per 600 puts, never per record.
                    assertTrue(allocated < 1024 * (pages + 8), spec.kind() + ": allocated " + allocated + " bytes for " + ops + " puts and gets over " + pages + " pages");
                }
            }
        }
    }

    /**
     * A hash kind whose bucket array does not fit keeps the pages it drew and continues from them on
     * the next try: it never holds more than one array, so memory freed elsewhere in between is enough.
     */
    @org.junit.jupiter.api.Test
    void aBucketArrayDrawnPartlyIsCompletedNotDrawnAgain() {
        int slotsPerPage = PAGE / 8;
        try (MemoryComponent c = new HashMemoryComponent(pool, 4, 3 * slotsPerPage, true)) { // three pages of array
            pool.setCapacity(2L * PAGE);
            byte[] key = b("key1");
            assertFalse(c.put(key, key.length, key, key.length, false, 1));
            assertFalse(c.put(key, key.length, key, key.length, false, 1), "still short");
            assertEquals(2L * PAGE, c.bytesUsed(), "two of the three array pages, held and accounted");
            assertTrue(c.isEmpty());
            pool.setCapacity(4L * PAGE); // e.g. another tree flushed: one more array page and one for the entry
            assertTrue(c.put(key, key.length, key, key.length, false, 1));
            assertEquals(4L * PAGE, c.bytesUsed());
            assertEquals("key1", get(c, "key1", 1));
        }
        assertEquals(0, pool.usedBytes());
    }
}
