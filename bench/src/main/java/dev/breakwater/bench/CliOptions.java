package dev.breakwater.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The option parser of the drivers that take plain {@code --name value} options (the log, commit,
 * recovery and write-amplification drivers; the figure and YCSB drivers use picocli).
 *
 * <p>Thread safety: stateless; safe.
 */
public final class CliOptions {

    private CliOptions() {
    }

    /**
     * Parses {@code --name value} and {@code --name=value} pairs, in order. Returns null for
     * {@code --help} or {@code -h}.
     *
     * @throws IllegalArgumentException for a stray argument or an option without a value
     */
    public static Map<String, String> parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                m.put(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < args.length) {
                m.put(a.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
        }
        return m;
    }
}
