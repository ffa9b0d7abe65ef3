package dev.breakwater.common.config;

/**
 * A required order between the values of two options of the same type, e.g.
 * {@code write-memory < total-memory}. Declared in {@link ConfigOptions#CONSTRAINTS}, checked by
 * {@link StorageConfig.Builder#build()} and listed in the documentation.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the type of both options
 */
public final class OptionConstraint<T extends Comparable<? super T>> {

    private final Option<T> smaller;
    private final Option<T> larger;
    private final boolean strict;
    private final String reason;

    private OptionConstraint(Option<T> smaller, Option<T> larger, boolean strict, String reason) {
        this.smaller = smaller;
        this.larger = larger;
        this.strict = strict;
        this.reason = reason;
    }

    /** Requires {@code smaller < larger}. */
    static <T extends Comparable<? super T>> OptionConstraint<T> lessThan(Option<T> smaller, Option<T> larger, String reason) {
        return new OptionConstraint<>(smaller, larger, true, reason);
    }

    /** Requires {@code smaller <= larger}. */
    static <T extends Comparable<? super T>> OptionConstraint<T> atMost(Option<T> smaller, Option<T> larger, String reason) {
        return new OptionConstraint<>(smaller, larger, false, reason);
    }

    /** The rule in words, e.g. {@code "write-memory < total-memory (the buffer cache gets the rest)"}. */
    public String describe() {
        return smaller.name() + (strict ? " < " : " <= ") + larger.name() + " (" + reason + ")";
    }

    /** @throws ConfigException naming the first option and both values if {@code config} violates the rule */
    void check(StorageConfig config) {
        T a = config.get(smaller);
        T b = config.get(larger);
        int c = a.compareTo(b);
        if (strict ? c >= 0 : c > 0) {
            throw new ConfigException(smaller.name(), "option '" + smaller.name() + "' = " + smaller.show(a) + " must be "
                    + (strict ? "less than" : "at most") + " '" + larger.name() + "' = " + larger.show(b) + ": " + reason);
        }
    }
}
