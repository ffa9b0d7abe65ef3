package dev.breakwater.kstreams;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.kstreams.Topologies.StoreKind;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Word-count throughput of Kafka Streams on Breakwater and on the default RocksDB store at the same
 * memory (docs/kafka-streams.md, "Benchmark"). Two measurements per store:
 * <ol>
 *   <li><b>store</b>: the word count's state access (get the count, put count + 1) through the
 *       metered store Kafka Streams builds (no cache, no changelog), over {@code tasks} tasks — one
 *       store each, all in one Breakwater engine or one bounded RocksDB cache
 *       ({@link BoundedRocksDbConfig}) — with a flush of every store each {@code commit} updates,
 *       as a commit interval would;</li>
 *   <li><b>driver</b>: the whole word-count topology in {@code TopologyTestDriver} (one task,
 *       10 MB record cache). The driver commits after every input record, so this one is bound by
 *       the per-commit flush and checkpoint fsyncs of both stores, not by the stores' data path.</li>
 * </ol>
 * Usage: {@code WordCountBenchmark <out-dir> [memoryMiB keys updates tasks commit driverLines storePartitions]}:
 * {@code driverLines} 0 skips the driver runs; {@code storePartitions} (default 1) is the
 * application's {@code breakwater.store.partitions}, the hash partitions of each Breakwater store's
 * dataset. The system property {@code wordcount.stores} (default {@code BREAKWATER,ROCKSDB}) picks
 * the stores measured. Writes {@code kafka-streams-wordcount.json} and {@code .png}. Not a unit test: a driver with a main.
 */
public final class WordCountBenchmark {

    /** {@code breakwater.store.partitions} of the Breakwater runs (set once by {@link #main}). */
    private static int storePartitions = 1;

    private WordCountBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/kstreams-bench");
        long memory = (args.length > 1 ? Long.parseLong(args[1]) : 64) << 20;
        int keys = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        int updates = args.length > 3 ? Integer.parseInt(args[3]) : 2_000_000;
        int tasks = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        int commit = args.length > 5 ? Integer.parseInt(args[5]) : 20_000;
        int driverLines = args.length > 6 ? Integer.parseInt(args[6]) : 2_000;
        storePartitions = args.length > 7 ? Integer.parseInt(args[7]) : 1;
        List<StoreKind> kinds = new ArrayList<>();
        for (String k : System.getProperty("wordcount.stores", "BREAKWATER,ROCKSDB").split(",")) {
            kinds.add(StoreKind.valueOf(k.trim()));
        }
        Files.createDirectories(out);
        Path scratch = Files.createTempDirectory("kstreams-bench");

