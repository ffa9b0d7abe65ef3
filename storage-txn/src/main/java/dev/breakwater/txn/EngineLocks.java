package dev.breakwater.txn;

import dev.breakwater.txn.lock.LockManager;
import dev.breakwater.txn.lock.LockMode;
import dev.breakwater.txn.lock.LockStats;
import dev.breakwater.txn.lock.TxnLockOwner;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's lock manager and the per-transaction handle onto it. Transaction ids increase, so a
 * smaller id is an older transaction (the lock manager uses age to choose deadlock victims).
 *
 * <p>Thread safety: safe; an {@link Owner} is used by its transaction's thread.
 */
final class EngineLocks {

    private final LockManager manager = new LockManager();
    private final AtomicLong ids = new AtomicLong();
    private final LongAdder retries = new LongAdder();

    Owner newOwner() {
        return new Owner(new TxnLockOwner(ids.incrementAndGet()));
    }

    void countRetry() {
        retries.increment();
    }

    long retries() {
        return retries.sum();
    }

    LockStats stats() {
        return manager.stats();
    }

    /** One transaction's locks. */
    final class Owner {
        private final TxnLockOwner owner;

        private Owner(TxnLockOwner owner) {
            this.owner = owner;
        }

        void lock(long resource, LockMode mode) {
            manager.lock(owner, resource, mode);
        }

        void releaseAll() {
            manager.releaseAll(owner);
        }
    }
}
