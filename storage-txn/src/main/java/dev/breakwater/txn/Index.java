package dev.breakwater.txn;

/**
 * One index of a dataset, for range scans. Throws {@link EngineClosedException} once the engine is
 * closed. Thread safety: safe.
 */
public interface Index {

    String name();

    /**
     * The records whose index key is in {@code range}, in index-key order. On a secondary index the
     * range is over the indexed fields (optionally followed by primary key fields).
     */
    Cursor<Tuple> scan(KeyRange range);

    /** The records of {@link #scan} over the same range, in descending index-key order, streamed. */
    Cursor<Tuple> reverseScan(KeyRange range);
}
