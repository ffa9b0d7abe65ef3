package dev.breakwater.txn;

/**
 * A serializable multi-record transaction. Writes are buffered until {@link #commit()} and visible
 * to this transaction's own reads and scans at once (read-your-writes); other transactions see them
 * only after commit. Strict two-phase locking on the records read and written (and on the scanned
 * ranges, see {@link StorageEngine}) makes the schedule serializable; a deadlock aborts one
 * transaction with {@link TransactionAbortedException}.
 *
 * <p>Writes check sizes at once: a key over the key limit throws {@link IllegalArgumentException},
 * a record over the record limit {@link RecordTooLargeException}, and the write that would take the
 * transaction's log record past {@code max-transaction-size} {@link TransactionTooLargeException}
 * (the transaction keeps its earlier writes). Null arguments throw a {@link NullPointerException}
 * naming the argument; any use after the engine closed throws {@link EngineClosedException}.
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

    /** As {@link #scan(Dataset, KeyRange)}, in descending key order (the same locks, the same records). */
    Cursor<Tuple> reverseScan(Dataset dataset, KeyRange range);

    /** As {@link #scan(Dataset, String, KeyRange)}, in descending index-key order. */
    Cursor<Tuple> reverseScan(Dataset dataset, String index, KeyRange range);

    /**
     * Makes the writes durable (per the engine's durability mode) and visible, then releases locks.
     * Not allowed inside {@link StorageEngine#inTransaction} (which commits when its body returns).
     *
     * @throws StorageFailedException   if the commit was refused or the log could not be written;
     *                                  no tree has the transaction (after a failed fsync, a restart
     *                                  shows it wholly or not at all)
     * @throws CommitNotAppliedException (a StorageFailedException) if the commit is logged but could
     *                                  not be applied to every tree: it is committed, and the next
     *                                  open applies it in full
     * @throws IllegalStateException    inside an {@code inTransaction} body
     */
    void commit();

    /** Discards the writes and releases locks. Idempotent. */
    void abort();

    /** Aborts unless committed. */
    @Override
    void close();
}
