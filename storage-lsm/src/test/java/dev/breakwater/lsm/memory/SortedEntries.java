package dev.breakwater.lsm.memory;

import dev.breakwater.lsm.EntryCursor;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** A model of a sorted run for tests: key to (value or tombstone, seq), and a cursor over it. */
final class SortedEntries {

    /** One version; {@code value == null} is a tombstone. */
    record Version(byte[] value, long seq) {
        boolean tombstone() {
            return value == null;
        }
    }

    private SortedEntries() {
    }

    static TreeMap<byte[], Version> model() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /** A cursor over {@code entries} in key order. */
    static EntryCursor cursor(NavigableMap<byte[], Version> entries) {
        return new EntryCursor() {
            private final Iterator<Map.Entry<byte[], Version>> it = entries.entrySet().iterator();
            private Map.Entry<byte[], Version> current;

            @Override
            public boolean next() {
                current = it.hasNext() ? it.next() : null;
                return current != null;
            }

            @Override
            public byte[] key() {
                return current.getKey();
            }

            @Override
            public int keyLength() {
                return current.getKey().length;
            }

            @Override
            public byte[] value() {
                return current.getValue().tombstone() ? new byte[0] : current.getValue().value();
            }

            @Override
            public int valueLength() {
                return current.getValue().tombstone() ? 0 : current.getValue().value().length;
            }

            @Override
            public boolean isTombstone() {
                return current.getValue().tombstone();
            }

            @Override
            public long lsn() {
                return current.getValue().seq();
            }

            @Override
            public void close() {
            }
        };
    }
}
