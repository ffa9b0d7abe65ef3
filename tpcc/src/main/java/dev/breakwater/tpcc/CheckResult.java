package dev.breakwater.tpcc;

/**
 * The outcome of one consistency condition (clause 3.3.2).
 *
 * @param condition   its number, 1..12
 * @param description what it requires
 * @param applicable  false when the condition does not hold by design in this state (reported, not failed)
 * @param passed      true if applicable and no violation was found
 * @param checked     how many rows/entities were checked
 * @param violations  how many violated it
 * @param detail      the first violation, or a note
 */
public record CheckResult(int condition, String description, boolean applicable, boolean passed, long checked,
                          long violations, String detail) {

    /** True unless the condition applies and failed. */
    public boolean ok() {
        return !applicable || passed;
    }
}
