package dev.breakwater.kstreams;

import dev.breakwater.common.config.StorageConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The topologies the tests and bench's Kafka Streams benchmark run on a Breakwater or a RocksDB
 * store: a word count and a windowless aggregation. Thread safety: stateless.
 */
public final class Topologies {

    /** Which store a topology materializes its state in. */
    public enum StoreKind {
        /** {@link BreakwaterStores#persistentKeyValueStore}: a plain store the DSL wraps in its timestamp adapter. */
        BREAKWATER,
        /** {@link BreakwaterStores#persistentTimestampedKeyValueStore}. */
        BREAKWATER_TIMESTAMPED,
        /** Kafka's default, {@code Stores.persistentKeyValueStore} (RocksDB). */
        ROCKSDB
    }

    public static final String LINES = "lines";
    public static final String WORDS = "words";
    public static final String COUNTS = "counts";
    public static final String PURCHASES = "purchases";
    public static final String TOTALS = "totals";

    private static final String[] VOCABULARY = buildVocabulary();

    private Topologies() {
    }

    private static String[] buildVocabulary() {
        Random rnd = new Random(7);
        String[] words = new String[400];
        for (int i = 0; i < words.length; i++) {
            StringBuilder w = new StringBuilder();
            for (int j = 1 + rnd.nextInt(6); j > 0; j--) {
                w.append((char) ('a' + rnd.nextInt(6)));
            }
            words[i] = w.toString();
        }
        return words;
    }

    /** {@code n} lines of 1-12 words from a 400-word vocabulary, skewed towards its first words; seeded. */
    public static List<String> lines(long seed, int n) {
        Random rnd = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder line = new StringBuilder();
            for (int j = 1 + rnd.nextInt(12); j > 0; j--) {
                int idx = (int) Math.min(VOCABULARY.length - 1, Math.abs(rnd.nextGaussian()) * 60);
                line.append(VOCABULARY[idx]).append(j % 3 == 0 ? ", " : " ");
            }
            out.add(line.toString());
        }
        return out;
    }

    /** A store supplier of {@code kind}; {@code config} is the Breakwater engine's (null: the default). */
    public static KeyValueBytesStoreSupplier supplier(StoreKind kind, String name, StorageConfig config) {
        return switch (kind) {
            case BREAKWATER -> config == null ? BreakwaterStores.persistentKeyValueStore(name)
                    : BreakwaterStores.persistentKeyValueStore(name, config);
            case BREAKWATER_TIMESTAMPED -> config == null ? BreakwaterStores.persistentTimestampedKeyValueStore(name)
                    : BreakwaterStores.persistentTimestampedKeyValueStore(name, config);
            case ROCKSDB -> Stores.persistentKeyValueStore(name);
        };
    }

    /** Lines of text (any key) are split into lower-case words and counted in store {@value #COUNTS}. */
    public static Topology wordCount(KeyValueBytesStoreSupplier store) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(LINES, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                .filter((k, w) -> !w.isEmpty())
                .groupBy((k, w) -> w, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(store).withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(COUNTS, Produced.with(Serdes.String(), Serdes.Long()));
        return b.build();
    }

    /**
     * Words already keyed by word (what the repartition topic of {@link #wordCount} carries) counted
     * in store {@value #COUNTS}: one partition's task of a partitioned word count.
     */
    public static Topology wordCountByKey(KeyValueBytesStoreSupplier store) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(WORDS, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(store).withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                .toStream()
                .to(COUNTS, Produced.with(Serdes.String(), Serdes.Long()));
        return b.build();
    }

    /**
     * Purchases (user → amount in cents) aggregated per user into "count,sum,max" in store
     * {@value #TOTALS}: a windowless aggregation whose state is read and rewritten on every record.
     */
    public static Topology purchaseTotals(KeyValueBytesStoreSupplier store) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(PURCHASES, Consumed.with(Serdes.String(), Serdes.Long()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                .aggregate(() -> "0,0,0", (user, amount, agg) -> {
                    String[] f = agg.split(",");
                    return (Long.parseLong(f[0]) + 1) + "," + (Long.parseLong(f[1]) + amount) + ","
                            + Math.max(Long.parseLong(f[2]), amount);
                }, Materialized.<String, String>as(store)
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                .toStream()
                .to(TOTALS, Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }

    /** Driver properties: application {@code appId}, state in {@code stateDir}, caching as given. */
    public static Properties props(String appId, String stateDir, long cacheBytes) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, cacheBytes);
        return p;
    }
}
