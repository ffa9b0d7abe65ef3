package dev.breakwater.tpcc;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses durations as written on the command line: a number with a unit {@code ms}, {@code s},
 * {@code m} or {@code h} ("300s", "5m"); a bare number is seconds.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern P = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|min|h)?");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        Matcher m = P.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration; use e.g. 500ms, 60s, 5m, 1h");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> n;
            case "s" -> n * 1000;
            case "m", "min" -> n * 60_000;
            default -> n * 3_600_000;
        };
        return Duration.ofMillis(Math.round(millis));
    }
}
