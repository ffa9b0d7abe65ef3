package dev.breakwater.kstreams;

import static dev.breakwater.common.key.FieldType.BYTES;

import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineClosedException;
import dev.breakwater.txn.EngineLayout;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.StorageException;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.TransactionTooLargeException;
import dev.breakwater.txn.Tuple;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.OffsetCheckpoint;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent Kafka Streams {@code KeyValueStore<Bytes, byte[]>} over one Breakwater dataset
 * {@code (k BYTES primary key, v BYTES)} in the engine shared by every store of the application
 * instance ({@link EngineRegistry}). Keys are ordered as unsigned bytes, as Kafka's
 * {@link Bytes#BYTES_LEXICO_COMPARATOR} and RocksDB order them.
 *
 * <h2>Lifecycle</h2>
 * {@code init} takes a lease on the engine, then decides from the store's marker file in the task
 * directory ({@link StoreMarker}) whether the dataset holds this task's local state: no marker means
 * Kafka Streams wiped (or never had) the task directory, so the dataset starts empty; a marker of
 * another engine means the local state is gone, so the task's {@code .checkpoint} is deleted and
 * Kafka restores from the start of the changelog. {@code close} closes open iterators and returns
 * the lease; the dataset is kept, so a task that comes back finds its state and restores only the
 * changelog after its checkpoint. The full reasoning: docs/kafka-streams.md.
 *
 * <h2>Durability</h2>
 * Every write is one Breakwater transaction ({@code putAll} and each restored batch: one, or
 * several when they pass {@code max-transaction-size}). With the default {@code ASYNC} durability a
 * write is in the log but not yet synced; {@link #flush()}, which Kafka Streams calls before it
 * writes the changelog offsets to the checkpoint file, syncs the log, so everything up to a
 * checkpointed offset survives a crash and only the changelog after it is replayed.
 *
 * <h2>Interactive queries</h2>
 * {@link #query} answers {@code KeyQuery} and {@code RangeQuery} (and the other basic queries of
 * Kafka's {@code StoreQueryUtils}) with position bounds; the {@link Position} advances with every
 * write and restored record and is checkpointed to {@code <task dir>/<store>.position}.
 *
 * <p>Invariants: (1) while {@code open}, {@code lease}, {@code dataset} and {@code context} are
 * set; (2) every iterator handed out and not closed is in {@code openIterators}; (3) writes and
 * their position update happen together under the {@code position} monitor.
 *
 * <p>Not extended outside this package ({@link BreakwaterTimestampedKeyValueStore} only marks it).
 *
 * <p>Thread safety: writes come from the task's stream thread; reads (interactive queries) may come
 * from any thread: the engine is thread-safe and the position is guarded by its own monitor.
 */
public class BreakwaterKeyValueStore implements KeyValueStore<Bytes, byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(BreakwaterKeyValueStore.class);
    /** Kafka Streams' checkpoint file in a task directory (StateManagerUtil.CHECKPOINT_FILE_NAME). */
    static final String KAFKA_CHECKPOINT_FILE = ".checkpoint";
    /** Where the engine lives by default, under the application's state directory. */
    static final String ENGINE_DIR = "breakwater";
    /** Stores estimated below this many entries are counted exactly by {@link #approximateNumEntries()}. */
    private static final long EXACT_COUNT_LIMIT = 100_000;
    /** A rough size of one entry in a memory component (key, value and skip-list node), for the estimate. */
    private static final long MEMORY_BYTES_PER_ENTRY_GUESS = 64;

    private final String name;
    /** Null: the application's {@value BreakwaterStores#CONFIG_FILE}, else {@link BreakwaterStores#defaultConfig()}. */
    private final StorageConfig config;
    private final Set<KeyValueIterator<Bytes, byte[]>> openIterators = Collections.synchronizedSet(new HashSet<>());
    private Position position = Position.emptyPosition();
    private OffsetCheckpoint positionCheckpoint;
    private StateStoreContext context;
    private EngineRegistry.Lease lease;
    private StorageEngine engine;
    private Dataset dataset;
    private boolean consistencyEnabled;
    private volatile boolean open;

    BreakwaterKeyValueStore(String name, StorageConfig config) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = config;
    }

    @Override
    public String name() {
        return name;
    }

    @Deprecated
    @Override
    public void init(ProcessorContext context, StateStore root) {
        if (context instanceof StateStoreContext ssc) {
            init(ssc, root);
        } else {
            throw new UnsupportedOperationException("use BreakwaterKeyValueStore#init(StateStoreContext, StateStore)");
        }
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        if (open) {
            throw new IllegalStateException("Breakwater store " + name + " is already open");
        }
        Path taskDir = context.stateDir().toPath().toAbsolutePath().normalize();
        EngineRegistry.Lease l = EngineRegistry.acquire(engineDir(context.appConfigs(), taskDir), resolveConfig(context.appConfigs()));
        try {
            this.dataset = bind(l, taskDir, context.applicationId(), context.taskId().toString(), partitions(context.appConfigs()));
        } catch (IOException e) {
            l.close();
            throw new ProcessorStateException("cannot open Breakwater store " + name + " in " + taskDir, e);
        } catch (RuntimeException e) {
            l.close();
            throw e;
        }
        this.lease = l;
        this.engine = l.engine();
        this.context = context;
        this.positionCheckpoint = new OffsetCheckpoint(new File(context.stateDir(), name + ".position"));
        this.position = StoreQueryUtils.readPositionFromCheckpoint(positionCheckpoint);
        this.consistencyEnabled = StreamsConfig.InternalConfig.getBoolean(context.appConfigs(),
                StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
        this.open = true;
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch,
                () -> StoreQueryUtils.checkpointPosition(positionCheckpoint, position));
    }

    private StorageConfig resolveConfig(Map<String, Object> appConfigs) {
        if (config != null) {
            return config;
        }
        Object file = appConfigs.get(BreakwaterStores.CONFIG_FILE);
        return file == null ? BreakwaterStores.defaultConfig() : StorageConfig.load(Path.of(file.toString()));
    }

    /**
     * {@value BreakwaterStores#ENGINE_DIR} if set, else {@code <state.dir>/<application.id>/breakwater}
     * (or beside the task directory if the configs lack them).
     */
    static Path engineDir(Map<String, Object> appConfigs, Path taskDir) {
        Object explicit = appConfigs.get(BreakwaterStores.ENGINE_DIR);
        if (explicit != null) {
            return Path.of(explicit.toString()).toAbsolutePath().normalize();
        }
        Object stateDir = appConfigs.get(StreamsConfig.STATE_DIR_CONFIG);
        Object appId = appConfigs.get(StreamsConfig.APPLICATION_ID_CONFIG);
        Path appDir = stateDir == null || appId == null ? taskDir.getParent() : Path.of(stateDir.toString(), appId.toString());
        return appDir.resolve(ENGINE_DIR).toAbsolutePath().normalize();
    }

    /** Finds or makes this task's dataset, deciding from the marker whether its contents are the task's state. */
    private Dataset bind(EngineRegistry.Lease l, Path taskDir, String applicationId, String taskId, int newPartitions) throws IOException {
        StorageEngine e = l.engine();
        InstanceCatalog catalog = l.catalog();
        String datasetName = DatasetNames.of(applicationId, name, taskId);
        Path markerFile = StoreMarker.path(taskDir, name);
        StoreMarker marker = StoreMarker.read(markerFile);
        StoreMarker expected = new StoreMarker(catalog.engineId(), datasetName);
        boolean exists = e.datasetNames().contains(datasetName);
        if (marker == null) {
            if (exists) {
                LOG.info("store {} of task {}: no marker in {} (the task directory was wiped or is new): starting dataset {} empty",
                        name, taskId, taskDir, datasetName);
                e.dropDataset(datasetName);
            }
        } else if (!marker.equals(expected) || !exists) {
            LOG.warn("store {} of task {}: marker {} names {} but engine {} has {}: the local state is gone; deleting the "
                    + "task's checkpoint so that Kafka Streams restores it from the changelog", name, taskId, markerFile,
                    marker, expected.engineId(), exists ? "the dataset" : "no such dataset");
            Files.deleteIfExists(taskDir.resolve(KAFKA_CHECKPOINT_FILE));
            StoreMarker.delete(markerFile);
            if (exists) {
                e.dropDataset(datasetName);
            }
        }
        catalog.register(datasetName, markerFile);
        // An existing dataset keeps its partition count (records are placed by hash mod the count).
        int partitions = e.datasetNames().contains(datasetName) ? e.dataset(datasetName).spec().partitions()
                : newPartitions;
        Dataset d = e.createDatasetIfAbsent(spec(datasetName, partitions));
        Files.createDirectories(taskDir);
        expected.write(markerFile);
        return d;
    }

    static DatasetSpec spec(String datasetName) {
        return spec(datasetName, 1);
    }

    static DatasetSpec spec(String datasetName, int partitions) {
        return DatasetSpec.builder(datasetName).field("k", BYTES).field("v", BYTES).primaryKey("k").partitions(partitions).build();
    }

    /**
     * {@value BreakwaterStores#STORE_PARTITIONS} from the application's configs, default 1.
     *
     * @throws ProcessorStateException if it is not an integer in [1, 256]
     */
    static int partitions(Map<String, Object> appConfigs) {
        Object v = appConfigs.get(BreakwaterStores.STORE_PARTITIONS);
        if (v == null) {
            return 1;
        }
        int n;
        try {
            n = Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > 256) {
            throw new ProcessorStateException(BreakwaterStores.STORE_PARTITIONS + " = '" + v + "' is not an integer from 1 to 256");
        }
        return n;
    }

    /** The dataset's name (for tests and tools). */
    String datasetName() {
        return dataset.name();
    }

    StorageEngine engine() {
        return engine;
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        validateStoreOpen();
        synchronized (position) {
            run("put", () -> {
                if (value == null) {
                    dataset.delete(Key.of(key.get()));
                } else {
                    dataset.upsert(Tuple.of(key.get(), value));
                }
                return null;
            });
            StoreQueryUtils.updatePosition(position, context);
        }
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        Objects.requireNonNull(entries, "entries");
        for (KeyValue<Bytes, byte[]> kv : entries) {
            Objects.requireNonNull(kv.key, "key cannot be null");
        }
        validateStoreOpen();
        synchronized (position) {
            run("putAll", () -> {
                writeBatch(entries.size(), i -> entries.get(i).key.get(), i -> entries.get(i).value);
                return null;
            });
            StoreQueryUtils.updatePosition(position, context);
        }
    }

    @Override
    public byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        validateStoreOpen();
        synchronized (position) {
            byte[] old = run("delete", () -> {
                Tuple t = dataset.get(Key.of(key.get()));
                if (t != null) {
                    dataset.delete(Key.of(key.get()));
                }
                return t == null ? null : t.getBytes(1);
            });
            StoreQueryUtils.updatePosition(position, context);
            return old;
        }
    }

    /** Restores a batch of changelog records (null value: delete) in as few transactions as fit. */
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        validateStoreOpen();
        List<ConsumerRecord<byte[], byte[]>> list = records instanceof List<ConsumerRecord<byte[], byte[]>> l ? l : new ArrayList<>(records);
        synchronized (position) {
            for (ConsumerRecord<byte[], byte[]> r : list) {
                ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistencyEnabled, position);
            }
            run("restore", () -> {
                writeBatch(list.size(), i -> list.get(i).key(), i -> list.get(i).value());
                return null;
            });
        }
    }

    private interface ByIndex<T> {
        T get(int i);
    }

    /**
     * Writes entries {@code 0..n-1} in one transaction, or, when they pass the engine's
     * {@code max-transaction-size}, in consecutive transactions each as large as fits.
     */
    private void writeBatch(int n, ByIndex<byte[]> keys, ByIndex<byte[]> values) {
        Transaction tx = engine.begin();
        try {
            for (int i = 0; i < n; i++) {
                byte[] k = keys.get(i);
                byte[] v = values.get(i);
                try {
                    write(tx, k, v);
                } catch (TransactionTooLargeException full) {
                    tx.commit();
                    tx.close();
                    tx = engine.begin();
                    write(tx, k, v); // a single write too large for a transaction fails here, as it would alone
                }
            }
            tx.commit();
        } finally {
            tx.close();
        }
    }

    private void write(Transaction tx, byte[] k, byte[] v) {
        if (v == null) {
            tx.delete(dataset, Key.of(k));
        } else {
            tx.upsert(dataset, Tuple.of(k, v));
        }
    }

    // ------------------------------------------------------------------ reads

    @Override
    public byte[] get(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        validateStoreOpen();
        return run("get", () -> {
            Tuple t = dataset.get(Key.of(key.get()));
            return t == null ? null : t.getBytes(1);
        });
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return range(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return range(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return range(null, null, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return range(null, null, false);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        Objects.requireNonNull(prefix, "prefix cannot be null");
        Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
        byte[] p = prefixKeySerializer.serialize(null, prefix);
        validateStoreOpen();
        return iterate(KeyRange.prefix(Key.of((Object) p)), true);
    }

    private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean forward) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            LOG.warn("Returning empty iterator for fetch with invalid key range: from > to. This may be due to range "
                    + "arguments set in the wrong order, or serdes that don't preserve ordering when lexicographically "
                    + "comparing the serialized bytes. Note that the built-in numerical serdes do not follow this for "
                    + "negative numbers");
            validateStoreOpen();
            return iterate(null, forward); // an empty iterator that behaves like every other (close, closed store)
        }
        validateStoreOpen();
        Key low = from == null ? null : Key.of((Object) from.get());
        Key high = to == null ? null : Key.of((Object) to.get());
        return iterate(new KeyRange(low, true, high, true, false), forward);
    }

    /**
     * An iterator over {@code range} (null: nothing), ascending or descending. Both stream from a
     * Breakwater cursor (a reverse range reads the trees backward), so neither holds more than the
     * cursor's current entries in memory, whatever the range's size.
     */
    private KeyValueIterator<Bytes, byte[]> iterate(KeyRange range, boolean forward) {
        return run("scan", () -> {
            Cursor<Tuple> cursor = range == null ? emptyCursor() : forward ? dataset.scan(range) : dataset.reverseScan(range);
            CursorIterator[] self = new CursorIterator[1];
            self[0] = new CursorIterator(name, cursor, () -> openIterators.remove(self[0]));
            openIterators.add(self[0]);
            return self[0];
        });
    }

    /** The cursor of an empty range (Kafka's from &gt; to): no engine resources behind it. */
    private static Cursor<Tuple> emptyCursor() {
        return new Cursor<>() {
            @Override
            public boolean hasNext() {
                return false;
            }

            @Override
            public Tuple next() {
                throw new NoSuchElementException();
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * An estimate: entries in the dataset's SSTables (tombstones and overwritten versions included)
     * plus memory-component bytes over a guessed entry size; stores estimated below
     * {@value #EXACT_COUNT_LIMIT} entries are counted exactly with a scan.
     */
    @Override
    public long approximateNumEntries() {
        validateStoreOpen();
        return run("approximateNumEntries", () -> {
            long estimate = 0;
            for (EngineLayout.DatasetLayout d : engine.layout().datasets()) {
                if (!d.name().equals(dataset.name())) {
                    continue;
                }
                for (EngineLayout.IndexLayout ix : d.indexes()) {
                    if (!ix.primary()) {
                        continue;
                    }
                    EngineLayout.TreeLayout tree = ix.tree(); // one per partition
                    estimate += tree.memoryBytes() / MEMORY_BYTES_PER_ENTRY_GUESS;
                    for (EngineLayout.LevelLayout level : tree.levels()) {
                        for (List<EngineLayout.SSTableLayout> sorted : level.components()) {
                            for (EngineLayout.SSTableLayout t : sorted) {
                                estimate += t.entries();
                            }
                        }
                    }
                }
            }
            if (estimate >= EXACT_COUNT_LIMIT) {
                return estimate;
            }
            long n = 0;
            try (Cursor<Tuple> c = dataset.scan(KeyRange.all())) {
                while (c.hasNext()) {
                    c.next();
                    n++;
                }
            }
            return n;
        });
    }

    // ------------------------------------------------------------------ queries

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, position, context);
    }

    @Override
    public Position getPosition() {
        return position;
    }

    // ------------------------------------------------------------------ lifecycle

    /** Syncs the engine's log: every write before this call survives a crash (see the class comment). */
    @Override
    public void flush() {
        if (!open) {
            return;
        }
        run("flush", () -> {
            engine.syncLog();
            return null;
        });
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        List<KeyValueIterator<Bytes, byte[]>> left;
        synchronized (openIterators) {
            left = new ArrayList<>(openIterators);
        }
        if (!left.isEmpty()) {
            LOG.warn("closing {} open iterators of store {}", left.size(), name);
            for (KeyValueIterator<Bytes, byte[]> it : left) {
                it.close();
            }
        }
        EngineRegistry.Lease l = lease;
        lease = null;
        engine = null;
        dataset = null;
        l.close();
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** Iterators not yet closed (for tests). */
    int openIterators() {
        return openIterators.size();
    }

    private void validateStoreOpen() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed");
        }
    }

    /** Runs an engine call, translating engine failures into the exceptions Kafka Streams expects of a store. */
    private <T> T run(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (EngineClosedException e) {
            throw new InvalidStateStoreException("Store " + name + " is closed (" + what + "): " + e.getMessage(), e);
        } catch (StorageException e) {
            throw new ProcessorStateException("Error in Breakwater store " + name + " (" + what + "): " + e.getMessage(), e);
        }
    }
}
