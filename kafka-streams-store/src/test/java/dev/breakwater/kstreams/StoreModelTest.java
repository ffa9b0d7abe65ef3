package dev.breakwater.kstreams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random operations against the store and a {@link TreeMap} ordered as unsigned bytes: writes,
 * batches, restored batches, deletes, point reads, ranges, reverse ranges and prefix scans, with
 * flushes to disk, merges and close/re-init interleaved. Keys are short strings over a few byte
 * values including 0x00, 0x7f, 0x80 and 0xff, so order, escaping and prefixes are all exercised.
 * Seeds 3 and 4 run over a dataset of 4 hash partitions ({@link BreakwaterStores#STORE_PARTITIONS}).
 * Seeded and reproducible.
 */
class StoreModelTest {

    private static final byte[] ALPHABET = {0x00, 0x01, 0x41, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    @TempDir
    Path stateDir;

    private TestContext context(TaskId task, int partitions) {
        TestContext ctx = new TestContext(stateDir, "model", task);
        ctx.configs.put(BreakwaterStores.STORE_PARTITIONS, Integer.toString(partitions));
        return ctx;
    }

    private static byte[] randomKey(Random rnd) {
        byte[] k = new byte[rnd.nextInt(5)];
        for (int i = 0; i < k.length; i++) {
            k[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
        }
        return k;
    }

    private static byte[] randomValue(Random rnd) {
        byte[] v = new byte[rnd.nextInt(10) == 0 ? 1500 : rnd.nextInt(40)];
        rnd.nextBytes(v);
        return v;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void storeMatchesTheModel(long seed) {
        Random rnd = new Random(seed);
        NavigableMap<Bytes, byte[]> model = new TreeMap<>();
        TaskId task = new TaskId(1, (int) seed);
        // Seeds 3 and 4 back the store with a dataset of 4 hash partitions: ranges, reverse ranges
        // and prefix scans then merge the partitions' cursors.
        int partitions = seed >= 3 ? 4 : 1;
        TestContext ctx = context(task, partitions);
        BreakwaterKeyValueStore store = TestStores.open(ctx, "m");
        assertEquals(partitions, store.engine().dataset(store.datasetName()).spec().partitions());
        try {
            for (int op = 0; op < 2500; op++) {
                int kind = rnd.nextInt(100);
                Bytes k = Bytes.wrap(randomKey(rnd));
                String what = "seed " + seed + " op " + op + " key " + k;
                if (kind < 30) {
                    byte[] v = randomValue(rnd);
                    store.put(k, v);
                    model.put(k, v);
                } else if (kind < 35) {
                    store.put(k, null);
                    model.remove(k);
                } else if (kind < 40) {
                    assertArrayEquals(model.remove(k), store.delete(k), what);
                } else if (kind < 44) {
                    byte[] v = randomValue(rnd);
                    assertArrayEquals(model.get(k), store.putIfAbsent(k, v), what);
                    model.putIfAbsent(k, v);
                } else if (kind < 48) {
                    List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                    for (int i = rnd.nextInt(20); i >= 0; i--) {
                        Bytes bk = Bytes.wrap(randomKey(rnd));
                        byte[] v = rnd.nextInt(5) == 0 ? null : randomValue(rnd);
                        batch.add(KeyValue.pair(bk, v));
                        if (v == null) {
                            model.remove(bk);
                        } else {
                            model.put(bk, v);
                        }
                    }
                    store.putAll(batch);
                } else if (kind < 51) {
                    List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
                    for (int i = rnd.nextInt(30); i >= 0; i--) {
                        byte[] bk = randomKey(rnd);
                        byte[] v = rnd.nextInt(4) == 0 ? null : randomValue(rnd);
                        batch.add(new ConsumerRecord<>("changelog", task.partition(), op * 100L + i, bk, v));
                        if (v == null) {
                            model.remove(Bytes.wrap(bk));
                        } else {
                            model.put(Bytes.wrap(bk), v);
                        }
                    }
                    restore(ctx, batch);
                } else if (kind < 65) {
                    assertArrayEquals(model.get(k), store.get(k), what);
                } else if (kind < 75) {
                    Bytes to = Bytes.wrap(randomKey(rnd));
                    Bytes from = rnd.nextInt(8) == 0 ? null : k;
                    to = rnd.nextInt(8) == 0 ? null : to;
                    boolean reverse = rnd.nextBoolean();
                    List<KeyValue<Bytes, byte[]>> want = from != null && to != null && from.compareTo(to) > 0
                            ? List.of() : entries(sub(model, from, to), reverse);
                    check(want, reverse ? store.reverseRange(from, to) : store.range(from, to), what + " range to " + to);
                } else if (kind < 83) {
                    byte[] p = Arrays.copyOf(k.get(), Math.min(k.get().length, rnd.nextInt(3)));
                    List<KeyValue<Bytes, byte[]>> want = new ArrayList<>();
                    for (Map.Entry<Bytes, byte[]> e : model.tailMap(Bytes.wrap(p), true).entrySet()) {
                        if (!startsWith(e.getKey().get(), p)) {
                            break;
                        }
                        want.add(KeyValue.pair(e.getKey(), e.getValue()));
                    }
                    check(want, store.prefixScan(p, Serdes.ByteArray().serializer()), what + " prefix " + Bytes.wrap(p));
                } else if (kind < 88) {
                    boolean reverse = rnd.nextBoolean();
                    check(entries(model, reverse), reverse ? store.reverseAll() : store.all(), what + " all");
                } else if (kind < 92) {
                    store.flush();
                } else if (kind < 94) {
                    store.engine().flushAndAwaitMerges();
                } else if (kind < 99) {
                    assertEquals(model.size(), store.approximateNumEntries(), what + " count");
                } else if (rnd.nextInt(3) == 0) { // re-init: about 8 times a run (engine opens are slow)
                    store.flush();
                    store.close();
                    ctx = context(task, 1); // the existing dataset keeps its partition count
                    store = TestStores.open(ctx, "m");
                    assertEquals(partitions, store.engine().dataset(store.datasetName()).spec().partitions());
                }
            }
            check(entries(model, false), store.all(), "seed " + seed + " final");
            assertEquals(0, store.openIterators(), "every iterator the test closed is gone");
        } finally {
            store.close();
        }
    }

    private static void restore(TestContext ctx, Collection<ConsumerRecord<byte[], byte[]>> batch) {
        ((RecordBatchingStateRestoreCallback) ctx.restoreCallback).restoreBatch(batch);
    }

    private static NavigableMap<Bytes, byte[]> sub(NavigableMap<Bytes, byte[]> m, Bytes from, Bytes to) {
        if (from == null && to == null) {
            return m;
        }
        if (from == null) {
            return m.headMap(to, true);
        }
        if (to == null) {
            return m.tailMap(from, true);
        }
        return m.subMap(from, true, to, true);
    }

    private static List<KeyValue<Bytes, byte[]>> entries(NavigableMap<Bytes, byte[]> m, boolean reverse) {
        List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
        for (Map.Entry<Bytes, byte[]> e : (reverse ? m.descendingMap() : m).entrySet()) {
            out.add(KeyValue.pair(e.getKey(), e.getValue()));
        }
        return out;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static void check(List<KeyValue<Bytes, byte[]>> want, KeyValueIterator<Bytes, byte[]> it, String what) {
        List<KeyValue<Bytes, byte[]>> got = new ArrayList<>();
        try (it) {
            it.forEachRemaining(got::add);
        }
        assertEquals(want.size(), got.size(), what + ": " + keys(want) + " vs " + keys(got));
        for (int i = 0; i < want.size(); i++) {
            assertEquals(want.get(i).key, got.get(i).key, what + " entry " + i);
            assertArrayEquals(want.get(i).value, got.get(i).value, what + " value of " + want.get(i).key);
        }
    }

    private static List<Bytes> keys(List<KeyValue<Bytes, byte[]>> kvs) {
        List<Bytes> out = new ArrayList<>();
        kvs.forEach(kv -> out.add(kv.key));
        return out;
    }
}
