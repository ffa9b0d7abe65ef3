package dev.breakwater.kstreams;

import java.util.List;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A Kafka Streams iterator over entries already read into a list (a reverse range: Breakwater's
 * cursors only move forward, so the store reads the range forward and hands it out backwards; see
 * docs/kafka-streams.md). Holds no engine resources.
 *
 * <p>Thread safety: one thread at a time.
 */
final class ListIterator implements KeyValueIterator<Bytes, byte[]> {

    private final String storeName;
    private final List<KeyValue<Bytes, byte[]>> entries;
    private int pos;
    private boolean closed;

    ListIterator(String storeName, List<KeyValue<Bytes, byte[]>> entries) {
        this.storeName = storeName;
        this.entries = entries;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            throw new InvalidStateStoreException("iterator of Breakwater store " + storeName + " is closed");
        }
        return pos < entries.size();
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in iterator of store " + storeName);
        }
        return entries.get(pos++);
    }

    @Override
    public Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in iterator of store " + storeName);
        }
        return entries.get(pos).key;
    }

    @Override
    public void close() {
        closed = true;
    }
}
