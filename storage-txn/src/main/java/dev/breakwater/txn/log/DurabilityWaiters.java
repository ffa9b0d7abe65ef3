package dev.breakwater.txn.log;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The committers parked in {@link LogManager#awaitDurable}, each with the LSN it waits for. The
 * flusher wakes exactly those whose record became durable, so a batch wakes its own committers and
 * no others (no thundering herd on a shared lock).
 *
 * <p>Why no wake-up is lost: a waiter first {@link #add enqueues} itself, then re-reads the durable
 * LSN and the failure, and only then parks. The flusher first publishes the new durable LSN (or
 * the failure) through a volatile write, then scans the queue. If the waiter's re-read missed the
 * new value, its enqueue came before the flusher's write, so the flusher's scan sees it and unparks
 * it; an unpark that comes before the park makes the park return at once.
 *
 * <p>Thread safety: safe; many waiters and one waker.
 */
final class DurabilityWaiters {

    /** A parked committer. {@code released} is set by the waker before it unparks the thread. */
    static final class Waiter {
        final Thread thread;
        final long lsn;
        volatile boolean released;

        Waiter(Thread thread, long lsn) {
            this.thread = thread;
            this.lsn = lsn;
        }
    }

    private final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();

    /** Registers the calling thread as waiting for the record at {@code lsn}. */
    Waiter add(long lsn) {
        Waiter w = new Waiter(Thread.currentThread(), lsn);
        queue.add(w);
        return w;
    }

    /** Unregisters a waiter that stops waiting on its own (satisfied, failed or interrupted). */
    void remove(Waiter w) {
        if (!w.released) {
            queue.remove(w);
        }
    }

    /** Wakes every waiter whose record lies below {@code durableEnd}. Requires: the new value is published. */
    void releaseBelow(long durableEnd) {
        for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.lsn < durableEnd) {
                w.released = true;
                it.remove();
                LockSupport.unpark(w.thread);
            }
        }
    }

    /** Wakes every waiter (the log failed or closed). Requires: the reason is published. */
    void releaseAll() {
        for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            w.released = true;
            it.remove();
            LockSupport.unpark(w.thread);
        }
    }
}
