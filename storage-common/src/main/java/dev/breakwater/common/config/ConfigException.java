package dev.breakwater.common.config;

/**
 * A configuration that cannot be accepted: unknown option, value of the wrong type or out of
 * range, a violated relation between options, or an unreadable file. The message names the option
 * (or the file) and says what would be accepted.
 */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String option;

    public ConfigException(String option, String message) {
        super(message);
        this.option = option;
    }

    public ConfigException(String option, String message, Throwable cause) {
        super(message, cause);
        this.option = option;
    }

    /** The option at fault, or {@code null} when the problem is not with one option (e.g. a malformed file). */
    public String option() {
        return option;
    }
}
