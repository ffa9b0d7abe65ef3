package dev.breakwater.common.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats byte sizes. Accepted: a number of bytes ({@code "16384"}), or a number
 * followed by a unit, with or without a space, in any case: {@code b}; {@code k kb kib};
 * {@code m mb mib}; {@code g gb gib}; {@code t tb tib}. Units are binary (powers of 1024): storage
 * sizes are pages and buffers, so {@code "64MB"} means 64 MiB. A fraction is allowed if the result
 * is a whole number of bytes ({@code "1.5g"}, not {@code "1.5b"}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Sizes {

    public static final long KIB = 1L << 10;
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;
    public static final long TIB = 1L << 40;

    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z]*)");

    private Sizes() {
    }

    /**
     * Parses {@code text} as a size in bytes.
     *
     * @throws IllegalArgumentException with a message quoting the text and the accepted syntax
     */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; expected a number of bytes or a number"
                    + " with a unit, e.g. 16384, \"16k\", \"64MB\", \"1g\"");
        }
        long unit = unit(m.group(2), text);
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        try {
            return bytes.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes below 2^63", e);
        }
    }

    private static long unit(String suffix, String text) {
        switch (suffix.toLowerCase(Locale.ROOT)) {
            case "": case "b": return 1;
            case "k": case "kb": case "kib": return KIB;
            case "m": case "mb": case "mib": return MIB;
            case "g": case "gb": case "gib": return GIB;
            case "t": case "tb": case "tib": return TIB;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + suffix
                        + "'; expected one of b, k/kb/kib, m/mb/mib, g/gb/gib, t/tb/tib (binary)");
        }
    }

    /** The largest exact unit: {@code 65536 -> "64 KiB"}, {@code 1000 -> "1000 B"}. Parses back to {@code bytes}. */
    public static String format(long bytes) {
        long[] units = {TIB, GIB, MIB, KIB};
        String[] names = {"TiB", "GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            if (bytes != 0 && bytes % units[i] == 0) {
                return bytes / units[i] + " " + names[i];
            }
        }
        return bytes + " B";
    }
}
