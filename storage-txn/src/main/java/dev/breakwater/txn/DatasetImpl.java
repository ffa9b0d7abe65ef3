package dev.breakwater.txn;

/**
 * The public handle of a dataset. It holds only the name and resolves the current
 * {@link DatasetState} through the engine on each call, so a handle stays valid across index
 * additions and fails with {@link UnknownDatasetException} once the dataset is dropped.
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
        return engine.state(this).spec;
    }

    @Override
    public void insert(Tuple record) {
        engine.inTransaction(tx -> tx.insert(this, record));
    }

    @Override
    public void upsert(Tuple record) {
        engine.inTransaction(tx -> tx.upsert(this, record));
    }

    @Override
    public boolean delete(Key primaryKey) {
        return engine.callInTransaction(tx -> tx.delete(this, primaryKey));
    }

    @Override
    public Tuple get(Key primaryKey) {
        engine.checkOpen();
        DatasetState ds = engine.state(this);
        engine.operations.pointRead();
        return engine.readCommitted(ds, ds.primaryKeys.encodeFull(primaryKey));
    }

    @Override
    public Cursor<Tuple> scan(KeyRange range) {
        return index(DatasetSpec.PRIMARY).scan(range);
    }

    @Override
    public Index index(String indexName) {
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
                engine.checkOpen();
                DatasetState s = engine.state(DatasetImpl.this);
                engine.operations.scan();
                if (DatasetSpec.PRIMARY.equals(indexName)) {
                    return new OverlayCursor.Primary(engine, s, s.primaryKeys.from(range), s.primaryKeys.to(range),
                            new java.util.TreeMap<>(java.util.Arrays::compareUnsigned));
                }
                DatasetState.Secondary sec = s.secondary(indexName);
                return new OverlayCursor.Secondary(engine, null, s, sec, sec.codec().from(range), sec.codec().to(range),
                        new java.util.TreeMap<>(java.util.Arrays::compareUnsigned));
            }
        };
    }

    @Override
    public String toString() {
        return "Dataset[" + name + "]";
    }
}
