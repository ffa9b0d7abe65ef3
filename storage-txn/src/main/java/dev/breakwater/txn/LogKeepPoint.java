package dev.breakwater.txn;

import dev.breakwater.lsm.manager.ManagedTree;
import java.util.function.LongSupplier;

/**
 * Where the log must be kept from, which is also where a checkpoint may tell recovery to start:
 * the oldest LSN a commit has not yet applied to every tree or a tree holds only in memory, capped
 * at the log's durable end (a crash may lose the records after it).
 *
 * <p>Invariant: every acknowledged commit that some tree does not yet have on disk has an LSN at or
 * above the result. The three readings are not taken atomically, so their order carries the proof.
 * The durable end is read <em>first</em>. A commit that registers in the in-flight guard after the
 * guard was read appends after that, so its LSN is at or above the durable end read and the cap
 * keeps it. A commit seen in the guard is kept by its guard LSN. A commit that left the guard before
 * it was read has been applied to every tree before any tree is scanned, so each tree either still
 * holds it in memory (its oldest memory LSN is at or below it) or has flushed it.
 *
 * <p>Read last (as the engine monitor once did), the durable end could move past a commit that ran
 * wholly during the tree scan: applied to a tree already scanned while empty, flushed out of a tree
 * scanned later. The checkpoint then named a start past that commit and recovery skipped it in the
 * tree that had it only in memory, while the flushed tree kept it: a partly lost transaction.
 *
 * <p>Thread safety: stateless; the suppliers must be safe to call from the calling thread.
 */
final class LogKeepPoint {

    private LogKeepPoint() {
    }

    /**
     * @param durableEnd      the log's durable end ({@code LogManager.durableLsn})
     * @param oldestUnapplied the lowest LSN an in-flight commit has or will get, or {@code Long.MAX_VALUE}
     * @param trees           every tree of the engine
     * @return the LSN the log must be kept from
     */
    static long compute(LongSupplier durableEnd, LongSupplier oldestUnapplied, Iterable<? extends ManagedTree> trees) {
        long end = durableEnd.getAsLong(); // first: see the class comment
        long oldest = oldestUnapplied.getAsLong();
        for (ManagedTree t : trees) {
            oldest = Math.min(oldest, t.oldestMemoryLsn());
        }
        return Math.min(oldest, end);
    }
}
