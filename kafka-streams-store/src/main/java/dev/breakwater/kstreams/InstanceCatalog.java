package dev.breakwater.kstreams;

import static dev.breakwater.common.key.FieldType.STRING;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an instance's engine knows about its Kafka Streams stores, kept in the engine itself in the
 * dataset {@value DatasetNames#CATALOG} (string key, string value):
 * <ul>
 *   <li>{@code engine-id} → a UUID chosen when the engine is first used; store markers name it, so a
 *       marker left over from another (deleted and recreated) engine directory is recognised;</li>
 *   <li>{@code store/<dataset>} → the absolute path of the store's marker
 *       ({@code <task dir>/<store>.breakwater}).</li>
 * </ul>
 * A store registers its dataset here before creating it, so every store dataset is named by a row.
 * {@link #sweep} drops the datasets whose marker Kafka Streams has deleted with their task directory
 * (a task that moved away and was cleaned up, a wiped task, {@code KafkaStreams.cleanUp()}).
 *
 * <p>Thread safety: the engine's operations are thread-safe; {@link EngineRegistry} calls
 * {@link #sweep} only while no store of the instance is open.
 */
final class InstanceCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceCatalog.class);
    private static final String ENGINE_ID = "engine-id";
    private static final String STORE = "store/";

    private final StorageEngine engine;
    private final Dataset rows;
    private final String engineId;

    private InstanceCatalog(StorageEngine engine, Dataset rows, String engineId) {
        this.engine = engine;
        this.rows = rows;
        this.engineId = engineId;
    }

    static InstanceCatalog open(StorageEngine engine) {
        Dataset rows = engine.createDatasetIfAbsent(DatasetSpec.builder(DatasetNames.CATALOG)
                .field("k", STRING).field("v", STRING).primaryKey("k").build());
        Tuple id = rows.get(Key.of(ENGINE_ID));
        if (id == null) {
            id = Tuple.of(ENGINE_ID, UUID.randomUUID().toString());
            rows.insert(id);
        }
        return new InstanceCatalog(engine, rows, id.getString(1));
    }

    String engineId() {
        return engineId;
    }

    /** Records that {@code dataset} belongs to the store whose marker is at {@code marker}. */
    void register(String dataset, Path marker) {
        rows.upsert(Tuple.of(STORE + dataset, marker.toAbsolutePath().normalize().toString()));
    }

    /**
     * Drops every store dataset whose marker is gone or names another engine or
     * dataset, and its row; also drops store datasets no row names (none should exist). Requires: no
     * store of this engine is open.
     *
     * @return the names of the datasets dropped
     */
    List<String> sweep() throws IOException {
        List<String> dropped = new ArrayList<>();
        Set<String> named = new HashSet<>();
        List<Tuple> all = new ArrayList<>();
        try (Cursor<Tuple> c = rows.scan(KeyRange.prefix(Key.of(STORE)))) {
            while (c.hasNext()) {
                all.add(c.next());
            }
        }
        Set<String> existing = new HashSet<>(engine.datasetNames());
        for (Tuple row : all) {
            String dataset = row.getString(0).substring(STORE.length());
            StoreMarker marker = StoreMarker.read(Path.of(row.getString(1)));
            if (marker != null && marker.engineId().equals(engineId) && marker.dataset().equals(dataset)) {
                named.add(dataset);
                continue;
            }
            if (existing.contains(dataset)) {
                engine.dropDataset(dataset);
                dropped.add(dataset);
            }
            rows.delete(Key.of(row.getString(0)));
        }
        for (String name : existing) {
            if (name.startsWith(DatasetNames.STORE_PREFIX) && !named.contains(name) && !dropped.contains(name)) {
                engine.dropDataset(name);
                dropped.add(name);
            }
        }
        if (!dropped.isEmpty()) {
            LOG.info("dropped {} store dataset(s) whose task directory Kafka Streams removed: {}", dropped.size(), dropped);
        }
        return dropped;
    }
}
