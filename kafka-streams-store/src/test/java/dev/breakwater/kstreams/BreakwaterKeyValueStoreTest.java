package dev.breakwater.kstreams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The KeyValueStore contract of Kafka Streams, on one Breakwater store. */
class BreakwaterKeyValueStoreTest {

    @TempDir
    Path stateDir;
    private TestContext ctx;
    private BreakwaterKeyValueStore store;

    @BeforeEach
    void open() {
        ctx = new TestContext(stateDir, "app", new TaskId(0, 1));
        store = TestStores.open(ctx, "kv");
    }

    @AfterEach
    void close() {
        store.close();
        assertEquals(0, EngineRegistry.openEngines(), "the last store closed the engine");
    }

    private static Bytes b(String s) {
        return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> keys(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(new String(it.next().key.get(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Test
    void putGetDeleteAndNullValues() {
        assertTrue(store.persistent());
        assertTrue(store.isOpen());
        assertEquals("kv", store.name());
        assertNull(store.get(b("a")));
        store.put(b("a"), v("1"));
        assertArrayEquals(v("1"), store.get(b("a")));
        store.put(b("a"), v("2"));
        assertArrayEquals(v("2"), store.get(b("a")));
        assertArrayEquals(v("2"), store.delete(b("a")));
        assertNull(store.get(b("a")));
        assertNull(store.delete(b("a")));
        store.put(b("n"), v("x"));
        store.put(b("n"), null); // a null value deletes
        assertNull(store.get(b("n")));
        store.put(b("e"), new byte[0]); // an empty value is a value
        assertArrayEquals(new byte[0], store.get(b("e")));
        assertThrows(NullPointerException.class, () -> store.put(null, v("x")));
        assertThrows(NullPointerException.class, () -> store.get(null));
        assertThrows(NullPointerException.class, () -> store.delete(null));
    }

    @Test
    void putIfAbsentKeepsTheOldValue() {
        assertNull(store.putIfAbsent(b("k"), v("first")));
        assertArrayEquals(v("first"), store.putIfAbsent(b("k"), v("second")));
        assertArrayEquals(v("first"), store.get(b("k")));
    }

    @Test
    void putAllWritesAndDeletes() {
        store.put(b("gone"), v("x"));
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(KeyValue.pair(b(String.format("k%03d", i)), v("v" + i)));
        }
        batch.add(KeyValue.pair(b("gone"), null));
        store.putAll(batch);
        assertNull(store.get(b("gone")));
        assertArrayEquals(v("v42"), store.get(b("k042")));
        assertEquals(100, store.approximateNumEntries());
    }

    @Test
    void putAllLargerThanOneTransactionIsSplit() {
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
        byte[] value = new byte[3000];
        for (int i = 0; i < 1000; i++) { // ~3 MB: three times max-transaction-size
            batch.add(KeyValue.pair(b(String.format("k%04d", i)), value));
        }
        store.putAll(batch);
        assertEquals(1000, keys(store.all()).size());
    }

    @Test
    void rangesAreInclusiveOrderedAndOpenAtNull() {
        for (String k : List.of("a", "b", "c", "d", "e")) {
            store.put(b(k), v(k));
        }
        assertEquals(List.of("b", "c", "d"), keys(store.range(b("b"), b("d"))));
        assertEquals(List.of("d", "c", "b"), keys(store.reverseRange(b("b"), b("d"))));
        assertEquals(List.of("a", "b", "c"), keys(store.range(null, b("c"))));
        assertEquals(List.of("c", "d", "e"), keys(store.range(b("c"), null)));
        assertEquals(List.of("e", "d", "c"), keys(store.reverseRange(b("c"), null)));
        assertEquals(List.of("a", "b", "c", "d", "e"), keys(store.all()));
        assertEquals(List.of("e", "d", "c", "b", "a"), keys(store.reverseAll()));
        assertEquals(List.of(), keys(store.range(b("d"), b("b"))), "from > to is empty");
        assertEquals(List.of(), keys(store.reverseRange(b("d"), b("b"))), "from > to is empty, reversed too");
        assertEquals(List.of("b"), keys(store.reverseRange(b("b"), b("b"))));
        assertEquals(List.of("c", "b", "a"), keys(store.reverseRange(null, b("c"))));
        assertEquals(List.of("d", "c"), keys(store.reverseRange(b("bb"), b("dd"))), "bounds need not be keys");
        assertEquals(List.of("b"), keys(store.range(b("b"), b("b"))));
        assertEquals(List.of(), keys(store.range(b("bb"), b("bz"))));
    }

    @Test
    void keysCompareAsUnsignedBytes() {
        byte[][] ks = {{(byte) 0x80}, {0x00}, {0x7f}, {(byte) 0xff}, {}, {0x00, 0x00}, {(byte) 0xff, 0x00}};
        for (byte[] k : ks) {
            store.put(Bytes.wrap(k), k);
        }
        List<Bytes> got = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            it.forEachRemaining(kv -> got.add(kv.key));
        }
        List<Bytes> want = new ArrayList<>();
        for (byte[] k : ks) {
            want.add(Bytes.wrap(k));
        }
        want.sort(Bytes::compareTo); // Bytes order themselves as unsigned bytes
        assertEquals(want, got);
    }

    @Test
    void prefixScanUsesTheSerializedPrefix() {
        for (String k : List.of("ab", "abc", "abd", "ac", "b")) {
            store.put(b(k), v(k));
        }
        assertEquals(List.of("ab", "abc", "abd"), keys(store.prefixScan("ab", Serdes.String().serializer())));
        assertEquals(List.of("ab", "abc", "abd", "ac"), keys(store.prefixScan("a", Serdes.String().serializer())));
        assertEquals(List.of(), keys(store.prefixScan("z", Serdes.String().serializer())));
        assertEquals(5, keys(store.prefixScan("", Serdes.String().serializer())).size());
    }

    @Test
    void iteratorsPeekAndEnd() {
        store.put(b("a"), v("1"));
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            assertEquals(b("a"), it.peekNextKey());
            assertEquals(b("a"), it.next().key);
            assertFalse(it.hasNext());
            assertThrows(NoSuchElementException.class, it::next);
            assertThrows(NoSuchElementException.class, it::peekNextKey);
        }
    }

    @Test
    void closingTheStoreClosesItsIteratorsAndRefusesCalls() {
        store.put(b("a"), v("1"));
        KeyValueIterator<Bytes, byte[]> it = store.all();
        KeyValueIterator<Bytes, byte[]> it2 = store.range(b("a"), b("z"));
        KeyValueIterator<Bytes, byte[]> reverse = store.reverseAll(); // a streaming cursor too, so tracked like the others
        assertEquals(3, store.openIterators());
        it2.close();
        assertEquals(2, store.openIterators());
        store.close();
        assertFalse(store.isOpen());
        assertEquals(0, store.openIterators());
        assertThrows(InvalidStateStoreException.class, it::hasNext);
        assertThrows(InvalidStateStoreException.class, reverse::hasNext);
        assertThrows(InvalidStateStoreException.class, () -> store.get(b("a")));
        assertThrows(InvalidStateStoreException.class, () -> store.put(b("a"), v("1")));
        assertThrows(InvalidStateStoreException.class, store::all);
        store.flush(); // no-op once closed
        store.close(); // idempotent
    }

    @Test
    void keyAndRangeQueriesTrackThePosition() {
        ctx.at("input", 1, 7);
        store.put(b("a"), v("1"));
        ctx.at("input", 1, 9);
        store.put(b("b"), v("2"));
        Position expected = Position.emptyPosition().withComponent("input", 1, 9);
        assertEquals(expected, store.getPosition());

        QueryResult<byte[]> r = store.query(KeyQuery.withKey(b("a")), PositionBound.unbounded(), new QueryConfig(false));
        assertTrue(r.isSuccess());
        assertArrayEquals(v("1"), r.getResult());
        assertEquals(expected, r.getPosition());

        QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(RangeQuery.<Bytes, byte[]>withRange(b("a"), b("b")),
                PositionBound.at(Position.emptyPosition().withComponent("input", 1, 9)), new QueryConfig(true));
        assertTrue(range.isSuccess());
        assertEquals(List.of("a", "b"), keys(range.getResult()));
        assertFalse(range.getExecutionInfo().isEmpty());

        QueryResult<byte[]> ahead = store.query(KeyQuery.withKey(b("a")),
                PositionBound.at(Position.emptyPosition().withComponent("input", 1, 10)), new QueryConfig(false));
        assertFalse(ahead.isSuccess());
        assertEquals(FailureReason.NOT_UP_TO_BOUND, ahead.getFailureReason());

        QueryResult<KeyValueIterator<Bytes, byte[]>> desc = store.query(
                RangeQuery.<Bytes, byte[]>withNoBounds().withDescendingKeys(), PositionBound.unbounded(), new QueryConfig(false));
        assertEquals(List.of("b", "a"), keys(desc.getResult()));
        assertEquals(Optional.empty(), Optional.ofNullable(store.get(b("zz"))));
    }

    @Test
    void thePositionIsCheckpointedAndReadBack() throws Exception {
        ctx.at("input", 0, 41);
        store.put(b("a"), v("1"));
        store.flush();
        ctx.commitCallback.onCommit();
        store.close();
        store = TestStores.open(new TestContext(stateDir, "app", new TaskId(0, 1)), "kv");
        assertEquals(Position.emptyPosition().withComponent("input", 0, 41), store.getPosition());
        assertArrayEquals(v("1"), store.get(b("a")), "the dataset is kept across close and init");
    }
}
