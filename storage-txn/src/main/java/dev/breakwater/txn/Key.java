package dev.breakwater.txn;

import java.util.Arrays;

/**
 * Values of an index key, in index field order: the full key, or a prefix of it (the first fields)
 * for ranges. Immutable.
 */
public final class Key {

    private final Object[] values;

    private Key(Object[] values) {
        this.values = values;
    }

    public static Key of(Object... values) {
        Object[] copy = java.util.Objects.requireNonNull(values, "values").clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] instanceof byte[] b) {
                copy[i] = b.clone();
            }
        }
        return new Key(copy);
    }

    public int size() {
        return values.length;
    }

    Object raw(int i) {
        return values[i];
    }

    public Object get(int i) {
        Object v = values[i];
        return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && Arrays.deepEquals(values, k.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return "Key" + Arrays.deepToString(values);
    }
}
