package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.cursor.MergingCursor;
import dev.breakwater.lsm.memory.MemorySSTable.BuildResult;
import dev.breakwater.lsm.memory.MemorySSTable.BuildStatus;
import dev.breakwater.lsm.memory.SortedEntries.Version;
import dev.breakwater.lsm.sstable.KeyHash;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.openhft.chronicle.core.UnsafeMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The in-place path of seals and memory merges ({@link RecordCursor}, {@link RecordMerger},
 * {@link MemorySSTableBuilder#add(RecordCursor)}) against the heap path it replaces and against a
 * {@code TreeMap} model: same records, same tables, same pool accounting, same failures.
 */
class RecordMergeTest {

    private static final int PAGE = 4096;
    private static final double BITS = 10;

    private long reservedBefore;
    private WriteMemoryPool pool;
    private final List<MemorySSTable> open = new ArrayList<>();

    @BeforeEach
    void openPool() {
        reservedBefore = OffHeapMemory.reservedBytes();
        pool = new WriteMemoryPool(new WriteMemoryPoolOptions("record-merge-test", PAGE, 8192L * PAGE, 64L * PAGE));
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

    private static byte[] randomKey(Random rnd, int space) {
        return ("k" + rnd.nextInt(space)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Random writes (repeated keys, tombstones, empty and large values) into {@code c} and the model of its newest versions. */
    private static void fill(MemoryComponent c, TreeMap<byte[], Version> model, Random rnd, int writes, long firstSeq) {
        for (int i = 0; i < writes; i++) {
            byte[] k = randomKey(rnd, 3000);
            long seq = firstSeq + i;
            if (rnd.nextInt(10) == 0) {
                assertTrue(c.put(k, k.length, null, 0, true, seq));
                model.put(k, new Version(null, seq));
            } else {
                byte[] v = new byte[rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(rnd.nextInt(20) == 0 ? 2000 : 100)];
                rnd.nextBytes(v);
                assertTrue(c.put(k, k.length, v, v.length, false, seq));
                model.put(k, new Version(v, seq));
            }
        }
    }

    private static void assertRecordsMatch(Map<byte[], Version> expected, RecordCursor c) {
        try (c) {
            for (Map.Entry<byte[], Version> e : expected.entrySet()) {
                assertTrue(c.next(), "records ended early");
                assertArrayEquals(e.getKey(), MemorySSTable.copyKey(c.keyAddress(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                assertEquals(e.getValue().seq(), c.seq());
                if (!c.isTombstone()) {
                    assertArrayEquals(e.getValue().value(), MemorySSTable.copyKey(c.valueAddress(), c.valueLength()));
                } else {
                    assertEquals(0, c.valueLength());
                }
            }
            assertFalse(c.next(), "records went past the end");
            assertFalse(c.next(), "records stay exhausted");
        }
    }

    private static void assertCursorMatches(Map<byte[], Version> expected, EntryCursor c) throws IOException {
        try (c) {
            for (Map.Entry<byte[], Version> e : expected.entrySet()) {
                assertTrue(c.next(), "cursor ended early");
                assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                assertEquals(e.getValue().tombstone(), c.isTombstone());
                assertArrayEquals(e.getValue().tombstone() ? new byte[0] : e.getValue().value(), Arrays.copyOf(c.value(), c.valueLength()));
                assertEquals(e.getValue().seq(), c.lsn());
            }
            assertFalse(c.next(), "cursor went past the end");
        }
    }

    /** Cuts {@code source} into tables of about {@code target} bytes; null if the pool ran dry. */
    private List<MemorySSTable> buildRun(RecordCursor source, long target) {
        List<MemorySSTable> out = new ArrayList<>();
        try (source) {
            while (true) {
                BuildResult r = MemorySSTable.build(pool, source, target, BITS, 3, 5);
                if (r.status() == BuildStatus.END_OF_SOURCE) {
                    return out;
                }
                if (r.status() == BuildStatus.POOL_EXHAUSTED) {
                    out.forEach(MemorySSTable::unref);
                    return null;
                }
                out.add(r.table());
                open.add(r.table());
            }
        }
    }

    @Test
    void sealedRecordsOfEveryKindAreItsFlushCursorInPlace() throws IOException {
        for (MemoryComponentSpec spec : MemoryKinds.all()) {
            Random rnd = new Random(11);
            TreeMap<byte[], Version> model = SortedEntries.model();
            try (MemoryComponent c = spec.create(pool)) {
                assertFalse(c.sealedRecords().next(), spec + ": an empty component has no records");
                fill(c, model, rnd, 6000, 1);
                assertRecordsMatch(model, c.sealedRecords());
                assertCursorMatches(model, c.flushCursor());
            }
            assertEquals(0, pool.usedBytes(), spec.toString());
        }
    }

    @Test
    void sealAndMemoryMergeInPlaceEqualTheModelAndTheHeapPath() throws IOException {
        Random rnd = new Random(5);
        for (MemoryComponentSpec spec : MemoryKinds.all()) {
            TreeMap<byte[], Version> older = SortedEntries.model();
            TreeMap<byte[], Version> newer = SortedEntries.model();
            try (MemoryComponent m1Source = spec.create(pool); MemoryComponent m0 = spec.create(pool)) {
                fill(m1Source, older, rnd, 5000, 1);
                fill(m0, newer, rnd, 3000, 100_000);
                List<MemorySSTable> m1 = buildRun(m1Source.sealedRecords(), 8L * PAGE);
                assertTrue(m1.size() > 3, "several M1 tables");
                assertRecordsMatch(older, MemorySSTable.records(m1));

                TreeMap<byte[], Version> merged = SortedEntries.model();
                merged.putAll(older);
                merged.putAll(newer);
                // Seal: M0 (newest) with the M1 run.
                List<MemorySSTable> sealed = buildRun(new RecordMerger(List.of(m0.sealedRecords(), MemorySSTable.records(m1))), 8L * PAGE);
                assertRecordsMatch(merged, MemorySSTable.records(sealed));
                // The heap path builds tables with the same contents and the same sizes.
                List<EntryCursor> heapSources = new ArrayList<>();
                heapSources.add(m0.flushCursor());
                m1.forEach(t -> heapSources.add(t.cursor(null, 0)));
                MergingCursor heap = new MergingCursor(heapSources, false);
                List<MemorySSTable> viaHeap = new ArrayList<>();
                while (true) {
                    BuildResult r = MemorySSTable.build(pool, heap, 8L * PAGE, BITS, 3, 5);
                    if (r.status() != BuildStatus.BUILT) {
                        break;
                    }
                    viaHeap.add(r.table());
                    open.add(r.table());
                }
                heap.close();
                assertEquals(viaHeap.size(), sealed.size());
                for (int i = 0; i < sealed.size(); i++) {
                    assertEquals(viaHeap.get(i).bytesUsed(), sealed.get(i).bytesUsed());
                    assertEquals(viaHeap.get(i).payloadBytes(), sealed.get(i).payloadBytes());
                    assertArrayEquals(viaHeap.get(i).smallestKey(), sealed.get(i).smallestKey());
                    assertArrayEquals(viaHeap.get(i).largestKey(), sealed.get(i).largestKey());
                    for (byte[] k : merged.subMap(sealed.get(i).smallestKey(), true, sealed.get(i).largestKey(), true).keySet()) {
                        assertTrue(sealed.get(i).mayContain(k, k.length), "the Bloom filter hashed keys in place as probes hash them");
                    }
                }
                // A memory merge: one upper table over the overlapping lower run.
                MemorySSTable upper = sealed.get(sealed.size() / 2);
                TreeMap<byte[], Version> expected = SortedEntries.model();
                expected.putAll(older.subMap(m1.get(0).smallestKey(), true, m1.get(m1.size() - 1).largestKey(), true));
                expected.putAll(merged.subMap(upper.smallestKey(), true, upper.largestKey(), true));
                List<MemorySSTable> out = buildRun(new RecordMerger(List.of(MemorySSTable.records(List.of(upper)), MemorySSTable.records(m1))),
                        8L * PAGE);
                assertRecordsMatch(expected, MemorySSTable.records(out));
            }
            for (MemorySSTable t : open) {
                t.unref();
            }
            open.clear();
            assertEquals(0, pool.usedBytes(), spec + ": every page back");
        }
    }

    @Test
    void poolExhaustionInPlaceLeaksNothing() {
        TreeMap<byte[], Version> model = SortedEntries.model();
        try (WriteMemoryPool small = new WriteMemoryPool(new WriteMemoryPoolOptions("record-merge-small", PAGE, 8L * PAGE, 8L * PAGE));
             MemoryComponent c = MemoryComponentSpec.SKIP_LIST.create(pool)) {
            fill(c, model, new Random(3), 4000, 1);
            long other = small.tryAllocatePage();
            BuildResult r = MemorySSTable.build(small, c.sealedRecords(), Long.MAX_VALUE, BITS, 0, 0);
            assertEquals(BuildStatus.POOL_EXHAUSTED, r.status());
            assertNull(r.table());
            assertEquals(PAGE, small.usedBytes(), "only the other page is still taken");
            small.freePage(other);
        }
    }

    @Test
    void recordsOutOfOrderAreRefusedWithoutLeakingPages() {
        TreeMap<byte[], Version> model = SortedEntries.model();
        try (MemoryComponent c = MemoryComponentSpec.SKIP_LIST.create(pool)) {
            fill(c, model, new Random(9), 3000, 1);
            List<MemorySSTable> run = buildRun(c.sealedRecords(), 8L * PAGE);
            List<MemorySSTable> reversed = new ArrayList<>(run);
            java.util.Collections.reverse(reversed);
            long used = pool.usedBytes();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> MemorySSTable.build(pool, MemorySSTable.records(reversed), Long.MAX_VALUE, BITS, 0, 0));
            assertTrue(e.getMessage().contains("strictly increasing"), e.getMessage());
            assertEquals(used, pool.usedBytes());
        }
    }

    /** Key {@code i} as a fixed-width key, so that key order is number order. */
    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Puts keys {@code [from, to)} with 200-byte values and sequence numbers from {@code firstSeq}. */
    private static void fillRange(MemoryComponent c, int from, int to, long firstSeq) {
        byte[] v = new byte[200];
        for (int i = from; i < to; i++) {
            assertTrue(c.put(key(i), key(i).length, v, v.length, false, firstSeq + i));
        }
    }

    /**
     * A seal's outputs take the minimum log LSN of the tables their records come from. Before, every
     * output took the minimum of all inputs: after a seal merged M0 with all of M1, every M1 table
     * claimed the oldest LSN in memory, so the log could be truncated only once all of M1 was flushed
     * (docs/benchmarks-memory.md, "Session 11").
     */
    @Test
    void sealOutputsTakeTheLogRangeOfTheTablesTheirRecordsComeFrom() {
        try (MemoryComponent a = MemoryComponentSpec.SKIP_LIST.create(pool); MemoryComponent b = MemoryComponentSpec.SKIP_LIST.create(pool);
             MemoryComponent m0 = MemoryComponentSpec.SKIP_LIST.create(pool)) {
            fillRange(a, 0, 100, 1);          // an old M1 table, log LSNs from 10
            fillRange(b, 100, 200, 1_000);    // a newer M1 table, log LSNs from 20
            fillRange(m0, 0, 50, 100_000);    // M0 rewrites keys 0..49, log LSNs from 50
            MemorySSTable ta = built(MemorySSTable.build(pool, a.sealedRecords(), Long.MAX_VALUE, BITS, 10, 19));
            MemorySSTable tb = built(MemorySSTable.build(pool, b.sealedRecords(), Long.MAX_VALUE, BITS, 20, 29));
            assertEquals(10, ta.minLogLsn());
            assertEquals(20, tb.minLogLsn());

            // The seal as the Flusher makes it: M0 (its floor given, its cursor knows none) over the M1 run.
            RecordMerger seal = new RecordMerger(List.of(m0.sealedRecords(), MemorySSTable.records(List.of(ta, tb))),
                    new long[] {50, RecordCursor.UNKNOWN_LOG_LSN});
            List<MemorySSTable> outputs = new ArrayList<>();
            try (seal) {
                while (true) {
                    BuildResult r = MemorySSTable.build(pool, seal, 2L * PAGE, BITS, 10, 59);
                    if (r.status() == BuildStatus.END_OF_SOURCE) {
                        break;
                    }
                    outputs.add(built(r));
                }
            }
            assertTrue(outputs.size() >= 4, "several outputs: " + outputs.size());
            boolean sawOnlyB = false;
            boolean sawOnlyM0 = false;
            for (MemorySSTable o : outputs) {
                int first = Integer.parseInt(new String(o.smallestKey(), java.nio.charset.StandardCharsets.UTF_8).substring(1));
                int last = Integer.parseInt(new String(o.largestKey(), java.nio.charset.StandardCharsets.UTF_8).substring(1));
                // Keys 0..49 come from M0 (floor 50), 50..99 from table a (10), 100..199 from table b (20).
                long expected = Long.MAX_VALUE;
                for (int k = first; k <= last; k++) {
                    expected = Math.min(expected, k < 50 ? 50 : k < 100 ? 10 : 20);
                }
                assertEquals(expected, o.minLogLsn(), "output " + first + ".." + last);
                assertEquals(59, o.maxLogLsn(), "the maximum stays the inputs' maximum");
                sawOnlyB |= first >= 100;
                sawOnlyM0 |= last < 50;
            }
            assertTrue(sawOnlyB && sawOnlyM0, "an output of table b's keys only and one of M0's only");

            // A source that cannot say where its records come from gives the minimum it is handed.
            MemorySSTable unknown = built(MemorySSTable.build(pool, new RecordMerger(List.of(m0.sealedRecords())), Long.MAX_VALUE, BITS, 7, 59));
            assertEquals(7, unknown.minLogLsn());
        }
    }

    private MemorySSTable built(BuildResult r) {
        assertEquals(BuildStatus.BUILT, r.status());
        open.add(r.table());
        return r.table();
    }

    @Test
    void inPlaceKeyHashEqualsTheHeapHash() {
        Random rnd = new Random(1);
        long page = pool.tryAllocatePage();
        try {
            for (int i = 0; i < 5000; i++) {
                byte[] k = new byte[rnd.nextInt(i < 100 ? 17 : 200)];
                rnd.nextBytes(k);
                int offset = rnd.nextInt(8); // unaligned too
                OffHeapKeys.copyIn(k, k.length, page + offset);
                assertEquals(KeyHash.hash(k, 0, k.length), KeyHash.hash(page + offset, k.length), "key of " + k.length + " bytes");
            }
            assertEquals(KeyHash.hash(new byte[0], 0, 0), KeyHash.hash(page, 0));
            UnsafeMemory.MEMORY.writeByte(page, (byte) 1);
        } finally {
            pool.freePage(page);
        }
    }
}
