package dev.breakwater.lsm.cursor;

import dev.breakwater.lsm.EntryCursor;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;

/** A test cursor over a sorted map; a null value is a tombstone. */
public final class ListCursor implements EntryCursor {

    private final Iterator<Map.Entry<byte[], byte[]>> it;
    private final long lsn;
    private byte[] key;
    private byte[] value;
    public boolean closed;

    public ListCursor(NavigableMap<byte[], byte[]> entries, long lsn) {
        this.it = entries.entrySet().iterator();
        this.lsn = lsn;
    }

    public static java.util.TreeMap<byte[], byte[]> map() {
        return new java.util.TreeMap<>(Arrays::compareUnsigned);
    }

    @Override
    public boolean next() {
        if (!it.hasNext()) {
            return false;
        }
        Map.Entry<byte[], byte[]> e = it.next();
        key = e.getKey();
        value = e.getValue();
        return true;
    }

    @Override
    public byte[] key() {
        return key;
    }

    @Override
    public int keyLength() {
        return key.length;
    }

    @Override
    public byte[] value() {
        return value == null ? new byte[0] : value;
    }

    @Override
    public int valueLength() {
        return value == null ? 0 : value.length;
    }

    @Override
    public boolean isTombstone() {
        return value == null;
    }

    @Override
    public long lsn() {
        return lsn;
    }

    @Override
    public void close() {
        closed = true;
    }
}
