package dev.breakwater.kstreams;

import static dev.breakwater.kstreams.Topologies.StoreKind.BREAKWATER;
import static dev.breakwater.kstreams.Topologies.StoreKind.ROCKSDB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.kstreams.Topologies.StoreKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same topologies with {@code TopologyTestDriver}. The driver commits after every input record
 * (a store flush, a position checkpoint and the task's checkpoint, each with an fsync), so inputs are
 * kept to a few hundred records. The same topologies on a Breakwater and on the default RocksDB
 * store: their results, stores and interactive queries must be equal. A driver runs one task; the
 * "several partitions" tests run one driver per partition (as a repartition topic would route the
 * records), the Breakwater drivers sharing one engine through {@value BreakwaterStores#ENGINE_DIR}.
 */
class TopologyTest {

    @TempDir
    Path dir;

    private static List<String> lines(long seed, int n) {
        return Topologies.lines(seed, n);
    }

    private Properties props(StoreKind kind, String appId, long cache) {
        Properties p = Topologies.props(appId, dir.resolve(kind.name()).toString(), cache);
        p.put(BreakwaterStores.CONFIG_FILE, writeSmallConfig().toString());
        return p;
    }

    private Path writeSmallConfig() {
        Path f = dir.resolve("breakwater.json");
        if (!f.toFile().exists()) {
            try {
                TestStores.small().writeJson(f);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return f;
    }

    /** Runs the word count on {@code kind}; returns the store's contents and the last output per word. */
    private Map<String, Long> runWordCount(StoreKind kind, List<String> lines, long cache, Map<String, Long> lastOutput) {
        Topology t = Topologies.wordCount(Topologies.supplier(kind, Topologies.COUNTS, null));
        try (TopologyTestDriver driver = new TopologyTestDriver(t, props(kind, "wc", cache))) {
            TestInputTopic<String, String> in = driver.createInputTopic(Topologies.LINES, new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic(Topologies.COUNTS, new StringDeserializer(), new LongDeserializer());
            for (int i = 0; i < lines.size(); i++) {
                in.pipeInput("line" + i, lines.get(i));
            }
            lastOutput.putAll(out.readKeyValuesToMap());
            return contents(driver.getKeyValueStore(Topologies.COUNTS), Function.identity());
        }
    }

    private static <V, R> Map<String, R> contents(KeyValueStore<String, V> store, Function<V, R> value) {
        Map<String, R> m = new TreeMap<>();
        try (KeyValueIterator<String, V> it = store.all()) {
            it.forEachRemaining(kv -> m.put(kv.key, value.apply(kv.value)));
        }
        return m;
    }

    @Test
    void wordCountEqualsRocksDb() {
        List<String> lines = lines(1, 200);
        for (long cache : new long[] {0, 1 << 20}) { // every update reaches the store; or a record cache in front
            Map<String, Long> bwOut = new TreeMap<>();
            Map<String, Long> rocksOut = new TreeMap<>();
            Map<String, Long> bw = runWordCount(BREAKWATER, lines, cache, bwOut);
            Map<String, Long> rocks = runWordCount(ROCKSDB, lines, cache, rocksOut);
            assertTrue(bw.size() > 50, "a real vocabulary: " + bw.size());
            assertEquals(rocks, bw, "store contents, cache " + cache);
            assertEquals(rocksOut, bwOut, "last output per word, cache " + cache);
            assertEquals(bw, bwOut, "the output agrees with the store");
        }
        assertEquals(0, EngineRegistry.openEngines(), "closing the driver closed the engine");
    }

    /** Runs the partitioned {@code topology} on {@code kind}: one driver per partition; returns the union of the stores. */
    private <V> Map<String, String> runPartitioned(StoreKind kind, int partitions, Function<StoreKind, Topology> topology,
                                                   String inputTopic, List<KeyValue<String, V>> input,
                                                   org.apache.kafka.common.serialization.Serializer<V> valueSerializer,
                                                   String storeName) {
        List<TopologyTestDriver> drivers = new ArrayList<>();
        try {
            for (int p = 0; p < partitions; p++) {
                Properties props = props(kind, "part" + p, 0);
                props.put(BreakwaterStores.ENGINE_DIR, dir.resolve(kind.name() + "-engine").toString());
                drivers.add(new TopologyTestDriver(topology.apply(kind), props));
            }
            if (kind == BREAKWATER) {
                assertEquals(1, EngineRegistry.openEngines(), "every partition's store in one engine");
            }
            List<TestInputTopic<String, V>> ins = new ArrayList<>();
            for (TopologyTestDriver d : drivers) {
                ins.add(d.createInputTopic(inputTopic, new StringSerializer(), valueSerializer));
            }
            for (KeyValue<String, V> kv : input) {
                ins.get(Math.floorMod(kv.key.hashCode(), partitions)).pipeInput(kv.key, kv.value);
            }
            Map<String, String> union = new TreeMap<>();
            for (TopologyTestDriver d : drivers) {
                Map<String, String> part = contents(d.<String, Object>getKeyValueStore(storeName), String::valueOf);
                for (String k : part.keySet()) {
                    assertFalse(union.containsKey(k), "a key lives in one partition: " + k);
                }
                union.putAll(part);
            }
            return union;
        } finally {
            drivers.forEach(TopologyTestDriver::close);
        }
    }

    @Test
    void partitionedWordCountEqualsRocksDb() {
        List<KeyValue<String, String>> words = new ArrayList<>();
        for (String line : lines(2, 40)) {
            for (String w : line.split("\\W+")) {
                if (!w.isEmpty()) {
                    words.add(KeyValue.pair(w, w));
                }
            }
        }
        Function<StoreKind, Topology> t = k -> Topologies.wordCountByKey(Topologies.supplier(k, Topologies.COUNTS, null));
        Map<String, String> bw = runPartitioned(BREAKWATER, 4, t, Topologies.WORDS, words, new StringSerializer(), Topologies.COUNTS);
        Map<String, String> rocks = runPartitioned(ROCKSDB, 4, t, Topologies.WORDS, words, new StringSerializer(), Topologies.COUNTS);
        assertEquals(rocks, bw);
        assertEquals(0, EngineRegistry.openEngines());
    }

    @Test
    void partitionedAggregationEqualsRocksDb() {
        Random rnd = new Random(3);
        List<KeyValue<String, Long>> purchases = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            purchases.add(KeyValue.pair("user" + rnd.nextInt(700), (long) rnd.nextInt(100_000)));
        }
        Function<StoreKind, Topology> t = k -> Topologies.purchaseTotals(Topologies.supplier(k, Topologies.TOTALS, null));
        Map<String, String> bw = runPartitioned(BREAKWATER, 3, t, Topologies.PURCHASES, purchases, new LongSerializer(), Topologies.TOTALS);
        Map<String, String> rocks = runPartitioned(ROCKSDB, 3, t, Topologies.PURCHASES, purchases, new LongSerializer(), Topologies.TOTALS);
        assertTrue(bw.size() > 150, "most users: " + bw.size());
        assertEquals(rocks, bw);
    }

    /**
     * Range, reverse range and prefix scans and IQv2 key and range queries through the driver's
     * stores. The timestamped Breakwater store: Kafka 3.9's timestamp adapter around a plain store
     * answers a RangeQuery only for RocksDB iterators.
     */
    @Test
    void scansAndInteractiveQueriesEqualRocksDb() {
        List<String> lines = lines(4, 200);
        List<List<String>> results = new ArrayList<>();
        for (StoreKind kind : List.of(StoreKind.BREAKWATER_TIMESTAMPED, ROCKSDB)) {
            Topology t = Topologies.wordCount(Topologies.supplier(kind, Topologies.COUNTS, null));
            try (TopologyTestDriver driver = new TopologyTestDriver(t, props(kind, "iq", 0))) {
                TestInputTopic<String, String> in = driver.createInputTopic(Topologies.LINES, new StringSerializer(), new StringSerializer());
                for (String line : lines) {
                    in.pipeInput(line);
                }
                KeyValueStore<String, Long> store = driver.getKeyValueStore(Topologies.COUNTS);
                List<String> r = new ArrayList<>();
                collect(r, "range", store.range("b", "cc"));
                collect(r, "reverseRange", store.reverseRange("b", "cc"));
                collect(r, "prefix", store.prefixScan("ab", new StringSerializer()));
                collect(r, "prefix", store.prefixScan("f", new StringSerializer()));
                collect(r, "reverseAll", store.reverseAll());
                if (kind != ROCKSDB) { // RocksDB's count is an estimate; Breakwater counts small stores exactly
                    assertEquals(contents(store, Function.identity()).size(), store.approximateNumEntries());
                }

                StateStore raw = driver.getAllStateStores().get(Topologies.COUNTS); // the metered store, as IQv2 reaches it
                // In 3.9 the metered timestamped store answers KeyQuery and RangeQuery with plain values.
                QueryResult<Object> key = raw.query(KeyQuery.withKey("ab"), PositionBound.unbounded(), new QueryConfig(false));
                assertTrue(key.isSuccess(), kind + ": " + key);
                r.add("key ab " + plain(key.getResult()));
                QueryResult<KeyValueIterator<String, Object>> range = raw.query(
                        RangeQuery.<String, Object>withRange("c", "d").withDescendingKeys(),
                        PositionBound.unbounded(), new QueryConfig(false));
                assertTrue(range.isSuccess(), kind + ": " + range);
                try (KeyValueIterator<String, Object> it = range.getResult()) {
                    it.forEachRemaining(kv -> r.add("rq " + kv.key + "=" + plain(kv.value)));
                }
                results.add(r);
            }
        }
        assertTrue(results.get(0).size() > 50, "the queries found something: " + results.get(0).size());
        assertEquals(results.get(1), results.get(0));
    }

    private static Object plain(Object v) {
        return v instanceof ValueAndTimestamp<?> vt ? vt.value() : v;
    }

    private static void collect(List<String> out, String what, KeyValueIterator<String, Long> it) {
        try (it) {
            it.forEachRemaining(kv -> out.add(what + " " + kv.key + "=" + kv.value));
        }
    }

    /**
     * A driver's close wipes its task directories (as {@code KafkaStreams.cleanUp()}), so a new driver
     * starts empty on both stores. What Kafka Streams would replay into it is the changelog: fed to a
     * store's restore callback, it rebuilds the first driver's state exactly.
     */
    @Test
    void restoringTheChangelogRebuildsTheStateAfterTheDriverIsReopened() {
        List<String> lines = lines(5, 200);
        Map<String, Long> before;
        List<TestRecord<byte[], byte[]>> changelog;
        Properties props = props(BREAKWATER, "restore", 0);
        Topology t = Topologies.wordCount(Topologies.supplier(BREAKWATER, Topologies.COUNTS, TestStores.small()));
        try (TopologyTestDriver driver = new TopologyTestDriver(t, props)) {
            TestInputTopic<String, String> in = driver.createInputTopic(Topologies.LINES, new StringSerializer(), new StringSerializer());
            lines.forEach(in::pipeInput);
            before = contents(driver.getKeyValueStore(Topologies.COUNTS), Function.identity());
            changelog = driver.createOutputTopic("restore-" + Topologies.COUNTS + "-changelog",
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()).readRecordsToList();
        }
        assertTrue(changelog.size() > before.size(), "every update was logged: " + changelog.size());
        try (TopologyTestDriver reopened = new TopologyTestDriver(t, props)) {
            KeyValueStore<String, Long> store = reopened.getKeyValueStore(Topologies.COUNTS);
            assertEquals(Map.of(), contents(store, Function.identity()), "the wiped task starts empty");
        }

        TestContext ctx = new TestContext(dir.resolve("BREAKWATER"), "restore", new TaskId(0, 0));
        BreakwaterKeyValueStore store = TestStores.open(ctx, Topologies.COUNTS);
        try {
            List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
            long offset = 0;
            for (TestRecord<byte[], byte[]> r : changelog) {
                batch.add(new ConsumerRecord<>("restore-counts-changelog", 0, offset++, r.key(), r.value()));
                if (batch.size() == 100) {
                    ((RecordBatchingStateRestoreCallback) ctx.restoreCallback).restoreBatch(batch);
                    batch = new ArrayList<>();
                }
            }
            ((RecordBatchingStateRestoreCallback) ctx.restoreCallback).restoreBatch(batch);
            Map<String, Long> after = new TreeMap<>();
            try (var it = store.all()) {
                it.forEachRemaining(kv -> after.put(Serdes.String().deserializer().deserialize("", kv.key.get()),
                        Serdes.Long().deserializer().deserialize("", kv.value)));
            }
            assertEquals(before, after);
        } finally {
            store.close();
        }
    }
}
