package dev.breakwater.tpcc;

import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Transaction;
import dev.breakwater.txn.TransactionAbortedException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one TPC-C transaction body as one serializable engine transaction: commits it, aborts it for
 * a {@link SpecRollback} (never retried), and retries it from the start with a randomized growing
 * backoff when the engine aborts it (deadlock victim or lock timeout), for up to {@link #RETRY_FOR_NANOS}.
 * Like {@link StorageEngine#inTransaction}, but it tells rollbacks from commits and counts retries
 * per call.
 *
 * <p>Thread safety: stateless; the body runs on the calling thread.
 */
final class TxExecutor {

    /** How long to keep retrying a transaction the engine aborts (the engine's own helper uses 10 s too). */
    static final long RETRY_FOR_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What happened: committed or rolled back, and after how many engine aborts. */
    record Outcome(boolean committed, int retries) {
    }

    private TxExecutor() {
    }

    /**
     * @throws TransactionAbortedException if the engine still aborts it after retrying for 10 s
     */
    static Outcome run(StorageEngine engine, Consumer<Transaction> body) {
        long deadline = System.nanoTime() + RETRY_FOR_NANOS;
        int retries = 0;
        while (true) {
            try (Transaction tx = engine.begin()) {
                try {
                    body.accept(tx);
                } catch (SpecRollback rollback) {
                    tx.abort();
                    return new Outcome(false, retries);
                }
                tx.commit();
                return new Outcome(true, retries);
            } catch (TransactionAbortedException e) {
                if (!e.isRetryable() || System.nanoTime() > deadline) {
                    throw e;
                }
                retries++;
                backoff(retries);
            }
        }
    }

    private static void backoff(int attempt) {
        long maxMicros = Math.min(50_000, 100L << Math.min(attempt, 9));
        long micros = ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros + 1);
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionAbortedException(TransactionAbortedException.Reason.INTERRUPTED, "interrupted in backoff");
        }
    }
}
