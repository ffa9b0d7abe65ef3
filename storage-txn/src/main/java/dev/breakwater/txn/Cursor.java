package dev.breakwater.txn;

import java.util.Iterator;

/**
 * The results of a scan, in key order, from one consistent snapshot. Close it (try-with-resources):
 * an open cursor holds the snapshot's memory and files.
 */
public interface Cursor<T> extends Iterator<T>, AutoCloseable {

    @Override
    void close();
}
