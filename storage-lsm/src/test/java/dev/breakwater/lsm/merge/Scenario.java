package dev.breakwater.lsm.merge;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionBuilder;
import dev.breakwater.lsm.version.VersionEdit;
import java.nio.charset.StandardCharsets;

/**
 * Builds versions from a small text description, one level per line, runs separated by {@code |},
 * tables as {@code lo-hi:size} with single-letter or short keys, newest run first:
 * <pre>
 *   L0: a-c:10 | b-d:10 e-f:5
 *   L1: a-m:100
 * </pre>
 * Tables get file numbers in order of appearance, starting at 1.
 */
final class Scenario {

    private Scenario() {
    }

    static Version parse(String text) {
        VersionEdit edit = new VersionEdit();
        long file = 1;
        long run = 1;
        String[] lines = text.strip().split("\n");
        for (int level = 0; level < lines.length; level++) {
            String line = lines[level].strip();
            String body = line.substring(line.indexOf(':') + 1).strip();
            if (level >= 2) {
                edit.insertLevel(level);
            }
            if (body.isEmpty()) {
                continue;
            }
            for (String runText : body.split("\\|")) {
                edit.newRun(level, run, false);
                for (String t : runText.strip().split("\\s+")) {
                    String[] parts = t.split("[-:]");
                    edit.addTable(level, run, table(file++, parts[0], parts[1], Long.parseLong(parts[2])));
                }
                run++;
            }
        }
        return new VersionBuilder(Version.empty()).apply(edit).build();
    }

    static TableMeta table(long file, String lo, String hi, long size) {
        return new TableMeta(file, size, size, lo.getBytes(StandardCharsets.UTF_8), hi.getBytes(StandardCharsets.UTF_8), file, file);
    }
}
