package dev.breakwater.txn;

import java.util.regex.Pattern;

/**
 * Validates dataset, index and field names. A name starts with a letter, continues with letters,
 * digits or underscores, and has at most 64 characters, so it can never contain a path separator,
 * "..", or anything else that could reach outside the data directory when used in a file name.
 */
public final class Names {

    private static final Pattern VALID = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");

    private Names() {
    }

    /**
     * @param what "dataset", "index" or "field", for the message
     * @throws SchemaException if {@code name} is not valid
     */
    public static String check(String what, String name) {
        if (name == null || !VALID.matcher(name).matches()) {
            throw new SchemaException("invalid " + what + " name '" + name + "': use 1-64 letters, digits or '_', starting with a letter");
        }
        return name;
    }
}
