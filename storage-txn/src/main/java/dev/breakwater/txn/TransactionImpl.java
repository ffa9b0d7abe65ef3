package dev.breakwater.txn;

import dev.breakwater.txn.lock.LockMode;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A multi-record transaction: buffered writes with read-your-writes, strict two-phase locking with
 * the hierarchical scheme of {@link LockResources}, and commit through the engine's log.
 *
 * <p>Thread safety: one thread at a time (the owner's).
 */
final class TransactionImpl implements Transaction {

    private enum State { ACTIVE, COMMITTED, ABORTED }

    final StorageEngine engine;
    final EngineLocks.Owner locks;
    private final WriteSet writes = new WriteSet();
    private State state = State.ACTIVE;
    /** True while an inTransaction body runs: the engine commits when it returns, so commit() is refused. */
    boolean managed;

    TransactionImpl(StorageEngine engine, EngineLocks.Owner locks) {
        this.engine = engine;
        this.locks = locks;
    }

    WriteSet writes() {
        return writes;
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new IllegalStateException("transaction is " + state.name().toLowerCase() + "; start a new one");
        }
        engine.checkOpen();
    }

    // ------------------------------------------------------------------ locking helpers

    /** IS or IX on the ancestors of {@code key} in the index's hierarchy, then {@code leafMode} on the key. */
    void lockKey(long treeId, KeyCodec codec, byte[] key, LockMode leafMode) {
        LockMode intention = leafMode == LockMode.S ? LockMode.IS : LockMode.IX;
        locks.lock(LockResources.root(treeId), intention);
        int depth = Math.min(LockResources.MAX_PREFIX_FIELDS, codec.fieldCount() - 1);
        for (int level = 1; level <= depth; level++) {
            locks.lock(LockResources.node(treeId, level, key, codec.prefixLength(key, key.length, level)), intention);
        }
        locks.lock(LockResources.node(treeId, LockResources.MAX_PREFIX_FIELDS + 1, key, key.length), leafMode);
    }

    /** S on the deepest hierarchy node containing all of {@code range}, IS above it. */
    void lockRange(long treeId, KeyCodec codec, KeyRange range) {
        int common = 0;
        Key low = range.low();
        Key high = range.high();
        if (low != null && high != null) {
            int n = Math.min(low.size(), high.size());
            while (common < n && java.util.Objects.deepEquals(low.raw(common), high.raw(common))) {
                common++;
            }
        }
        if (range.lastValueIsPrefix()) {
            common = Math.min(common, low.size() - 1); // the last value names a range of that field, not one value
        }
        if (common == codec.fieldCount() && range.lowInclusive() && range.highInclusive()) {
            lockKey(treeId, codec, codec.encode(low), LockMode.S);
            return;
        }
        int depth = Math.min(common, Math.min(LockResources.MAX_PREFIX_FIELDS, codec.fieldCount() - 1));
        if (depth == 0) {
            locks.lock(LockResources.root(treeId), LockMode.S);
            return;
        }
        locks.lock(LockResources.root(treeId), LockMode.IS);
        Object[] values = new Object[depth];
        for (int i = 0; i < depth; i++) {
            values[i] = low.raw(i);
        }
        byte[] prefix = codec.encode(Key.of(values));
        for (int level = 1; level < depth; level++) {
            locks.lock(LockResources.node(treeId, level, prefix, codec.prefixLength(prefix, prefix.length, level)), LockMode.IS);
        }
        locks.lock(LockResources.node(treeId, depth, prefix, prefix.length), LockMode.S);
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Tuple get(Dataset dataset, Key primaryKey) {
        Objects.requireNonNull(primaryKey, "primaryKey");
        checkActive();
        DatasetState ds = engine.state(dataset);
        engine.operations.pointRead();
        return get(ds, ds.primaryKeys.encodeFull(primaryKey));
    }

    Tuple get(DatasetState ds, byte[] pk) {
        WriteSet.Pending p = writes.get(ds, pk);
        if (p != null) {
            return p.after;
        }
        lockKey(ds.primaryTreeId, ds.primaryKeys, pk, LockMode.S);
        return engine.readCommitted(ds, pk);
    }

    @Override
    public Cursor<Tuple> scan(Dataset dataset, KeyRange range) {
        return scan(dataset, DatasetSpec.PRIMARY, range);
    }

    @Override
    public Cursor<Tuple> scan(Dataset dataset, String index, KeyRange range) {
        return scan(dataset, index, range, false);
    }

    @Override
    public Cursor<Tuple> reverseScan(Dataset dataset, KeyRange range) {
        return scan(dataset, DatasetSpec.PRIMARY, range, true);
    }

    @Override
    public Cursor<Tuple> reverseScan(Dataset dataset, String index, KeyRange range) {
        return scan(dataset, index, range, true);
    }

    private Cursor<Tuple> scan(Dataset dataset, String index, KeyRange range, boolean descending) {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(range, "range");
        checkActive();
        DatasetState ds = engine.state(dataset);
        engine.operations.scan();
        if (DatasetSpec.PRIMARY.equals(index)) {
            lockRange(ds.primaryTreeId, ds.primaryKeys, range);
            byte[] from = ds.primaryKeys.from(range);
            byte[] to = ds.primaryKeys.to(range);
            NavigableMap<byte[], WriteSet.Pending> sliced = slice(writes.of(ds), from, to);
            NavigableMap<byte[], WriteSet.Pending> overlay = descending ? sliced.descendingMap() : sliced;
            return engine.openCursor(() -> new OverlayCursor.Primary(engine, ds, from, to, overlay, descending));
        }
        DatasetState.Secondary sec = ds.secondary(index);
        lockRange(sec.treeId(), sec.codec(), range);
        byte[] from = sec.codec().from(range);
        byte[] to = sec.codec().to(range);
        TreeMap<byte[], Boolean> overlay = new TreeMap<>(Arrays::compareUnsigned);
        for (WriteSet.Pending p : writes.of(ds).values()) {
            if (p.before != null) {
                overlay.put(sec.codec().keyOf(p.before), Boolean.FALSE);
            }
            if (p.after != null) {
                overlay.put(sec.codec().keyOf(p.after), Boolean.TRUE);
            }
        }
        NavigableMap<byte[], Boolean> sliced = slice(overlay, from, to);
        NavigableMap<byte[], Boolean> ordered = descending ? sliced.descendingMap() : sliced;
        return engine.openCursor(() -> new OverlayCursor.Secondary(engine, this, ds, sec, from, to, ordered, descending));
    }

    private static <V> NavigableMap<byte[], V> slice(TreeMap<byte[], V> m, byte[] from, byte[] to) {
        if (from == null && to == null) {
            return m;
        }
        if (from == null) {
            return m.headMap(to, false);
        }
        if (to == null) {
            return m.tailMap(from, true);
        }
        return Arrays.compareUnsigned(from, to) >= 0 ? new TreeMap<>(Arrays::compareUnsigned) : m.subMap(from, true, to, false);
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void insert(Dataset dataset, Tuple record) {
        Objects.requireNonNull(record, "record");
        checkActive();
        DatasetState ds = engine.state(dataset);
        byte[] pk = prepareWrite(ds, record);
        WriteSet.Pending pending = writes.get(ds, pk);
        Tuple current = pending != null ? pending.after : engine.readCommitted(ds, pk);
        if (current != null) {
            throw new DuplicateKeyException("dataset " + ds.spec.name() + " already has a record with primary key "
                    + Arrays.toString(ds.primaryKeys.decode(pk, pk.length, ds.primaryKeys.fieldCount())));
        }
        buffer(ds, pk, record, null, pending == null);
    }

    @Override
    public void upsert(Dataset dataset, Tuple record) {
        Objects.requireNonNull(record, "record");
        checkActive();
        DatasetState ds = engine.state(dataset);
        byte[] pk = prepareWrite(ds, record);
        buffer(ds, pk, record, null, false);
    }

    @Override
    public boolean delete(Dataset dataset, Key primaryKey) {
        Objects.requireNonNull(primaryKey, "primaryKey");
        checkActive();
        DatasetState ds = engine.state(dataset);
        byte[] pk = ds.primaryKeys.encodeFull(primaryKey);
        engine.limits.checkPrimaryKey(ds, pk);
        lockKey(ds.primaryTreeId, ds.primaryKeys, pk, LockMode.X);
        WriteSet.Pending pending = writes.get(ds, pk);
        Tuple current = pending != null ? pending.after : engine.readCommitted(ds, pk);
        if (current == null) {
            return false;
        }
        buffer(ds, pk, null, current, pending == null);
        return true;
    }

    private byte[] prepareWrite(DatasetState ds, Tuple record) {
        ds.records.validate(record);
        byte[] pk = ds.primaryKeys.keyOf(record);
        engine.limits.checkWrite(ds, pk, record);
        lockKey(ds.primaryTreeId, ds.primaryKeys, pk, LockMode.X);
        return pk;
    }

    /**
     * Requires: X lock on {@code pk}. Also locks the secondary entries the write removes and adds.
     *
     * @param committed      the committed record, if the caller read it ({@code known})
     * @param known          whether {@code committed} is the committed record; if not, it is read
     *                       here only when secondary indexes need it
     */
    private void buffer(DatasetState ds, byte[] pk, Tuple after, Tuple committed, boolean known) {
        WriteSet.Pending p = writes.get(ds, pk);
        if (p == null) {
            if (!known && !ds.secondaries.isEmpty()) {
                committed = engine.readCommitted(ds, pk);
                known = true;
            }
            p = new WriteSet.Pending(known ? committed : null, known);
        }
        writes.write(ds, pk, p, after, engine.limits.maxTransactionBytes());
        for (DatasetState.Secondary sec : ds.secondaries) {
            if (p.before != null) {
                lockKey(sec.treeId(), sec.codec(), sec.codec().keyOf(p.before), LockMode.X);
            }
            if (after != null) {
                lockKey(sec.treeId(), sec.codec(), sec.codec().keyOf(after), LockMode.X);
            }
        }
    }

    // ------------------------------------------------------------------ end

    @Override
    public void commit() {
        if (managed) {
            throw new IllegalStateException("commit() inside an inTransaction/callInTransaction body: the engine commits "
                    + "when the body returns (throw from the body to abort)");
        }
        checkActive();
        try {
            int records = 0;
            for (var perDataset : writes.all().values()) {
                records += perDataset.size();
            }
            engine.commit(this);
            engine.operations.recordWrites(records);
            state = State.COMMITTED;
        } catch (CommitNotAppliedException e) {
            state = State.COMMITTED; // logged: recovery applies it
            throw e;
        } catch (RuntimeException e) {
            state = State.ABORTED;
            throw e;
        } finally {
            writes.clear();
            locks.releaseAll();
        }
    }

    @Override
    public void abort() {
        if (state == State.ACTIVE) {
            state = State.ABORTED;
            writes.clear();
            locks.releaseAll();
        }
    }

    @Override
    public void close() {
        abort();
    }
}
