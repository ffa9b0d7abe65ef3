package dev.breakwater.txn.lock;

/**
 * A snapshot of a {@link LockManager}'s counters since it was created. The counters are read one
 * by one, so a snapshot taken while transactions run is not an atomic cut.
 *
 * @param requests lock calls that were not already covered by a held mode (re-entrant calls are not counted)
 * @param waits requests that could not be granted at once and waited
 * @param deadlocks deadlock victims chosen (each a {@code TransactionAbortedException} with reason DEADLOCK)
 * @param timeouts waits that gave up after the lock-wait timeout
 * @param waitNanos total time spent waiting, over all waits, granted or not
 */
public record LockStats(long requests, long waits, long deadlocks, long timeouts, long waitNanos) {
}
