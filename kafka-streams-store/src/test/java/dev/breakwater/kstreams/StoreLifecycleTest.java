package dev.breakwater.kstreams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One engine per instance, what survives a store's close, and what Kafka Streams' wipes of a task
 * directory do to the dataset: the cases of docs/kafka-streams.md, "Lifecycle".
 */
class StoreLifecycleTest {

    @TempDir
    Path stateDir;
    private final List<BreakwaterKeyValueStore> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(BreakwaterKeyValueStore::close);
        assertEquals(0, EngineRegistry.openEngines());
    }

    private BreakwaterKeyValueStore open(TestContext ctx, String name) {
        BreakwaterKeyValueStore s = TestStores.open(ctx, name);
        opened.add(s);
        return s;
    }

    private TestContext ctx(int partition) {
        return new TestContext(stateDir, "app", new TaskId(0, partition));
    }

    private static Bytes b(String s) {
        return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void everyStoreOfEveryTaskSharesOneEngine() {
        List<BreakwaterKeyValueStore> stores = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            stores.add(open(ctx(p), "counts"));
            stores.add(open(ctx(p), "totals"));
        }
        for (BreakwaterKeyValueStore s : stores) {
            assertSame(stores.get(0).engine(), s.engine());
        }
        assertEquals(1, EngineRegistry.openEngines());
        assertEquals(8, stores.stream().map(BreakwaterKeyValueStore::datasetName).distinct().count(), "one dataset each");
        stores.get(0).put(b("k"), new byte[] {1});
        assertNull(stores.get(2).get(b("k")), "tasks do not see each other's data");
        for (int i = 0; i < 7; i++) {
            stores.get(i).close();
        }
        assertEquals(1, EngineRegistry.openEngines(), "open while a store holds it");
        stores.get(7).close();
        assertEquals(0, EngineRegistry.openEngines(), "the last close closes the engine");
    }

    @Test
    void aStoreWithAnotherConfigurationIsRefused() {
        open(ctx(0), "a");
        TestContext other = ctx(1);
        BreakwaterKeyValueStore s = (BreakwaterKeyValueStore) BreakwaterStores.persistentKeyValueStore("b",
                TestStores.small().toBuilder().set(ConfigOptions.WRITE_MEMORY, 4L << 20).build()).get();
        ProcessorStateException e = assertThrows(ProcessorStateException.class, () -> s.init(other, s));
        assertTrue(e.getMessage().contains("same StorageConfig"), e.getMessage());
        assertFalse(s.isOpen());
    }

    @Test
    void aTaskThatMovesAwayAndComesBackKeepsItsState() {
        BreakwaterKeyValueStore s = open(ctx(3), "counts");
        s.put(b("k"), new byte[] {7});
        s.flush();
        s.close(); // the task migrates away: the dataset is kept
        BreakwaterKeyValueStore again = open(ctx(3), "counts");
        assertArrayEquals(new byte[] {7}, again.get(b("k")), "no restoration needed for what was checkpointed");
    }

    /**
     * Exactly-once: writes of a Kafka transaction that aborted reach the store but never the
     * committed changelog. After a crash Kafka Streams finds no checkpoint, declares the task
     * corrupted and deletes its directory; the store must then start empty and hold exactly the
     * committed changelog once restored.
     */
    @Test
    void aWipedTaskDirectoryStartsTheDatasetEmptyAndRestoreRebuildsIt() throws IOException {
        TestContext c = ctx(1);
        BreakwaterKeyValueStore s = open(c, "counts");
        List<ConsumerRecord<byte[], byte[]>> committed = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            byte[] k = ("k" + (i % 120)).getBytes(StandardCharsets.UTF_8);
            byte[] v = i % 17 == 0 ? null : ("v" + i).getBytes(StandardCharsets.UTF_8);
            s.put(Bytes.wrap(k), v);
            committed.add(new ConsumerRecord<>("app-counts-changelog", 1, i, k, v));
        }
        s.put(b("aborted"), new byte[] {9}); // in the store, never committed to the changelog
        s.flush();
        s.close();
        deleteTree(c.stateDir); // Kafka Streams: TaskCorruptedException -> wipe the task directory

        TestContext c2 = ctx(1);
        BreakwaterKeyValueStore restored = open(c2, "counts");
        assertEquals(0, restored.approximateNumEntries(), "the wiped task's dataset starts empty");
        ((RecordBatchingStateRestoreCallback) c2.restoreCallback).restoreBatch(committed.subList(0, 200));
        ((RecordBatchingStateRestoreCallback) c2.restoreCallback).restoreBatch(committed.subList(200, 500));
        assertNull(restored.get(b("aborted")));
        java.util.Map<Bytes, byte[]> expected = new java.util.TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : committed) {
            if (r.value() == null) {
                expected.remove(Bytes.wrap(r.key()));
            } else {
                expected.put(Bytes.wrap(r.key()), r.value());
            }
        }
        List<Bytes> keys = new ArrayList<>();
        try (var it = restored.all()) {
            it.forEachRemaining(kv -> {
                keys.add(kv.key);
                assertArrayEquals(expected.get(kv.key), kv.value, kv.key.toString());
            });
        }
        assertEquals(new ArrayList<>(expected.keySet()), keys);
    }

    /**
     * At-least-once: after a restart Kafka Streams restores from the checkpointed offset on; the
     * store must hold everything up to it (flush made it durable) and replaying the rest again
     * (some of it already applied) ends in the same state.
     */
    @Test
    void replayAfterTheCheckpointConvergesToTheChangelogsState() {
        TestContext c = ctx(2);
        BreakwaterKeyValueStore s = open(c, "counts");
        List<ConsumerRecord<byte[], byte[]>> changelog = new ArrayList<>();
        java.util.Map<Bytes, byte[]> expected = new java.util.TreeMap<>();
        for (int i = 0; i < 400; i++) {
            byte[] k = ("k" + (i % 50)).getBytes(StandardCharsets.UTF_8);
            byte[] v = ("v" + i).getBytes(StandardCharsets.UTF_8);
            s.put(Bytes.wrap(k), v);
            changelog.add(new ConsumerRecord<>("app-counts-changelog", 2, i, k, v));
            expected.put(Bytes.wrap(k), v);
            if (i == 250) {
                s.flush(); // Kafka: flush, then write offset 250 to the checkpoint
            }
        }
        s.close();
        TestContext c2 = ctx(2);
        BreakwaterKeyValueStore again = open(c2, "counts");
        ((RecordBatchingStateRestoreCallback) c2.restoreCallback).restoreBatch(changelog.subList(251, 400));
        for (var e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), again.get(e.getKey()), e.getKey().toString());
        }
        assertEquals(expected.size(), again.approximateNumEntries());
    }

    /** The engine directory was lost but the task directory (and its checkpoint) was not. */
    @Test
    void aMarkerOfAnotherEngineMakesKafkaRestoreFromTheStart() throws IOException {
        TestContext c = ctx(0);
        BreakwaterKeyValueStore s = open(c, "counts");
        s.put(b("k"), new byte[] {1});
        s.close();
        opened.clear();
        Path checkpoint = c.stateDir.resolve(BreakwaterKeyValueStore.KAFKA_CHECKPOINT_FILE);
        Files.writeString(checkpoint, "0\n1\napp-counts-changelog 0 42\n");
        deleteTree(stateDir.resolve("app").resolve(BreakwaterKeyValueStore.ENGINE_DIR));

        BreakwaterKeyValueStore fresh = open(ctx(0), "counts");
        assertFalse(Files.exists(checkpoint), "the checkpoint promised state the engine does not have");
        assertNull(fresh.get(b("k")));
    }

    @Test
    void datasetsOfTaskDirectoriesKafkaRemovedAreDroppedAtTheNextEngineOpen() throws IOException {
        BreakwaterKeyValueStore keep = open(ctx(0), "counts");
        BreakwaterKeyValueStore gone = open(ctx(1), "counts");
        String goneDataset = gone.datasetName();
        keep.put(b("k"), new byte[] {1});
        gone.put(b("k"), new byte[] {2});
        keep.close();
        gone.close();
        opened.clear();
        deleteTree(stateDir.resolve("app").resolve("0_1")); // the state cleaner removed a task that moved away

        BreakwaterKeyValueStore reopened = open(ctx(0), "counts");
        assertFalse(reopened.engine().datasetNames().contains(goneDataset), "swept");
        assertArrayEquals(new byte[] {1}, reopened.get(b("k")));
    }

    @Test
    void datasetNamesAreValidDistinctAndStable() {
        String a = DatasetNames.of("app", "KSTREAM-AGGREGATE-STATE-STORE-0000000003", "0_12");
        assertEquals(a, DatasetNames.of("app", "KSTREAM-AGGREGATE-STATE-STORE-0000000003", "0_12"));
        assertTrue(a.matches("[A-Za-z][A-Za-z0-9_]{0,63}"), a);
        String longName = "x".repeat(200);
        assertTrue(DatasetNames.of("app", longName, "1_1").length() <= 64);
        assertFalse(DatasetNames.of("app", longName, "1_1").equals(DatasetNames.of("app", longName + "y", "1_1")));
        assertFalse(DatasetNames.of("app", "a-b", "0_1").equals(DatasetNames.of("app", "a.b", "0_1")));
        assertFalse(DatasetNames.of("app1", "s", "0_1").equals(DatasetNames.of("app2", "s", "0_1")));
    }
}
