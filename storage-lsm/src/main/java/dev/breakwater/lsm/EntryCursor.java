package dev.breakwater.lsm;

import java.io.Closeable;
import java.io.IOException;

/**
 * A forward cursor over entries in strictly increasing unsigned-lexicographic key order: the common
 * shape of memory components, SSTables, merges and range scans. It allocates nothing per entry: the
 * current key and value are exposed as arrays that the cursor owns and may reuse, valid until the
 * next call to {@link #next()} or {@link #close()}; only the first {@link #keyLength()} and
 * {@link #valueLength()} bytes are meaningful.
 *
 * <p>Usage: {@code while (c.next()) { use c.key(), c.keyLength(), ... }}.
 *
 * <p>Thread safety: a cursor is used by one thread.
 */
public interface EntryCursor extends Closeable {

    /** Advances to the next entry; false when there is none (and stays false). */
    boolean next() throws IOException;

    /** The current key; bytes {@code [0, keyLength())} are valid. */
    byte[] key();

    int keyLength();

    /** The current value; bytes {@code [0, valueLength())} are valid. Empty for tombstones. */
    byte[] value();

    int valueLength();

    /** True if the current entry deletes its key (anti-matter). */
    boolean isTombstone();

    /**
     * The LSN of the write that produced the current entry, where the component keeps one (memory
     * components); disk components report their maximum LSN.
     */
    long lsn();

    @Override
    void close() throws IOException;

    /**
     * Closes every cursor of {@code cursors}, even after one fails; throws the first failure with
     * the later ones suppressed. The close of merging cursors, which own their sources.
     */
    static void closeAll(EntryCursor[] cursors) throws IOException {
        IOException first = null;
        for (EntryCursor c : cursors) {
            try {
                c.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
