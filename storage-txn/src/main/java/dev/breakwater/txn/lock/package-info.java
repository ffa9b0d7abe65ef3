/**
 * Lock manager for serializable multi-record transactions: strict two-phase locking with
 * multi-granularity modes ({@link dev.breakwater.txn.lock.LockMode}), FIFO-fair queues with
 * upgrades, waits-for deadlock detection and a lock-wait timeout.
 *
 * <p>How the engine uses it for phantom protection. Each index of a dataset (primary or
 * secondary) is a lock hierarchy: index, key prefix of length 1, key prefix of length 2, ...,
 * full key. The engine hashes (dataset, index, level, key bytes) into a 64-bit resource id per node
 * and locks top-down:
 * <ul>
 *   <li>a point read: IS on every ancestor, S on the key;
 *   <li>a range scan: IS down to the deepest prefix that both bounds share, S on that prefix node;
 *   <li>a write: IX on every ancestor, X on the key, for every index entry it adds or removes.
 * </ul>
 * A writer that would insert into a scanned range needs IX on the prefix node the scanner holds
 * in S, which conflicts, so no phantom can appear in the range before the scanner commits.
 *
 * <p>Public types: {@link dev.breakwater.txn.lock.LockManager},
 * {@link dev.breakwater.txn.lock.LockMode}, {@link dev.breakwater.txn.lock.TxnLockOwner},
 * {@link dev.breakwater.txn.lock.LockStats}; failures are
 * {@link dev.breakwater.txn.TransactionAbortedException}.
 */
package dev.breakwater.txn.lock;
