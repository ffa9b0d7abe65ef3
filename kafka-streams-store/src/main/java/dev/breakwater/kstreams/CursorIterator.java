package dev.breakwater.kstreams;

import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Tuple;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A Kafka Streams iterator over a Breakwater cursor of (key, value) records, in the cursor's order
 * (ascending unsigned byte order of keys, or descending for a reverse range: the cursor streams
 * either way), from the cursor's snapshot. It holds the cursor (and so the snapshot's memory
 * components and files) until {@link #close()}; the store closes every iterator still open when it
 * closes, so none outlives its store or leaks a cursor.
 *
 * <p>Thread safety: one thread at a time (as Kafka Streams iterators).
 */
final class CursorIterator implements KeyValueIterator<Bytes, byte[]> {

    private final String storeName;
    private final Cursor<Tuple> cursor;
    private final Runnable onClose;
    private KeyValue<Bytes, byte[]> next;
    private boolean closed;

    CursorIterator(String storeName, Cursor<Tuple> cursor, Runnable onClose) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.onClose = onClose;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            throw new InvalidStateStoreException("iterator of Breakwater store " + storeName + " is closed");
        }
        if (next == null && cursor.hasNext()) {
            Tuple t = cursor.next();
            next = KeyValue.pair(Bytes.wrap(t.getBytes(0)), t.getBytes(1));
        }
        return next != null;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in iterator of store " + storeName);
        }
        KeyValue<Bytes, byte[]> kv = next;
        next = null;
        return kv;
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in iterator of store " + storeName);
        }
        return next.key;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            next = null;
            try {
                cursor.close();
            } finally {
                onClose.run();
            }
        }
    }
}
