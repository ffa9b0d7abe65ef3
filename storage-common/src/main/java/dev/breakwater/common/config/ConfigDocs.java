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
        sb.append("\n## Checked at open\n\n")
                .append("- `total-memory` must fit in the machine's physical memory and in the JVM's direct-memory limit\n")
                .append("  (`-XX:MaxDirectMemorySize`, which defaults to the maximum heap `-Xmx`) minus the direct memory already\n")
                .append("  in use: both pools are off-heap direct buffers. Otherwise `open` fails at once, before allocating\n")
                .append("  anything, with both numbers and the option or JVM flag to change.\n");
        sb.append("\n## Size limits\n\n")
                .append("Checked at the write, with an exception that names the dataset, index and fields:\n\n")
                .append("- a key of any index (the encoded primary key; for a secondary index the encoded indexed fields followed\n")
                .append("  by the primary key) is at most about half a page: 8,128 bytes with the default 16 KiB `page-size`\n")
                .append("  (1,984 with 4 KiB pages); longer keys fail with `IllegalArgumentException`. Each field encodes to a\n")
                .append("  1-byte tag plus: int32 4 bytes, int64 and float64 8, a string (UTF-8) or byte array its bytes, each\n")
                .append("  zero byte doubled, plus a 2-byte terminator; null nothing.\n")
                .append("- a record (encoded primary key plus encoded record) fits one page: 16,352 bytes with 16 KiB pages\n")
                .append("  (4,064 with 4 KiB pages);\n")
                .append("  larger records fail with `RecordTooLargeException`.\n")
                .append("- a transaction's log payload is at most `max-transaction-size`; the write that would cross it fails\n")
                .append("  with `TransactionTooLargeException` and the transaction stays usable.\n");
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
