package dev.breakwater.txn;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.lsm.version.CorruptManifestException;
import dev.breakwater.txn.log.LogManager;
import dev.breakwater.txn.log.LogOptions;
import dev.breakwater.txn.log.PackerStatistics;
import dev.breakwater.txn.log.PackingOptions;
import dev.breakwater.txn.log.SegmentPacker;
import dev.breakwater.txn.log.ReplayResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: an engine over one data directory holding datasets, their LSM trees, one
 * transaction log, one buffer cache and one write-memory pool (DESIGN.md sections 2, 3 and 5).
 *
 * <pre>{@code
 * try (StorageEngine engine = StorageEngine.open(Path.of("data"), StorageConfig.defaults())) {
 *     Dataset customer = engine.createDataset(DatasetSpec.builder("customer")...build());
 *     customer.upsert(Tuple.of(1, 2, 3, "BARBARBAR"));
 *     engine.inTransaction(tx -> { ... tx.get(customer, key) ... tx.upsert(customer, t) ... });
 * }
 * }</pre>
 *
 * <h2>Transactions</h2>
 * Every single-record operation is its own transaction. Multi-record transactions
 * ({@link #begin()}, {@link #inTransaction} and {@link #callInTransaction}) are serializable: strict two-phase locking with
 * hierarchical locks ({@link LockResources}) — records read are locked shared, records written
 * exclusive, and a scan locks the smallest key-prefix node (up to two key fields deep) that holds
 * its range, which keeps phantoms out of scanned ranges at the cost of blocking writers to that
 * prefix until the scanning transaction ends. Deadlocks abort one transaction with
 * {@link TransactionAbortedException}; {@link #inTransaction} and {@link #callInTransaction} retries it with backoff. Reads outside
 * transactions see committed data without locking (each read is atomic on its own).
 *
 * <h2>Durability</h2>
 * Commit-time redo logging: a commit appends one log record with all of its tree operations, waits
 * for the group-committed fsync ({@code SYNC}, the default) or not ({@code ASYNC}), then applies the
 * operations to the memory components, so memory holds only committed data. After a crash,
 * {@link #open} replays every record above each tree's durable LSN. A failed fsync or a full disk
 * puts the engine into a failed state: writes throw {@link StorageFailedException}, reads go on.
 * A commit's outcome is always true: a commit that throws is in no tree, except
 * {@link CommitNotAppliedException}, which says the commit is durable and will be applied in full
 * at the next open (the engine then refuses reads as well, so no index disagrees with its primary).
 *
 * <h2>Limits</h2>
 * Keys, records and transactions are checked at the write against what the engine can store
 * (docs/configuration.md, "Size limits"); memory settings are checked at open against the machine.
 *
 * <p>Thread safety: safe from any thread. {@link #close()} is idempotent; operations after it throw
 * {@link EngineClosedException}.
 */
public final class StorageEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StorageEngine.class);
    private static final ThreadLocal<ValueHolder> HOLDER = ThreadLocal.withInitial(ValueHolder::new);

    final FileSystem fs;
    final Path dir;
    final StorageConfig config;
    final IoStatistics io = new IoStatistics();
    /** Operations users ran, for the tuner's cost per operation. */
    final OperationCounter operations = new OperationCounter();
    final BufferCache cache;
    final WriteMemoryPool pool;
    final TreeResources resources;
    final LogManager log;
    final EngineLocks locks;
    final WriteMemoryManager writeMemory;
    final Durability durability;
    final Catalog catalog;
    private final DatasetDirectory directory;
    /** The lock on {@link #dir} and the proof it is an engine directory, held until close. */
    private final DataDirectoryGuard guard;
    /** Current state of each open dataset, by name. */
    private final Map<String, DatasetState> datasets = new ConcurrentHashMap<>();
    /** Every open tree, by tree id (for recovery and the background monitor). */
    final Map<Long, LsmTree> trees = new ConcurrentHashMap<>();
    /** Commits logged but not yet applied, with the lowest LSN they may have: the trees' flush guard. */
    private final Map<TransactionImpl, Long> inFlight = new ConcurrentHashMap<>();
    /** Serializes catalog changes; the log packer holds it per record so no tree closes under its lookups. */
    final Object ddlLock = new Object();
    private final EngineMonitor monitor;
    /** Trims and compresses sealed log segments when {@code log-trim} or {@code log-compression} is on. */
    final SegmentPacker packer;
    /** The memory tuner's cycles (docs/tuner.md). */
    private final MemoryTunerService tuner;
    /** What recovery replayed at open. */
    final ReplayResult recovery;
    /** Key, record and transaction size limits, checked at the API (item: keys that brick a flush). */
    final WriteLimits limits;
    /** Calls that touch off-heap memory run inside it; close() shuts it and waits before freeing anything. */
    private final OperationGate gate = new OperationGate("storage engine");
    /** Cursors not yet closed; close() invalidates them before the trees release their snapshots. */
    private final Set<OverlayCursor<?>> openCursors = ConcurrentHashMap.newKeySet();
    /** The transaction whose inTransaction body runs on this thread, to reject nesting and commit(). */
    private static final ThreadLocal<TransactionImpl> RUNNING = new ThreadLocal<>();
    private final Object closeLock = new Object();
    private volatile Throwable failure;
    /** Non-null once a logged commit could not be applied to every tree: reads are refused too. */
    private volatile String unappliedCommit;
    private volatile boolean closed;
    /** Optional services (stats endpoint, JMX) started at open and stopped first at close. */
    private volatile Extensions extensions = Extensions.NONE;

    private StorageEngine(FileSystem fs, Path dir, StorageConfig config) throws IOException {
        MemoryCheck.check(config); // before anything is allocated or created
        this.fs = fs;
        this.dir = dir;
        this.config = config;
        this.durability = config.get(ConfigOptions.DURABILITY);
        int pageSize = Math.toIntExact(config.get(ConfigOptions.PAGE_SIZE));
        // First recognise and lock the directory: a refused open allocates nothing and changes nothing.
        this.guard = DataDirectoryGuard.acquire(fs, dir);
        BufferCache c = null;
        WriteMemoryPool p = null;
        TreeResources r = null;
        LogManager l = null;
        try {
            this.cache = c = new BufferCache(new BufferCacheOptions(pageSize, Math.max(pageSize, config.bufferCacheSize()),
                    cacheChunkBytes(pageSize), config.simulatedCacheSize(), 16,
                    Duration.ofMillis(config.get(ConfigOptions.BUFFER_CACHE_PIN_WAIT))), io);
            this.pool = p = new WriteMemoryPool(WriteMemoryPoolOptions.of(config.get(ConfigOptions.WRITE_MEMORY)).withName("write memory"));
            this.resources = r = TreeResources.withPools(fs, cache, pool, io, config.get(ConfigOptions.FLUSH_THREADS),
                    config.get(ConfigOptions.MERGE_THREADS), config.get(ConfigOptions.MEMORY_MERGE_THREADS));
            this.locks = new EngineLocks();
            // The manager reads the log position lazily: the log opens after recovery.
            this.writeMemory = new WriteMemoryManager(pool, new WriteMemoryOptions(config.get(ConfigOptions.WRITE_MEMORY_SCHEME),
                    config.get(ConfigOptions.FLUSH_POLICY), config.get(ConfigOptions.FLUSH_THRESHOLD),
                    config.get(ConfigOptions.STATIC_ACTIVE_DATASETS), config.get(ConfigOptions.MAX_LOG_SIZE),
                    config.get(ConfigOptions.MEMORY_COMPONENT_SIZE), 1.0 / DatasetDirectory.M0_FRACTION_OF_WRITE_MEMORY,
                    TimeUnit.MILLISECONDS.toNanos(config.get(ConfigOptions.LEVEL_SHARE_TIME_CONSTANT))), this::logEndLsn);
            this.limits = WriteLimits.of(config, pageSize, pool.pageSize());
            this.catalog = Catalog.load(fs, dir);
            this.directory = new DatasetDirectory(this);
            directory.openAll();
            this.recovery = Recovery.replay(this);
            this.log = l = LogManager.open(fs, logDir(), LogOptions.fromConfig(config), io);
            this.packer = new SegmentPacker(l, packingOptions(config), new LiveOperationTrimmer(this), pool::usedBytes);
            this.monitor = new EngineMonitor(this);
            this.tuner = new MemoryTunerService(this);
            // Only now that nothing can refuse the open: remove garbage and orphan files, start merges.
            directory.finishOpen();
            pool.addThresholdListener(config.get(ConfigOptions.FLUSH_THRESHOLD), (used, capacity) -> monitor.wake());
        } catch (IOException | RuntimeException | Error e) {
            releaseAfterFailedOpen(e, l, r, c, p);
            throw e;
        }
    }

    /** Releases what a failed constructor took, in reverse order; failures are added to {@code e}. */
    private void releaseAfterFailedOpen(Throwable e, LogManager l, TreeResources r, BufferCache c, WriteMemoryPool p) {
        if (l != null) {
            try {
                l.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        for (LsmTree t : trees.values()) {
            try {
                t.close(false);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
        try {
            if (r != null) {
                r.shutdownPools();
            }
            if (c != null) {
                c.close();
            }
            if (p != null) {
                p.close();
            }
        } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
        try {
            guard.close();
        } catch (IOException | RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        }
    }

    /** The log packer's settings from {@code log-compression}, {@code log-trim}, λ_t, λ_s and {@code log-trim-min-dead}. */
    static PackingOptions packingOptions(StorageConfig config) {
        return new PackingOptions(config.get(ConfigOptions.LOG_COMPRESSION), config.get(ConfigOptions.LOG_TRIM),
                config.get(ConfigOptions.LOG_TRIM_START), config.get(ConfigOptions.LOG_TRIM_STOP), 50,
                config.get(ConfigOptions.MAX_LOG_SIZE), config.get(ConfigOptions.LOG_TRIM_MIN_DEAD));
    }

    /** Opens (or creates) an engine in {@code dir} with the embedded default configuration. */
    public static StorageEngine open(Path dir) {
        return open(Objects.requireNonNull(dir, "dir"), StorageConfig.defaults());
    }

    /** Opens (or creates) an engine in {@code dir}, recovering from the log if it was not closed cleanly. */
    public static StorageEngine open(Path dir, StorageConfig config) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(config, "config");
        FileSystem fs = config.get(ConfigOptions.DIRECT_IO) ? RealFileSystem.create() : RealFileSystem.withoutDirectIo();
        return open(fs, dir, config);
    }

    /**
     * Opens an engine over any file system (in-memory, fault-injecting, ...).
     *
     * @throws DirectoryInUseException if another engine (in this process or another) has
     *     {@code dir} open
     * @throws DataDirectoryException if {@code dir} holds what the engine cannot prove is its own
     *     (another program's files, a dataset directory its catalog does not name, a missing catalog
     *     or {@code CURRENT}) or a damaged manifest; nothing is changed or deleted
     * @throws StorageIOException if reading or writing the directory fails
     */
    public static StorageEngine open(FileSystem fs, Path dir, StorageConfig config) {
        Objects.requireNonNull(fs, "fs");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(config, "config");
        try {
            StorageEngine engine = new StorageEngine(fs, dir, config);
            try {
                engine.monitor.start();
                engine.packer.start();
            } catch (RuntimeException | Error e) {
                try {
                    engine.close(); // releases the lock, memory and threads the engine took
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            try {
                engine.tuner.start();
            } catch (RuntimeException e) {
                engine.close(); // a bad tuner-seed: leave nothing running
                throw e;
            }
            engine.startExtensions();
            return engine;
        } catch (CorruptManifestException e) {
            throw new DataDirectoryException("cannot open engine in " + dir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StorageIOException("cannot open engine in " + dir, e);
        }
    }

    // ------------------------------------------------------------------ extensions (issue 14)

    /** Starts the {@link EngineExtension}s on the class path; on failure closes the engine and rethrows. */
    private void startExtensions() {
        try {
            extensions = Extensions.start(this, dir, config);
        } catch (RuntimeException e) {
            try {
                close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * A read-only picture of the datasets, indexes and trees with their levels, SSTables, sizes and
     * write-memory shares (for the stats endpoint and tools; reads metadata only).
     */
    public EngineLayout layout() {
        checkOpen();
        return EngineLayout.of(datasets, writeMemory.snapshot());
    }

    /** The configuration this engine was opened with (immutable). */
    public StorageConfig config() {
        return config;
    }

    /** The data directory this engine was opened on. */
    public Path directory() {
        return dir;
    }

    /** The buffer cache grows and shrinks in chunks of this size (and the tuner moves memory in them). */
    static long cacheChunkBytes(int pageSize) {
        return Math.max(pageSize, 1L << 20);
    }

    /** The log's end, or 0 before the log is open (during recovery). */
    long logEndLsn() {
        LogManager l = log;
        return l == null ? 0 : l.endLsn();
    }

    Path logDir() {
        return dir.resolve("log");
    }

    // ------------------------------------------------------------------ catalog

    /**
     * Creates a dataset; its trees exist (and survive a crash) once this returns.
     *
     * @throws SchemaException if a dataset with that name exists (see {@link #createDatasetIfAbsent})
     */
    public Dataset createDataset(DatasetSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return create(spec, false);
    }

    /**
     * Creates a dataset unless one with the same name exists; returns the dataset either way. What
     * a program that runs more than once on the same directory calls at start-up.
     *
     * @throws SchemaException if the existing dataset's specification differs from {@code spec},
     *                         naming the first difference (fields, primary key, indexes or partitions)
     */
    public Dataset createDatasetIfAbsent(DatasetSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return create(spec, true);
    }

    private Dataset create(DatasetSpec spec, boolean ifAbsent) {
        checkWritable();
        gate.enter();
        try {
            synchronized (ddlLock) {
                DatasetState existing = datasets.get(spec.name());
                if (existing != null) {
                    if (!ifAbsent) {
                        throw new SchemaException("dataset " + spec.name() + " already exists (createDatasetIfAbsent returns it)");
                    }
                    SpecDifference.check(existing.spec, spec);
                    return new DatasetImpl(this, spec.name());
                }
                try {
                    DatasetState state = directory.create(spec);
                    datasets.put(spec.name(), state);
                } catch (IOException e) {
                    throw new StorageIOException("cannot create dataset " + spec.name(), e);
                }
            }
        } finally {
            gate.exit();
        }
        return new DatasetImpl(this, spec.name());
    }

    /** The dataset named {@code name}. */
    public Dataset dataset(String name) {
        Objects.requireNonNull(name, "name");
        checkOpen();
        if (!datasets.containsKey(name)) {
            throw new UnknownDatasetException("no dataset named '" + name + "'; datasets: " + datasets.keySet());
        }
        return new DatasetImpl(this, name);
    }

    /** Names of all datasets. */
    public List<String> datasetNames() {
        checkOpen();
        return new ArrayList<>(datasets.keySet());
    }

    /** Drops a dataset and deletes its files. Transactions still using it fail. */
    public void dropDataset(String name) {
        Objects.requireNonNull(name, "name");
        checkWritable();
        gate.enter();
        try {
            dropLocked(name);
        } finally {
            gate.exit();
        }
    }

    private void dropLocked(String name) {
        synchronized (ddlLock) {
            DatasetState state = datasets.get(name);
            if (state == null) {
                throw new UnknownDatasetException("no dataset named '" + name + "'");
            }
            try (TransactionImpl tx = beginInternal()) {
                // Wait for every transaction touching the dataset to finish: they hold intention locks.
                tx.locks.lock(LockResources.root(state.primaryTreeId), dev.breakwater.txn.lock.LockMode.X);
                datasets.remove(name);
                state.dropped = true;
                directory.drop(state);
            } catch (IOException e) {
                throw new StorageIOException("cannot drop dataset " + name, e);
            }
        }
    }

    /**
     * Adds a secondary index to an existing dataset and builds it from the primary index. Writers to
     * the dataset wait while it is built.
     */
    public void addIndex(String datasetName, IndexSpec index) {
        Objects.requireNonNull(datasetName, "datasetName");
        Objects.requireNonNull(index, "index");
        checkWritable();
        gate.enter();
        try {
            addIndexLocked(datasetName, index);
        } finally {
            gate.exit();
        }
    }

    private void addIndexLocked(String datasetName, IndexSpec index) {
        synchronized (ddlLock) {
            DatasetState state = datasets.get(datasetName);
            if (state == null) {
                throw new UnknownDatasetException("no dataset named '" + datasetName + "'");
            }
            state.spec.withIndex(index); // validates
            try (TransactionImpl tx = beginInternal()) {
                tx.locks.lock(LockResources.root(state.primaryTreeId), dev.breakwater.txn.lock.LockMode.S);
                DatasetState next = directory.addIndex(datasets.get(datasetName), index);
                datasets.put(datasetName, next);
            } catch (IOException e) {
                throw new StorageIOException("cannot add index " + index.name() + " to dataset " + datasetName, e);
            }
        }
    }

    DatasetState state(Dataset dataset) {
        Objects.requireNonNull(dataset, "dataset");
        if (!(dataset instanceof DatasetImpl d) || d.engine() != this) {
            throw new UnknownDatasetException("dataset " + dataset + " does not belong to this engine");
        }
        DatasetState s = datasets.get(d.name());
        if (s == null || s.dropped) {
            throw new UnknownDatasetException("dataset '" + d.name() + "' was dropped");
        }
        return s;
    }

    // ------------------------------------------------------------------ transactions

    /**
     * Starts a transaction. Close it: an uncommitted transaction is aborted at close.
     *
     * @throws IllegalStateException inside an {@link #inTransaction} body on the same thread: a
     *                               second transaction there would wait for the locks of the first
     */
    public Transaction begin() {
        rejectNesting("begin()");
        return beginInternal();
    }

    private void rejectNesting(String what) {
        TransactionImpl running = RUNNING.get();
        if (running != null && running.engine == this) {
            throw new IllegalStateException(what + " inside an inTransaction/callInTransaction body on the same thread: "
                    + "use the body's transaction (nested transactions are not supported)");
        }
    }

    TransactionImpl beginInternal() {
        checkOpen();
        return new TransactionImpl(this, locks.newOwner());
    }

    /**
     * Runs {@code body} in a transaction and commits it when the body returns; if it is aborted by a
     * deadlock or a lock timeout, runs it again after a randomized, growing backoff (up to 10 s in
     * total). An exception from the body aborts the transaction and propagates.
     *
     * <p>The body must not call {@link Transaction#commit()} (the commit happens when it returns),
     * nor start another transaction on the same thread ({@code inTransaction},
     * {@code callInTransaction} or {@link #begin()}): each is rejected at once with an
     * {@link IllegalStateException}.
     */
    public <T> T callInTransaction(Function<Transaction, T> body) {
        Objects.requireNonNull(body, "body");
        rejectNesting("callInTransaction/inTransaction");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int attempt = 0;
        while (true) {
            try (TransactionImpl tx = beginInternal()) {
                T result;
                tx.managed = true;
                RUNNING.set(tx);
                try {
                    result = body.apply(tx);
                } finally {
                    RUNNING.remove();
                    tx.managed = false;
                }
                tx.commit();
                return result;
            } catch (TransactionAbortedException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                locks.countRetry();
                backoff(++attempt);
            }
        }
    }

    /** {@link #callInTransaction(Function)} for bodies without a result. */
    public void inTransaction(Consumer<Transaction> body) {
        Objects.requireNonNull(body, "body");
        callInTransaction(tx -> {
            body.accept(tx);
            return null;
        });
    }

    private static void backoff(int attempt) {
        long maxMicros = Math.min(50_000, 100L << Math.min(attempt, 9));
        long micros = ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1);
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while retrying a transaction", e);
        }
    }

    /** The committed record with primary key {@code pk}, or null. */
    Tuple readCommitted(DatasetState ds, byte[] pk) {
        ValueHolder out = HOLDER.get();
        gate.enter();
        try {
            checkReadable();
            if (ds.partition(pk).primary().get(pk, pk.length, out) == LookupResult.FOUND) {
                return ds.records.decode(out.bytes(), out.length());
            }
            return null;
        } catch (IOException e) {
            throw new StorageIOException("read from dataset " + ds.spec.name(), e);
        } finally {
            gate.exit();
        }
    }

    /** Opens a cursor inside the gate and registers it, so that {@link #close()} can invalidate it. */
    <C extends OverlayCursor<?>> C openCursor(Supplier<C> factory) {
        gate.enter();
        try {
            checkReadable();
            C cursor = factory.get();
            openCursors.add(cursor);
            return cursor;
        } finally {
            gate.exit();
        }
    }

    /** Enters the gate for one cursor step; see {@link OperationGate}. */
    void enterCursorStep() {
        gate.enter();
        try {
            checkReadable();
        } catch (RuntimeException e) {
            gate.exit();
            throw e;
        }
    }

    void exitCursorStep() {
        gate.exit();
    }

    /** A cursor closed by its user; requires: called inside the gate. */
    void cursorClosed(OverlayCursor<?> cursor) {
        openCursors.remove(cursor);
    }

    /** Enters the gate (throws EngineClosedException once close() began); pair with {@link #exitGate()}. */
    void enterGate() {
        gate.enter();
    }

    void exitGate() {
        gate.exit();
    }

    /**
     * Logs and applies a transaction's writes. Requires: the transaction holds exclusive locks on
     * every record and index entry it writes (so no other commit touches them until it releases).
     */
    void commit(TransactionImpl tx) {
        CommitScratch scratch = CommitScratch.get();
        List<TreeOp> ops = scratch.ops;
        try {
            for (var perDataset : tx.writes().all().entrySet()) {
                DatasetState ds = perDataset.getKey();
                if (ds.dropped) {
                    throw new UnknownDatasetException("dataset '" + ds.spec.name() + "' was dropped during the transaction");
                }
                if (!perDataset.getValue().isEmpty()) {
                    writeMemory.noteWrite(ds.spec.name());
                }
                for (WriteSet.Pending p : perDataset.getValue().values()) {
                    List<TreeOp> pending = p.ops();
                    for (int i = 0, n = pending.size(); i < n; i++) { // not addAll: it copies into a new array
                        ops.add(pending.get(i));
                    }
                }
            }
            if (ops.isEmpty()) {
                return;
            }
            ByteBuffer payload = scratch.encode(); // this thread's buffer: the log copies it during append
            gate.enter();
            try {
                checkWritable();
                checkTreesAcceptWrites(ops);
                logAndApply(tx, ops, payload);
            } finally {
                gate.exit();
            }
        } finally {
            scratch.release();
        }
    }

    /*
     * A commit's outcome must be true: either every tree gets the transaction and the caller is told
     * so, or no tree does. Once the log record is appended the transaction is (or, under SYNC, will
     * be once synced) committed, because recovery replays it. So everything that can be checked is
     * checked before the append: keys and record sizes at each write (WriteLimits), the transaction
     * size at each write, and here that every tree takes writes (a tree whose background flush
     * failed refuses them). What can still fail after the append is rare (a flush failing in the
     * instant between check and apply, a write stalled past its timeout because memory cannot be
     * freed): then the exception says the commit is durable, the engine refuses reads and writes
     * until reopened, and the commit stays in the flush guard (inFlight) so that no tree can make a
     * later LSN durable and have recovery skip the missing part.
     */
    private void checkTreesAcceptWrites(List<TreeOp> ops) {
        long checked = Long.MIN_VALUE;
        for (int i = 0, n = ops.size(); i < n; i++) {
            TreeOp op = ops.get(i);
            if (op.treeId() == checked) {
                continue;
            }
            checked = op.treeId();
            LsmTree tree = trees.get(op.treeId());
            if (tree == null) {
                continue;
            }
            try {
                tree.checkWritable();
            } catch (IOException | IllegalStateException e) {
                throw new StorageFailedException("commit refused before logging, nothing was written: " + e.getMessage()
                        + ". Reopen the engine after fixing the cause; the tree's acknowledged data is in the log", e);
            }
        }
    }

    private void logAndApply(TransactionImpl tx, List<TreeOp> ops, ByteBuffer payload) {
        inFlight.put(tx, log.endLsn());
        long lsn;
        try {
            lsn = log.append(payload);
            inFlight.put(tx, lsn);
            if (durability == Durability.SYNC) {
                log.awaitDurable(lsn);
            }
        } catch (IOException e) {
            inFlight.remove(tx);
            fail(e);
            throw new StorageFailedException("commit failed and was not acknowledged: the log could not be written or synced ("
                    + e.getMessage() + "). No tree has the transaction; the engine now refuses writes. After a restart the "
                    + "transaction is wholly present or wholly absent, depending on whether its log record reached the disk", e);
        }
        try {
            apply(ops, lsn);
        } catch (IOException | RuntimeException e) {
            // Deliberately left in inFlight: see the comment above checkTreesAcceptWrites.
            String what = "transaction at LSN " + lsn + (durability == Durability.SYNC ? " is committed and durable"
                    : " is committed (ASYNC: durable once the log syncs)") + ", but applying it to the trees failed part way ("
                    + e.getMessage() + "). Reopen the engine: recovery applies it to every tree. Until then this engine refuses "
                    + "reads and writes so that no index disagrees with its primary";
            unappliedCommit = what;
            fail(e);
            throw new CommitNotAppliedException(what, lsn, e);
        }
        inFlight.remove(tx);
    }

    /** Applies tree ops logged at {@code lsn}; trees unknown to the engine (dropped) are skipped. */
    void apply(List<TreeOp> ops, long lsn) throws IOException {
        for (int i = 0, n = ops.size(); i < n; i++) {
            TreeOp op = ops.get(i);
            LsmTree tree = trees.get(op.treeId());
            if (tree != null) {
                tree.write(op.key(), op.key().length, op.value(), op.value().length, op.delete(), lsn);
            }
        }
    }

    /**
     * Blocks until the log is durable through {@code lsn} (trees call this before a flush makes a
     * component durable). During recovery, before the log is open, everything replayed is durable.
     */
    void awaitLogDurable(long lsn) throws IOException {
        LogManager l = log;
        if (l != null && lsn >= 0 && lsn < l.endLsn()) {
            l.awaitDurable(lsn);
        }
    }

    /** The lowest LSN any in-flight commit has or will get, or {@code Long.MAX_VALUE}. */
    long oldestUnappliedLsn() {
        long min = Long.MAX_VALUE;
        for (long lsn : inFlight.values()) {
            min = Math.min(min, lsn);
        }
        return min;
    }

    // ------------------------------------------------------------------ state

    void checkOpen() {
        if (closed) {
            throw new EngineClosedException("storage engine in " + dir + " is closed");
        }
    }

    private static boolean acceptsWrites(LsmTree t) {
        try {
            t.checkWritable();
            return true;
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }

    /** Reads are refused only after a logged commit could not be applied (see {@link CommitNotAppliedException}). */
    void checkReadable() {
        String unapplied = unappliedCommit;
        if (unapplied != null) {
            throw new StorageFailedException("storage engine in " + dir + " refuses reads: " + unapplied);
        }
    }

    void checkWritable() {
        checkOpen();
        checkReadable();
        Throwable f = failure;
        if (f != null) {
            throw new StorageFailedException("storage engine in " + dir + " refuses writes after a failure: " + f.getMessage(), f);
        }
    }

    void fail(Throwable e) {
        if (failure == null) {
            failure = e;
            LOG.error("storage engine in {} failed and now refuses writes (reads continue)", dir, e);
        }
    }

    /** Whether the engine has failed (a failed fsync, a full disk) and refuses writes; reads go on. */
    public boolean isFailed() {
        return failure != null;
    }

    int maxRecordBytes() {
        return limits.maxRecordBytes();
    }

    Map<String, DatasetState> datasetStates() {
        return datasets;
    }

    /**
     * Resizes the write-memory pool while running (the memory tuner's knob). Growing takes effect at
     * once; shrinking lowers the budget at once, then flushes trees by the flush policy and returns
     * when usage is at or below the flush threshold of the new capacity, or after
     * {@code maxWaitMillis} (usage may then still be above it; the flushes go on). Every partitioned
     * tree's active component M0 is moved first to what a tree opened at the new capacity would
     * have (memory-component-size, at most an eighth of write memory).
     *
     * @return the write-memory capacity now in effect ({@code bytes} in whole pages)
     */
    public long resizeWriteMemory(long bytes, long maxWaitMillis) {
        checkOpen();
        gate.enter();
        try {
            directory.followWriteMemory(bytes / pool.pageSize() * pool.pageSize());
            return writeMemory.resize(bytes, maxWaitMillis);
        } finally {
            gate.exit();
        }
    }

    /**
     * Resizes the buffer cache while running: growing adds frames, shrinking evicts and frees them
     * (waiting a bounded time for pinned frames).
     *
     * @return the capacity reached
     */
    public long resizeBufferCache(long bytes) {
        checkOpen();
        gate.enter();
        try {
            return cache.resize(bytes).capacityBytes();
        } finally {
            gate.exit();
        }
    }

    /**
     * Blocks until every commit that returned before this call is durable on disk. Under
     * {@code SYNC} every commit already is, so it returns at once; under {@code ASYNC} it has the log
     * synced now instead of within {@code async-sync-interval}. For a host that runs many
     * {@code ASYNC} commits behind one durability point of its own (a Kafka Streams store's
     * {@code flush()}, which precedes the checkpoint of changelog offsets).
     *
     * @throws StorageFailedException if the log failed before those commits were durable
     */
    public void syncLog() {
        checkOpen();
        gate.enter();
        try {
            long end = log.endLsn();
            if (end > log.durableLsn()) {
                log.awaitDurable(end - 1); // the last byte of the last record: durable iff the whole log is
            }
        } catch (IOException e) {
            throw new StorageFailedException("syncing the log of engine in " + dir + " failed: " + e.getMessage(), e);
        } finally {
            gate.exit();
        }
    }

    /**
     * Flushes the memory components of every tree and waits until no merge is running or due, so
     * that no work left over from earlier writes is paid for by later ones. For benchmarks that
     * compare settled engines (a RocksDB run does the same with a flush and waiting for compactions).
     */
    public void flushAndAwaitMerges() {
        checkWritable();
        gate.enter();
        try {
            for (LsmTree t : trees.values()) {
                t.flush();
            }
            for (LsmTree t : trees.values()) {
                t.awaitMerges();
            }
        } catch (IOException e) {
            throw new StorageIOException("flushing and settling engine in " + dir, e);
        } finally {
            gate.exit();
        }
    }

    /**
     * Counters of the log packer (paper 002: trimming and compression of sealed log segments; all
     * zero unless {@code log-trim} or {@code log-compression} is on).
     */
    public PackerStatistics logPackerStatistics() {
        return packer.statistics();
    }

    /** Bytes the transaction log takes on disk now (smaller than its LSN span once segments are packed). */
    public long logDiskBytes() {
        return log.diskBytes();
    }

    /** A snapshot of the engine's statistics. */
    public EngineStatistics statistics() {
        checkOpen();
        gate.enter();
        try {
            return EngineStatistics.of(this);
        } finally {
            gate.exit();
        }
    }

    // ------------------------------------------------------------------ memory tuner hooks

    MemoryTunerService tuner() {
        return tuner;
    }

    /** The background housekeeper (tests stop it to run its ticks on their own thread). */
    EngineMonitor monitor() {
        return monitor;
    }

    /** The tuner's recent cycles; empty while the engine is still opening. */
    java.util.List<dev.breakwater.tuner.TuningCycle> tunerHistory() {
        MemoryTunerService t = tuner;
        return t == null ? java.util.List.of() : t.history();
    }

    /**
     * Flushes every tree's memory and closes everything. Idempotent and safe from any thread. After a
     * clean close, the next open has nothing to replay.
     *
     * <p>Calls in progress on other threads (a read, one cursor step, a commit) are waited for; they
     * are short. Open cursors are then <b>invalidated</b>, not waited for: their snapshots are
     * released, and any later use of them, as of every other handle ({@link Dataset},
     * {@link Index}, {@link Transaction}), throws {@link EngineClosedException}; closing them is a
     * no-op. No handle can touch the memory freed here.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        extensions.close();
        tuner.stop();
        gate.closeAndDrain();
        for (OverlayCursor<?> c : openCursors) {
            c.invalidate();
        }
        openCursors.clear();
        monitor.stop();
        packer.stop(); // before any tree closes: it looks keys up in the trees' memory
        IOException first = null;
        boolean allFlushed = failure == null;
        for (LsmTree t : trees.values()) {
            try {
                // A tree whose background flush failed is closed without a flush: its memory is lost
                // and only the log holds it, so the log must not be truncated by a checkpoint.
                boolean healthy = acceptsWrites(t);
                allFlushed &= healthy;
                t.close(failure == null && healthy);
            } catch (IOException e) {
                first = first == null ? e : first;
                allFlushed = false;
            }
        }
        try {
            if (allFlushed) {
                monitor.checkpointAtClose();
            }
            log.close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        resources.shutdownPools();
        cache.close();
        pool.close();
        try {
            guard.close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw new StorageIOException("closing engine in " + dir, first);
        }
    }
}
