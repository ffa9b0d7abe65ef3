package dev.breakwater.txn;

/**
 * A range of an index's keys. Bounds are {@link Key}s that may be prefixes of the index key: a bound
 * {@code Key.of(1, 2)} on an index (w, d, id) stands for every key starting with (1, 2), so
 * {@code closed(Key.of(1, 2), Key.of(1, 4))} covers all of districts 2..4 and {@code prefix(Key.of(1, 2))}
 * all of district 2. A null bound is open. In a {@link #prefix} range, a last value that is a string
 * or byte array is a prefix of that field: {@code prefix(Key.of(1, 2, "BAR"))} matches "BAR",
 * "BARBARBAR" and "BARN" in district (1, 2).
 *
 * @param low            lower bound or null
 * @param lowInclusive   whether keys starting with {@code low} are included
 * @param high           upper bound or null
 * @param highInclusive  whether keys starting with {@code high} are included
 * @param prefix         a prefix range: the last value, if a string or bytes, matches as a prefix
 */
public record KeyRange(Key low, boolean lowInclusive, Key high, boolean highInclusive, boolean prefix) {

    private static final KeyRange ALL = new KeyRange(null, true, null, true, false);

    public static KeyRange all() {
        return ALL;
    }

    /**
     * Every key whose leading fields equal {@code prefix}'s values, the last of them matching as a
     * prefix when it is a string or byte array.
     */
    public static KeyRange prefix(Key prefix) {
        java.util.Objects.requireNonNull(prefix, "prefix");
        return new KeyRange(prefix, true, prefix, true, true);
    }

    /** Exactly the keys whose leading fields equal {@code key}'s values (all fields: one key). */
    public static KeyRange exactly(Key key) {
        return new KeyRange(key, true, key, true, false);
    }

    /** {@code low <= key <= high}. */
    public static KeyRange closed(Key low, Key high) {
        return new KeyRange(low, true, high, true, false);
    }

    /** {@code low <= key < high}. */
    public static KeyRange closedOpen(Key low, Key high) {
        return new KeyRange(low, true, high, false, false);
    }

    /** {@code low < key < high}. */
    public static KeyRange open(Key low, Key high) {
        return new KeyRange(low, false, high, false, false);
    }

    public static KeyRange atLeast(Key low) {
        return new KeyRange(low, true, null, true, false);
    }

    public static KeyRange greaterThan(Key low) {
        return new KeyRange(low, false, null, true, false);
    }

    public static KeyRange atMost(Key high) {
        return new KeyRange(null, true, high, true, false);
    }

    /** True if the range's last bound value matches as a prefix of its field. */
    public boolean lastValueIsPrefix() {
        if (!prefix || low == null || low.size() == 0) {
            return false;
        }
        Object last = low.raw(low.size() - 1);
        return last instanceof String || last instanceof byte[];
    }

    public static KeyRange lessThan(Key high) {
        return new KeyRange(null, true, high, false, false);
    }
}
