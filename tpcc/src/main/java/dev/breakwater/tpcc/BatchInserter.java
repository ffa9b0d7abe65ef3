package dev.breakwater.tpcc;

import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.Tuple;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Inserts rows in transactions of at most {@code batchRows} rows (one log record each, well under the
 * log's record-size limit), counting committed rows into a shared progress counter.
 *
 * <p>Thread safety: none; one loader thread. Call {@link #close()} to commit the last batch.
 */
final class BatchInserter implements AutoCloseable {

    private final StorageEngine engine;
    private final int batchRows;
    private final AtomicLong progress;
    private Transaction tx;
    private int pending;

    BatchInserter(StorageEngine engine, int batchRows, AtomicLong progress) {
        this.engine = engine;
        this.batchRows = batchRows;
        this.progress = progress;
    }

    void insert(Dataset dataset, Tuple row) {
        if (tx == null) {
            tx = engine.begin();
        }
        tx.insert(dataset, row);
        if (++pending >= batchRows) {
            commit();
        }
    }

    private void commit() {
        if (tx != null) {
            tx.commit();
            tx.close();
            tx = null;
            progress.addAndGet(pending);
            pending = 0;
        }
    }

    /** Commits the rows inserted since the last batch. */
    @Override
    public void close() {
        commit();
    }
}
