package dev.breakwater.txn;

import java.util.Arrays;

/**
 * A record: one value per field of its dataset, in field order. Values are {@link Integer},
 * {@link Long}, {@link Double}, {@link String}, {@code byte[]} or null. Immutable (byte arrays are
 * copied in and out).
 */
public final class Tuple {

    private final Object[] values;

    private Tuple(Object[] values) {
        this.values = values;
    }

    /** A tuple of the given values, in field order. */
    public static Tuple of(Object... values) {
        Object[] copy = java.util.Objects.requireNonNull(values, "values").clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] instanceof byte[] b) {
                copy[i] = b.clone();
            }
        }
        return new Tuple(copy);
    }

    /** Wraps an array the caller will not touch again. */
    static Tuple wrap(Object[] values) {
        return new Tuple(values);
    }

    public int size() {
        return values.length;
    }

    /** The value at {@code i} (byte arrays are copied). */
    public Object get(int i) {
        Object v = values[i];
        return v instanceof byte[] b ? b.clone() : v;
    }

    Object raw(int i) {
        return values[i];
    }

    public boolean isNull(int i) {
        return values[i] == null;
    }

    public int getInt(int i) {
        return (Integer) values[i];
    }

    public long getLong(int i) {
        return (Long) values[i];
    }

    public double getDouble(int i) {
        return (Double) values[i];
    }

    public String getString(int i) {
        return (String) values[i];
    }

    public byte[] getBytes(int i) {
        return ((byte[]) values[i]).clone();
    }

    /** A copy with value {@code i} replaced. */
    public Tuple with(int i, Object value) {
        Object[] copy = values.clone();
        copy[i] = value instanceof byte[] b ? b.clone() : value;
        return new Tuple(copy);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tuple t && Arrays.deepEquals(values, t.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
