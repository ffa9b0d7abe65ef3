package dev.breakwater.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {

    /** docs/ at the repository root; Surefire runs with the module directory as working directory. */
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void tableListsEveryOptionWithItsDefaultAndRange() {
        String md = StorageConfig.describe();
        for (Option<?> o : ConfigOptions.ALL) {
            String row = md.lines().filter(l -> l.startsWith("| `" + o.name() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + o.name()));
            assertTrue(row.contains(o.allowed()), row);
            assertTrue(row.contains(o.description()), row);
        }
        for (OptionConstraint<?> c : ConfigOptions.CONSTRAINTS) {
            assertTrue(md.contains(c.describe().replaceFirst(" \\(", "` (")), c.describe());
        }
        assertTrue(md.contains("| `page-size` | size | 16 KiB (16384) | bytes | 4 KiB .. 1 MiB, power of two |"), md);
    }

    @Test
    void committedDocMatchesTheTable() throws IOException {
        String expected = ConfigDocs.markdown();
        if (Boolean.getBoolean("breakwater.updateDocs")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(DOC), "missing " + DOC.toAbsolutePath());
        assertEquals(expected, Files.readString(DOC, StandardCharsets.UTF_8),
                "docs/configuration.md is out of date; regenerate with -Dbreakwater.updateDocs=true (see ConfigDocs)");
    }
}
