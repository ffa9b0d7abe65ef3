package dev.breakwater.txn;

/**
 * A range of an index's keys. Bounds are {@link Key}s that may be prefixes of the index key: a bound
 * {@code Key.of(1, 2)} on an index (w, d, id) stands for every key starting with (1, 2), so
 * {@code closed(Key.of(1, 2), Key.of(1, 4))} covers all of districts 2..4 and {@code prefix(Key.of(1, 2))}
 * all of district 2. A null bound is open.
 *
 * @param low            lower bound or null
 * @param lowInclusive   whether keys starting with {@code low} are included
 * @param high           upper bound or null
 * @param highInclusive  whether keys starting with {@code high} are included
 */
public record KeyRange(Key low, boolean lowInclusive, Key high, boolean highInclusive) {

    private static final KeyRange ALL = new KeyRange(null, true, null, true);

    public static KeyRange all() {
        return ALL;
    }

    /** Every key that starts with {@code prefix}. */
    public static KeyRange prefix(Key prefix) {
        return new KeyRange(prefix, true, prefix, true);
    }

    /** Exactly one key (or every key with that prefix). */
    public static KeyRange exactly(Key key) {
        return prefix(key);
    }

    /** {@code low <= key <= high}. */
    public static KeyRange closed(Key low, Key high) {
        return new KeyRange(low, true, high, true);
    }

    /** {@code low <= key < high}. */
    public static KeyRange closedOpen(Key low, Key high) {
        return new KeyRange(low, true, high, false);
    }

    /** {@code low < key < high}. */
    public static KeyRange open(Key low, Key high) {
        return new KeyRange(low, false, high, false);
    }

    public static KeyRange atLeast(Key low) {
        return new KeyRange(low, true, null, true);
    }

    public static KeyRange greaterThan(Key low) {
        return new KeyRange(low, false, null, true);
    }

    public static KeyRange atMost(Key high) {
        return new KeyRange(null, true, high, true);
    }

    public static KeyRange lessThan(Key high) {
        return new KeyRange(null, true, high, false);
    }
}
