package dev.breakwater.txn;

import java.util.Arrays;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The public handle of a dataset. It holds only the name and resolves the current
 * {@link DatasetState} through the engine on each call, so a handle stays valid across index
 * additions and fails with {@link UnknownDatasetException} once the dataset is dropped, and with
 * {@link EngineClosedException} once the engine is closed.
 *
 * <p>Thread safety: safe.
 */
final class DatasetImpl implements Dataset {

    private final StorageEngine engine;
    private final String name;

    DatasetImpl(StorageEngine engine, String name) {
        this.engine = engine;
        this.name = name;
    }

    StorageEngine engine() {
        return engine;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public DatasetSpec spec() {
        engine.checkOpen();
        return engine.state(this).spec;
    }

    @Override
    public void insert(Tuple record) {
        Objects.requireNonNull(record, "record");
        engine.inTransaction(tx -> tx.insert(this, record));
    }

    @Override
    public void upsert(Tuple record) {
        Objects.requireNonNull(record, "record");
        engine.inTransaction(tx -> tx.upsert(this, record));
    }

    @Override
    public boolean delete(Key primaryKey) {
        Objects.requireNonNull(primaryKey, "primaryKey");
        return engine.callInTransaction(tx -> tx.delete(this, primaryKey));
    }

    @Override
    public Tuple get(Key primaryKey) {
        Objects.requireNonNull(primaryKey, "primaryKey");
        engine.checkOpen();
        DatasetState ds = engine.state(this);
        engine.operations.pointRead();
        return engine.readCommitted(ds, ds.primaryKeys.encodeFull(primaryKey));
    }

    @Override
    public Cursor<Tuple> scan(KeyRange range) {
        Objects.requireNonNull(range, "range");
        return index(DatasetSpec.PRIMARY).scan(range);
    }

    @Override
    public Cursor<Tuple> reverseScan(KeyRange range) {
        Objects.requireNonNull(range, "range");
        return index(DatasetSpec.PRIMARY).reverseScan(range);
    }

    @Override
    public Index index(String indexName) {
        Objects.requireNonNull(indexName, "indexName");
        engine.checkOpen();
        DatasetState ds = engine.state(this);
        if (!DatasetSpec.PRIMARY.equals(indexName)) {
            ds.secondary(indexName);
        }
        return new Index() {
            @Override
            public String name() {
                return indexName;
            }

            @Override
            public Cursor<Tuple> scan(KeyRange range) {
                return scanIndex(range, false);
            }

            @Override
            public Cursor<Tuple> reverseScan(KeyRange range) {
                return scanIndex(range, true);
            }

            private Cursor<Tuple> scanIndex(KeyRange range, boolean descending) {
                Objects.requireNonNull(range, "range");
                engine.checkOpen();
                DatasetState s = engine.state(DatasetImpl.this);
                engine.operations.scan();
                if (DatasetSpec.PRIMARY.equals(indexName)) {
                    byte[] from = s.primaryKeys.from(range);
                    byte[] to = s.primaryKeys.to(range);
                    return engine.openCursor(() -> new OverlayCursor.Primary(engine, s, from, to, new TreeMap<>(Arrays::compareUnsigned),
                            descending));
                }
                DatasetState.Secondary sec = s.secondary(indexName);
                byte[] from = sec.codec().from(range);
                byte[] to = sec.codec().to(range);
                return engine.openCursor(() -> new OverlayCursor.Secondary(engine, null, s, sec, from, to,
                        new TreeMap<>(Arrays::compareUnsigned), descending));
            }
        };
    }

    @Override
    public String toString() {
        return "Dataset[" + name + "]";
    }
}