        List<Map<String, Object>> results = new ArrayList<>();
        for (StoreKind kind : kinds) {
            results.add(storeRun(kind, scratch.resolve("store-" + kind), memory, keys, updates, tasks, commit));
        }
        for (StoreKind kind : driverLines > 0 ? kinds : List.<StoreKind>of()) {
            results.add(driverRun(kind, scratch.resolve("driver-" + kind), memory, driverLines));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("benchmark", "kafka-streams word count, Breakwater vs RocksDB at equal memory");
        doc.put("args", List.of(out.toString(), memory >> 20, keys, updates, tasks, commit, driverLines, storePartitions));
        doc.put("stores", kinds);
        doc.put("results", results);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("kafka-streams-wordcount.json").toFile(), doc);
        plot(results, out.resolve("kafka-streams-wordcount"));
        System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    }

    static StorageConfig breakwaterConfig(long memory) {
        return StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, memory)
                .set(ConfigOptions.WRITE_MEMORY, memory / 4)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.max(1L << 20, memory / 32))
                .set(ConfigOptions.SIMULATED_CACHE, memory)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .build();
    }

    private static Properties props(StoreKind kind, Path dir, long memory) {
        Properties p = Topologies.props("wc-bench", dir.toString(), 0);
        if (kind == StoreKind.BREAKWATER) {
            p.put("breakwater.store.partitions", Integer.toString(storePartitions));
        }
        if (kind == StoreKind.ROCKSDB) {
            BoundedRocksDbConfig.configure(memory);
            p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbConfig.class);
        }
        return p;
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static Map<String, Object> storeRun(StoreKind kind, Path dir, long memory, int keys, int updates, int tasks,
                                                int commit) {
        Properties props = props(kind, dir, memory);
        List<KeyValueStore<String, Long>> stores = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            File taskDir = dir.resolve("wc-bench").resolve("0_" + t).toFile();
            taskDir.mkdirs();
            MockProcessorContext<Object, Object> ctx = new MockProcessorContext<>(props, new TaskId(0, t), taskDir);
            KeyValueStore<String, Long> store = Stores.keyValueStoreBuilder(
                            Topologies.supplier(kind, Topologies.COUNTS, breakwaterConfig(memory)), Serdes.String(), Serdes.Long())
                    .withLoggingDisabled().withCachingDisabled().build();
            store.init(ctx.getStateStoreContext(), store);
            stores.add(store);
        }
        SplittableRandom rnd = new SplittableRandom(42);
        double loadBefore = load();
        long start = System.nanoTime();
        for (int i = 1; i <= updates; i++) {
            int id = (int) (keys * Math.pow(rnd.nextDouble(), 3)); // skewed: low ids far more often
            String word = "w" + id;
            KeyValueStore<String, Long> s = stores.get(Math.floorMod(word.hashCode(), tasks));
            Long c = s.get(word);
            s.put(word, c == null ? 1L : c + 1);
            if (i % commit == 0) {
                stores.forEach(KeyValueStore::flush);
            }
        }
        stores.forEach(KeyValueStore::flush);
        double seconds = (System.nanoTime() - start) / 1e9;
        long distinct = 0;
        for (KeyValueStore<String, Long> s : stores) {
            distinct += s.approximateNumEntries();
        }
        stores.forEach(KeyValueStore::close);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("mode", "store");
        r.put("store", kind.name());
        r.put("memoryBytes", memory);
        r.put("tasks", tasks);
        r.put("storePartitions", kind == StoreKind.BREAKWATER ? storePartitions : 1);
        r.put("keys", keys);
        r.put("distinctKeysApprox", distinct);
        r.put("updates", updates);
        r.put("commitEvery", commit);
        r.put("seconds", seconds);
        r.put("updatesPerSecond", updates / seconds);
        r.put("loadAverageBefore", loadBefore);
        r.put("loadAverageAfter", load());
        System.err.println(r);
        return r;
    }

    private static Map<String, Object> driverRun(StoreKind kind, Path dir, long memory, int lines) throws IOException {
        Properties props = props(kind, dir, memory);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 10L << 20);
        List<String> input = Topologies.lines(9, lines);
        long words = input.stream().mapToLong(l -> l.split("\\W+").length).sum();
        double loadBefore = load();
        long start = System.nanoTime();
        try (TopologyTestDriver driver = new TopologyTestDriver(
                Topologies.wordCount(Topologies.supplier(kind, Topologies.COUNTS, breakwaterConfig(memory))), props)) {
            TestInputTopic<String, String> in = driver.createInputTopic(Topologies.LINES, new StringSerializer(), new StringSerializer());
            input.forEach(in::pipeInput);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("mode", "driver");
        r.put("store", kind.name());
        r.put("memoryBytes", memory);
        r.put("lines", lines);
        r.put("words", words);
        r.put("seconds", seconds);
        r.put("linesPerSecond", lines / seconds);
        r.put("wordsPerSecond", words / seconds);
        r.put("loadAverageBefore", loadBefore);
        r.put("loadAverageAfter", load());
        System.err.println(r);
        return r;
    }

    private static void plot(List<Map<String, Object>> results, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(450)
                .title("Kafka Streams word count at equal memory").xAxisTitle("measurement").yAxisTitle("updates (words) per second").build();
        for (StoreKind kind : List.of(StoreKind.BREAKWATER, StoreKind.ROCKSDB)) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Map<String, Object> r : results) {
                if (r.get("store").equals(kind.name())) {
                    boolean store = r.get("mode").equals("store");
                    x.add(store ? "store access (get+put)" : "TopologyTestDriver (commit per record)");
                    y.add((Double) r.get(store ? "updatesPerSecond" : "wordsPerSecond"));
                }
            }
            if (!y.isEmpty()) {
                chart.addSeries(kind.name(), x, y);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
