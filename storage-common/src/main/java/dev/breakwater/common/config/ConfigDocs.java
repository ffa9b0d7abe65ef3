package dev.breakwater.common.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Renders the option table of {@link ConfigOptions} as Markdown: the source of
 * {@code docs/configuration.md}. {@code ConfigDocsTest} fails while that file is out of date;
 * regenerate it with {@code mvn -o -pl storage-common test -Dtest=ConfigDocsTest -Dbreakwater.updateDocs=true}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConfigDocs {

    private ConfigDocs() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Configuration\n\n")
                .append("<!-- Generated from ConfigOptions by dev.breakwater.common.config.ConfigDocs; do not edit by hand. -->\n\n")
                .append("A configuration file is a JSON (`.json`) or YAML (`.yaml`, `.yml`) mapping from option names to\n")
                .append("values. Absent options keep their defaults; unknown options are rejected. Sizes are a number of\n")
                .append("bytes or a string with a binary unit: `16384`, `\"16k\"`, `\"64MB\"`, `\"1.5g\"` (k/kb/kib = 1024, m = 1024²,\n")
                .append("g = 1024³, t = 1024⁴). Enum values are case-insensitive.\n\n")
                .append("| Option | Type | Default | Unit | Allowed | Description |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Option<?> o : ConfigOptions.ALL) {
            row(sb, o);
        }
        sb.append("\n## Relations between options\n\n");
        for (OptionConstraint<?> c : ConfigOptions.CONSTRAINTS) {
            sb.append("- `").append(c.describe().replaceFirst(" \\(", "` (")).append('\n');
        }
        sb.append("\n## Derived values\n\n")
                .append("- buffer cache = `total-memory` - `write-memory` (not an option; the memory tuner moves the split at run time)\n");
        return sb.toString();
    }

    private static <T extends Comparable<? super T>> void row(StringBuilder sb, Option<T> o) {
        sb.append("| `").append(o.name()).append("` | ").append(o.type().name())
                .append(" | ").append(cell(o.show(o.defaultValue())))
                .append(" | ").append(cell(o.unit()))
                .append(" | ").append(cell(o.allowed()))
                .append(" | ").append(cell(o.description())).append(" |\n");
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }

    /** Writes {@link #markdown()} to the file named by the first argument. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ConfigDocs <output.md>");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), markdown(), StandardCharsets.UTF_8);
    }
}
