package dev.breakwater.txn;

import java.util.Iterator;

/**
 * The results of a scan, in key order, from one consistent snapshot. Close it (try-with-resources):
 * an open cursor holds the snapshot's memory and files.
 *
 * <p>When its engine is closed, an open cursor is invalidated (the engine does not wait for it):
 * {@link #hasNext()} and {@link #next()} then throw {@link EngineClosedException}, and
 * {@link #close()} does nothing. A step running on another thread when close begins completes first.
 *
 * <p>Thread safety: one thread at a time.
 */
public interface Cursor<T> extends Iterator<T>, AutoCloseable {

    @Override
    void close();
}
