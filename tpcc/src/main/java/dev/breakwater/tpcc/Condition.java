package dev.breakwater.tpcc;

/**
 * Accumulates the checks of one consistency condition: each {@link #check} counts one entity, and
 * the first violation's description is kept.
 *
 * <p>Thread safety: none; one checker thread.
 */
final class Condition {

    private final int number;
    private final String description;
    private long checked;
    private long violations;
    private String first;

    Condition(int number, String description) {
        this.number = number;
        this.description = description;
    }

    /** Counts one check; {@code what} is evaluated only when it fails. */
    void check(boolean ok, java.util.function.Supplier<String> what) {
        checked++;
        if (!ok) {
            if (violations++ == 0) {
                first = what.get();
            }
        }
    }

    CheckResult result() {
        return new CheckResult(number, description, true, violations == 0, checked, violations,
                violations == 0 ? "" : first + (violations > 1 ? " (and " + (violations - 1) + " more)" : ""));
    }

    static CheckResult notApplicable(int number, String description, String why) {
        return new CheckResult(number, description, false, false, 0, 0, why);
    }
}
