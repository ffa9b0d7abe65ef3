package dev.breakwater.lsm.memory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory levels from a small text description, one level per line (M1 first), tables as
 * {@code lo-hi:bytes} or {@code lo-hi:bytes@minLogLsn}, keys short strings:
 * <pre>
 *   M1: a-c:10 e-f:5@3
 *   M2: a-z:100
 * </pre>
 * Tables get ids in order of appearance, starting at 1; without {@code @} a table's log-LSN range is
 * {@code [1000 + id, 2000 + id]}.
 */
final class MemoryScenario {

    private MemoryScenario() {
    }

    static List<List<MemorySSTableMeta>> parse(String text) {
        List<List<MemorySSTableMeta>> levels = new ArrayList<>();
        long id = 1;
        for (String line : text.strip().split("\n")) {
            String body = line.substring(line.indexOf(':') + 1).strip();
            List<MemorySSTableMeta> level = new ArrayList<>();
            if (!body.isEmpty()) {
                for (String t : body.split("\\s+")) {
                    String[] parts = t.split("[-:@]");
                    long minLsn = parts.length > 3 ? Long.parseLong(parts[3]) : 1000 + id;
                    level.add(new MemorySSTableMeta(id, Long.parseLong(parts[2]), bytes(parts[0]), bytes(parts[1]), minLsn, 2000 + id));
                    id++;
                }
            }
            levels.add(level);
        }
        return levels;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
