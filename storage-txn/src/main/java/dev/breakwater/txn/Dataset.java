package dev.breakwater.txn;

/**
 * A dataset: a named collection of records with a schema, one primary index and zero or more
 * secondary indexes. Each method here is its own atomic, durable transaction (AsterixDB's
 * record-level model); use {@link StorageEngine#inTransaction} to group several.
 *
 * <p>Writes are checked before anything is logged: a primary or secondary key over the key limit
 * throws {@link IllegalArgumentException} naming the index and its fields, a record over the record
 * limit {@link RecordTooLargeException} (docs/configuration.md, "Size limits"). Null arguments throw
 * a {@link NullPointerException} naming the argument; every method throws
 * {@link EngineClosedException} once the engine is closed.
 *
 * <p>Thread safety: safe from any thread.
 */
public interface Dataset {

    String name();

    DatasetSpec spec();

    /**
     * Inserts a new record.
     *
     * @throws DuplicateKeyException if a record with the same primary key exists
     * @throws SchemaException       if the tuple does not fit the schema
     */
    void insert(Tuple record);

    /** Inserts or replaces the record with the tuple's primary key. */
    void upsert(Tuple record);

    /** Deletes the record with this primary key; returns whether there was one. */
    boolean delete(Key primaryKey);

    /** The record with this primary key, or null. */
    Tuple get(Key primaryKey);

    /**
     * Records with primary keys in {@code range}, in key order, from one snapshot of the primary
     * index; for a partitioned dataset, one snapshot per partition, taken in turn and merged (a
     * multi-record commit running concurrently may be seen in some partitions only; a scan inside
     * a transaction is exact).
     */
    Cursor<Tuple> scan(KeyRange range);

    /**
     * The records of {@link #scan} over the same range, in descending primary-key order. Streams
     * like {@link #scan} (the trees are read backward; nothing is buffered), with the same snapshot
     * rules.
     */
    Cursor<Tuple> reverseScan(KeyRange range);

    /** An index: {@value DatasetSpec#PRIMARY} or a secondary index's name. */
    Index index(String name);
}
