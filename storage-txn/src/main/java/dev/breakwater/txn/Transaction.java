package dev.breakwater.txn;

/**
 * A serializable multi-record transaction. Writes are buffered until {@link #commit()} and visible
 * to this transaction's own reads and scans at once (read-your-writes); other transactions see them
 * only after commit. Strict two-phase locking on the records read and written (and on the scanned
 * ranges, see {@link StorageEngine}) makes the schedule serializable; a deadlock aborts one
 * transaction with {@link TransactionAbortedException}.
 *
 * <p>Thread safety: a transaction is used by one thread. Close it (try-with-resources): closing an
 * uncommitted transaction aborts it.
 */
public interface Transaction extends AutoCloseable {

    Tuple get(Dataset dataset, Key primaryKey);

    void insert(Dataset dataset, Tuple record);

    void upsert(Dataset dataset, Tuple record);

    boolean delete(Dataset dataset, Key primaryKey);

    /** Scans the primary index of {@code dataset}. */
    Cursor<Tuple> scan(Dataset dataset, KeyRange range);

    /** Scans an index ({@value DatasetSpec#PRIMARY} or a secondary index) of {@code dataset}. */
    Cursor<Tuple> scan(Dataset dataset, String index, KeyRange range);

    /**
     * Makes the writes durable (per the engine's durability mode) and visible, then releases locks.
     *
     * @throws StorageFailedException if the log cannot be written; nothing was acknowledged
     */
    void commit();

    /** Discards the writes and releases locks. Idempotent. */
    void abort();

    /** Aborts unless committed. */
    @Override
    void close();
}
