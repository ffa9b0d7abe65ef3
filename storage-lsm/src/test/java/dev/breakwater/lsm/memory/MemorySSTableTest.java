package dev.breakwater.lsm.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.MemorySSTable.BuildResult;
import dev.breakwater.lsm.memory.MemorySSTable.BuildStatus;
import dev.breakwater.lsm.memory.SortedEntries.Version;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MemorySSTableTest {

    private static final int PAGE = 4096;
    private static final double BITS = 10;

    private long reservedBefore;
    private WriteMemoryPool pool;
    private final List<MemorySSTable> open = new ArrayList<>();

    @BeforeEach
    void openPool() {
        reservedBefore = OffHeapMemory.reservedBytes();
        pool = new WriteMemoryPool(new WriteMemoryPoolOptions("memsst-test", PAGE, 4096L * PAGE, 64L * PAGE));
    }

    @AfterEach
    void closePool() {
        for (MemorySSTable t : open) {
            if (!t.isReleased()) {
                t.unref();
            }
        }
        pool.close(); // throws if a table leaked a page
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
    }

    private MemorySSTable buildAll(PagePool p, NavigableMap<byte[], Version> m, double bits) throws IOException {
        BuildResult r = MemorySSTable.build(p, SortedEntries.cursor(m), Long.MAX_VALUE, bits, 7, 9);
        assertEquals(BuildStatus.BUILT, r.status());
        open.add(r.table());
        return r.table();
    }

    /** Random keys (some empty, some long, shared prefixes), values (some empty) and tombstones. */
    private static TreeMap<byte[], Version> randomModel(Random rnd, int n) {
        TreeMap<byte[], Version> m = SortedEntries.model();
        m.put(new byte[0], new Version("empty-key".getBytes(UTF_8), 1));
        while (m.size() < n) {
            int shape = rnd.nextInt(100);
            int len = shape < 3 ? 500 + rnd.nextInt(1500) : 1 + rnd.nextInt(24);
            byte[] k = new byte[len];
            rnd.nextBytes(k);
            if (shape % 4 == 0) {
                k[0] = 'p'; // a crowd of keys sharing a prefix
            }
            byte[] v;
            int kind = rnd.nextInt(10);
            if (kind == 0) {
                v = null;
            } else if (kind == 1) {
                v = new byte[0];
            } else {
                v = new byte[rnd.nextInt(shape < 3 ? 800 : 200)];
                rnd.nextBytes(v);
            }
            m.put(k, new Version(v, rnd.nextInt(1_000_000)));
        }
        return m;
    }

    private static String describe(LookupResult r, ValueHolder out) {
        return r + (r == LookupResult.ABSENT ? "" : "@" + out.lsn() + "=" + Arrays.toString(out.toArray()));
    }

    private static void assertCursorMatches(NavigableMap<byte[], Version> expected, EntryCursor c) throws IOException {
        try (c) {
            for (Map.Entry<byte[], Version> e : expected.entrySet()) {
                assertTrue(c.next(), "cursor ended early");
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                byte[] v = e.getValue().tombstone() ? new byte[0] : e.getValue().value();
                assertArrayEquals(v, Arrays.copyOf(c.value(), c.valueLength()));
                assertEquals(e.getValue().seq(), c.lsn());
            }
            assertFalse(c.next(), "cursor went past the end");
            assertFalse(c.next(), "cursor stays exhausted");
        }
    }

    @Test
    void roundTripAgainstATreeMap() throws IOException {
        Random rnd = new Random(42);
        TreeMap<byte[], Version> m = randomModel(rnd, 5000);
        MemorySSTable t = buildAll(pool, m, BITS);

        assertEquals(m.size(), t.entryCount());
        long payload = 0;
        for (Map.Entry<byte[], Version> e : m.entrySet()) {
            payload += e.getKey().length + (e.getValue().tombstone() ? 0 : e.getValue().value().length);
        }
        assertEquals(payload, t.payloadBytes());
        assertArrayEquals(m.firstKey(), t.smallestKey());
        assertArrayEquals(m.lastKey(), t.largestKey());
        assertEquals(m.values().stream().mapToLong(Version::seq).min().orElseThrow(), t.minSeq());
        assertEquals(m.values().stream().mapToLong(Version::seq).max().orElseThrow(), t.maxSeq());
        assertEquals(7, t.minLogLsn());
        assertEquals(9, t.maxLogLsn());
        assertTrue(t.dataPageCount() > 10, "the test should span many pages");

        ValueHolder out = new ValueHolder();
        for (Map.Entry<byte[], Version> e : m.entrySet()) {
            byte[] k = e.getKey();
            LookupResult r = t.get(k, k.length, out);
            Version v = e.getValue();
            String expected = v.tombstone() ? "DELETED@" + v.seq() + "=[]" : "FOUND@" + v.seq() + "=" + Arrays.toString(v.value());
            assertEquals(expected, describe(r, out));
        }
        // Absent keys: random ones, and neighbours of present keys (a byte appended, last byte bumped).
        List<byte[]> absent = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            byte[] k = new byte[1 + rnd.nextInt(24)];
            rnd.nextBytes(k);
            absent.add(k);
        }
        for (byte[] k : m.keySet()) {
            absent.add(Arrays.copyOf(k, k.length + 1));
        }
        absent.add(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        for (byte[] k : absent) {
            if (!m.containsKey(k)) {
                assertEquals(LookupResult.ABSENT, t.get(k, k.length, out));
            }
        }
        // A key longer than the buffer is given by length: only keyLen bytes count.
        byte[] first = m.higherKey(new byte[0]);
        byte[] padded = Arrays.copyOf(first, first.length + 10);
        assertEquals(m.get(first).tombstone() ? LookupResult.DELETED : LookupResult.FOUND, t.get(padded, first.length, out));

        assertCursorMatches(m, t.cursor(null, 0));
        assertCursorMatches(m, t.cursor(new byte[0], 0));
        for (int i = 0; i < 300; i++) {
            byte[] from;
            int pick = rnd.nextInt(3);
            if (pick == 0) {
                from = m.keySet().stream().skip(rnd.nextInt(m.size())).findFirst().orElseThrow();
            } else {
                from = new byte[rnd.nextInt(6)];
                rnd.nextBytes(from);
            }
            assertCursorMatches(m.tailMap(from, true), t.cursor(from, from.length));
        }
        byte[] pastEnd = Arrays.copyOf(m.lastKey(), m.lastKey().length + 1);
        assertCursorMatches(m.tailMap(pastEnd, true), t.cursor(pastEnd, pastEnd.length));
    }

    @Test
    void bloomFilterHasNoFalseNegativesAndAboutOnePercentFalsePositives() throws IOException {
        TreeMap<byte[], Version> m = SortedEntries.model();
        for (int i = 0; i < 50_000; i++) {
            m.put(key(2L * i), new Version(new byte[] {(byte) i}, i));
        }
        MemorySSTable t = buildAll(pool, m, BITS);
        int blocks = MemoryBloomFilter.blockCount(m.size(), BITS);
        assertEquals((blocks + PAGE / 64 - 1) / (PAGE / 64), t.bloomPageCount());
        for (byte[] k : m.keySet()) {
            assertTrue(t.mayContain(k, k.length), "false negative");
        }
        int falsePositives = 0;
        int probes = 100_000;
        for (int i = 0; i < probes; i++) {
            byte[] k = key(2L * i + 1);
            falsePositives += t.mayContain(k, k.length) ? 1 : 0;
        }
        double fpr = (double) falsePositives / probes;
        assertTrue(fpr < 0.02, "false-positive rate " + fpr);
        assertTrue(fpr > 0.001, "implausibly low false-positive rate " + fpr + ": is the filter probing?");
    }

    @Test
    void withoutABloomFilterLookupsStillWork() throws IOException {
        TreeMap<byte[], Version> m = SortedEntries.model();
        for (int i = 0; i < 1000; i++) {
            m.put(key(2L * i), new Version(i % 5 == 0 ? null : new byte[] {(byte) i}, i));
        }
        MemorySSTable t = buildAll(pool, m, 0);
        assertEquals(0, t.bloomPageCount());
        ValueHolder out = new ValueHolder();
        for (int i = 0; i < 2000; i++) {
            byte[] k = key(i);
            LookupResult expected = i % 2 == 1 ? LookupResult.ABSENT : (i / 2) % 5 == 0 ? LookupResult.DELETED : LookupResult.FOUND;
            assertEquals(expected, t.get(k, k.length, out));
            assertTrue(t.mayContain(k, k.length));
        }
    }

    @Test
    void poolAccountingIsExactAndPagesGoBackOnTheLastUnref() throws IOException {
        TreeMap<byte[], Version> m = randomModel(new Random(1), 3000);
        MemorySSTable t = buildAll(pool, m, BITS);
        assertEquals((long) (t.dataPageCount() + t.bloomPageCount()) * PAGE, t.bytesUsed());
        assertEquals(t.bytesUsed(), pool.usedBytes());
        assertEquals(t.bytesUsed(), t.meta().bytes());
        assertTrue(t.payloadBytes() < t.bytesUsed());

        assertEquals(1, t.refCount());
        t.ref(); // a reader
        EntryCursor c = t.cursor(null, 0);
        assertFalse(t.unref(), "the reader still holds it");
        assertEquals(t.bytesUsed(), pool.usedBytes());
        assertTrue(c.next(), "a reader holding a reference still reads");
        c.close();
        assertTrue(t.unref());
        assertTrue(t.isReleased());
        assertEquals(0, pool.usedBytes());
        assertEquals(0, t.bytesUsed());
        assertEquals(0, t.refCount());

        assertThrows(IllegalStateException.class, t::ref);
        assertThrows(IllegalStateException.class, t::unref);
        byte[] k = m.firstKey();
        assertThrows(IllegalStateException.class, () -> t.get(k, k.length, new ValueHolder()));
        assertThrows(IllegalStateException.class, () -> t.cursor(null, 0));
    }

    @Test
    void poolExhaustionDuringDataPagesFailsAndLeaksNothing() throws IOException {
        TreeMap<byte[], Version> m = randomModel(new Random(2), 3000);
        try (WriteMemoryPool small = new WriteMemoryPool(new WriteMemoryPoolOptions("memsst-small", PAGE, 8L * PAGE, 8L * PAGE))) {
            long other = small.tryAllocatePage(); // someone else's page stays untouched
            BuildResult r = MemorySSTable.build(small, SortedEntries.cursor(m), Long.MAX_VALUE, BITS, 0, 0);
            assertEquals(BuildStatus.POOL_EXHAUSTED, r.status());
            assertNull(r.table());
            assertEquals(PAGE, small.usedBytes());
            small.freePage(other);
        }
    }

    @Test
    void poolExhaustionAtTheBloomFilterFailsAndLeaksNothing() throws IOException {
        TreeMap<byte[], Version> m = randomModel(new Random(3), 3000);
        MemorySSTable reference = buildAll(pool, m, BITS);
        int dataPages = reference.dataPageCount();
        assertTrue(reference.bloomPageCount() > 0);
        try (WriteMemoryPool exact = new WriteMemoryPool(new WriteMemoryPoolOptions("memsst-exact", PAGE, (long) dataPages * PAGE, 64L * PAGE))) {
            BuildResult r = MemorySSTable.build(exact, SortedEntries.cursor(m), Long.MAX_VALUE, BITS, 0, 0);
            assertEquals(BuildStatus.POOL_EXHAUSTED, r.status());
            assertEquals(0, exact.usedBytes());
            // With room for the filter pages too, the same build succeeds and uses the whole budget.
            exact.setCapacity((long) (dataPages + reference.bloomPageCount()) * PAGE);
            BuildResult ok = MemorySSTable.build(exact, SortedEntries.cursor(m), Long.MAX_VALUE, BITS, 0, 0);
            assertEquals(BuildStatus.BUILT, ok.status());
            assertEquals(exact.capacityBytes(), exact.usedBytes());
            ok.table().unref();
            assertEquals(0, exact.usedBytes());
        }
    }

    @Test
    void badInputIsRefusedWithoutLeakingPages() {
        MemorySSTableBuilder b = new MemorySSTableBuilder(pool, BITS);
        byte[] v = new byte[10];
        assertTrue(b.add(bytes("b"), 1, v, v.length, false, 1));
        assertThrows(IllegalArgumentException.class, () -> b.add(bytes("b"), 1, v, v.length, false, 2), "duplicate key");
        assertThrows(IllegalArgumentException.class, () -> b.add(bytes("a"), 1, v, v.length, false, 2), "decreasing key");
        byte[] huge = new byte[b.maxRecordLength()];
        assertThrows(IllegalArgumentException.class, () -> b.add(bytes("c"), 1, huge, huge.length, false, 2), "record too large");
        assertTrue(b.add(bytes("c"), 1, huge, huge.length - 1, false, 3), "the largest record fits one page");
        assertTrue(pool.usedBytes() > 0);
        b.abandon();
        assertEquals(0, pool.usedBytes());
        assertThrows(IllegalStateException.class, () -> b.add(bytes("d"), 1, v, v.length, false, 4));

        TreeMap<byte[], Version> m = SortedEntries.model();
        m.put(bytes("a"), new Version(new byte[PAGE], 1));
        assertThrows(IllegalArgumentException.class, () -> MemorySSTable.build(pool, SortedEntries.cursor(m), Long.MAX_VALUE, BITS, 0, 0));
        assertEquals(0, pool.usedBytes());
    }

    @Test
    void anEmptySourceBuildsNothing() throws IOException {
        BuildResult r = MemorySSTable.build(pool, SortedEntries.cursor(SortedEntries.model()), 1 << 20, BITS, 0, 0);
        assertEquals(BuildStatus.END_OF_SOURCE, r.status());
        assertNull(r.table());
        assertEquals(0, pool.usedBytes());
        assertThrows(IllegalStateException.class, () -> new MemorySSTableBuilder(pool, BITS).finish(0, 0));
    }

    @Test
    void buildsFromOneCursorCutAtTheTargetIntoDisjointRangePartitionedTables() throws IOException {
        TreeMap<byte[], Version> m = randomModel(new Random(4), 6000);
        long target = 16L * PAGE;
        EntryCursor source = SortedEntries.cursor(m);
        List<MemorySSTable> tables = new ArrayList<>();
        while (true) {
            BuildResult r = MemorySSTable.build(pool, source, target, BITS, 0, 0);
            if (r.status() == BuildStatus.END_OF_SOURCE) {
                break;
            }
            assertEquals(BuildStatus.BUILT, r.status());
            tables.add(r.table());
            open.add(r.table());
        }
        assertTrue(tables.size() >= 4, "expected several tables, got " + tables.size());
        long entries = 0;
        long used = 0;
        for (int i = 0; i < tables.size(); i++) {
            MemorySSTable t = tables.get(i);
            entries += t.entryCount();
            used += t.bytesUsed();
            assertTrue(t.bytesUsed() < target + 4L * PAGE, "table " + i + " overshoots: " + t.bytesUsed());
            if (i < tables.size() - 1) {
                assertTrue(t.bytesUsed() >= target, "table " + i + " cut early: " + t.bytesUsed());
                assertTrue(Arrays.compareUnsigned(t.largestKey(), tables.get(i + 1).smallestKey()) < 0, "tables overlap");
                assertTrue(t.id() < tables.get(i + 1).id(), "ids increase");
            }
            NavigableMap<byte[], Version> part = m.subMap(t.smallestKey(), true, t.largestKey(), true);
            assertEquals(part.size(), t.entryCount());
            assertCursorMatches(part, t.cursor(null, 0));
        }
        assertEquals(m.size(), entries, "every entry lands in exactly one table");
        assertEquals(used, pool.usedBytes());
    }

    @Test
    void concurrentReadersSeeTheSameTable() throws Exception {
        TreeMap<byte[], Version> m = randomModel(new Random(5), 4000);
        MemorySSTable t = buildAll(pool, m, BITS);
        List<byte[]> keys = new ArrayList<>(m.keySet());
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int n = 0; n < 4; n++) {
            int seed = n;
            Thread th = new Thread(() -> {
                try {
                    Random rnd = new Random(seed);
                    ValueHolder out = new ValueHolder();
                    for (int i = 0; i < 5_000; i++) {
                        byte[] k = keys.get(rnd.nextInt(keys.size()));
                        LookupResult r = t.get(k, k.length, out);
                        Version v = m.get(k);
                        assertEquals(v.tombstone() ? LookupResult.DELETED : LookupResult.FOUND, r);
                        assertEquals(v.seq(), out.lsn());
                        if (i % 500 == 0) {
                            assertCursorMatches(m.tailMap(k, true), t.cursor(k, k.length));
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> failures.get(0).toString());
    }

    @Test
    void getsAndCursorStepsAllocateNothingOnceWarm() throws IOException {
        TreeMap<byte[], Version> m = SortedEntries.model();
        for (int i = 0; i < 20_000; i++) {
            m.put(key(2L * i), new Version(i % 8 == 0 ? null : new byte[40], i));
        }
        MemorySSTable t = buildAll(pool, m, BITS);
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[][] probes = new byte[1000][];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = key(i * 37L);
        }
        ValueHolder out = new ValueHolder();
        EntryCursor c = t.cursor(null, 0);
        long allocated = 0;
        for (int round = 0; round < 3; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (byte[] k : probes) {
                t.get(k, k.length, out);
                c.next();
            }
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertEquals(0, allocated, "bytes allocated by 1000 gets and cursor steps");
        assertNotNull(c.key());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    /** "k" + 8-byte big-endian number, so numeric order is key order. */
    private static byte[] key(long n) {
        byte[] k = new byte[9];
        k[0] = 'k';
        for (int i = 0; i < 8; i++) {
            k[1 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return k;
    }
}
