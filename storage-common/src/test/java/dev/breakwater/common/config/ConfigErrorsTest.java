package dev.breakwater.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Each class of bad input gives a {@link ConfigException} that names the option (or the file). */
class ConfigErrorsTest {

    @TempDir
    Path dir;

    private static ConfigException rejects(Executable action, String option, String... fragments) {
        ConfigException e = assertThrows(ConfigException.class, action);
        assertEquals(option, e.option(), e.getMessage());
        if (option != null) {
            assertTrue(e.getMessage().contains("'" + option + "'"), e.getMessage());
        }
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "'" + f + "' not in: " + e.getMessage());
        }
        return e;
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void unknownKeyListsTheKnownOptions() throws IOException {
        Path f = file("c.yaml", "page-size: 16k\nfoo: 1\n");
        rejects(() -> StorageConfig.load(f), "foo", "unknown option 'foo'", "known options: page-size, total-memory");
        rejects(() -> StorageConfig.builder().set("pageSize", 4096), "pageSize", "unknown option");
    }

    @Test
    void wrongTypeIsRejectedForEveryOption() {
        for (Option<?> o : ConfigOptions.ALL) {
            Object wrong = wrongTypeFor(o);
            rejects(() -> StorageConfig.builder().set(o.name(), wrong), o.name(), "expected");
        }
    }

    private static Object wrongTypeFor(Option<?> o) {
        ValueType<?> t = o.type();
        if (t == ValueType.BYTES) {
            return 1.5;                                   // sizes take integers or size strings
        } else if (t == ValueType.INT || t == ValueType.MILLIS || t == ValueType.DOUBLE) {
            return "10";                                  // a string where a number belongs
        } else if (t == ValueType.BOOLEAN) {
            return "true";
        } else {
            return 1;                                     // enums and strings take strings
        }
    }

    @Test
    void specificWrongTypesFromFiles() throws IOException {
        Path f1 = file("a.json", "{\"size-ratio\": \"10\"}");
        rejects(() -> StorageConfig.load(f1), "size-ratio", "expected an integer", "\"10\"", "2 .. 100");
        Path f2 = file("b.yaml", "size-ratio: 10.5\n");
        rejects(() -> StorageConfig.load(f2), "size-ratio", "expected an integer");
        Path f3 = file("c.yaml", "page-size: lots\n");
        rejects(() -> StorageConfig.load(f3), "page-size", "'lots' is not a size");
        Path f4 = file("d.yaml", "durability: eventually\n");
        rejects(() -> StorageConfig.load(f4), "durability", "'eventually' is not one of SYNC, ASYNC");
        Path f5 = file("e.yaml", "size-ratio: 99999999999\n");
        rejects(() -> StorageConfig.load(f5), "size-ratio", "expected an integer");
        Path f6 = file("f.yaml", "total-memory:\n");
        rejects(() -> StorageConfig.load(f6), "total-memory", "must not be null");
        Path f7 = file("g.yaml", "merge-threads: [1, 2]\n");
        rejects(() -> StorageConfig.load(f7), "merge-threads", "expected an integer");
    }

    @Test
    void blankBindAddressIsRejected() {
        rejects(() -> StorageConfig.builder().set(ConfigOptions.HTTP_BIND, " "), "http-bind", "out of range", "not blank");
    }

    @Test
    void outOfRangeIsRejectedForEveryBoundedOption() {
        int bounded = 0;
        for (Option<?> o : ConfigOptions.ALL) {
            if (o.min() != null) {
                Object below = beyond(o.min(), -1);
                rejects(() -> StorageConfig.builder().set(o.name(), below), o.name(), "out of range", "allowed: ");
                bounded++;
            }
            if (o.max() != null) {
                Object above = beyond(o.max(), +1);
                rejects(() -> StorageConfig.builder().set(o.name(), above), o.name(), "out of range", "allowed: ");
                bounded++;
            }
        }
        assertTrue(bounded >= 20, "expected most options to be bounded, got " + bounded);
    }

    private static Object beyond(Object bound, int direction) {
        if (bound instanceof Integer) {
            return (Integer) bound + direction;
        } else if (bound instanceof Long) {
            return (Long) bound + direction;
        } else {
            return (Double) bound + direction * 0.01;
        }
    }

    @Test
    void outOfRangeMessageNamesValueAndRange() throws IOException {
        Path f = file("c.json", "{\"page-size\": \"2m\"}");
        rejects(() -> StorageConfig.load(f), "page-size", "2 MiB (2097152)", "4 KiB .. 1 MiB, power of two");
        rejects(() -> StorageConfig.builder().set("page-size", 5000), "page-size", "5000 B", "power of two");
        rejects(() -> StorageConfig.builder().set("flush-threshold", 0.2), "flush-threshold", "0.2", "0.5 .. 1.0");
        rejects(() -> StorageConfig.builder().set("bloom-bits-per-key", Double.NaN), "bloom-bits-per-key", "finite");
    }

    @Test
    void crossOptionViolations() throws IOException {
        Path f = file("c.yaml", "total-memory: 128m\nwrite-memory: 128m\n");
        rejects(() -> StorageConfig.load(f), "write-memory", "less than 'total-memory'", "128 MiB");
        rejects(() -> StorageConfig.builder().set("l0-slowdown-groups", 12).build(), "l0-slowdown-groups", "'l0-stop-groups' = 12");
        rejects(() -> StorageConfig.builder().set("memory-component-size", "65m").build(), "memory-component-size", "at most 'write-memory'");
        rejects(() -> StorageConfig.builder().set("max-log-size", "32m").build(), "log-segment-size", "at most 'max-log-size'");
        rejects(() -> StorageConfig.builder().set("runs-per-level", 10).build(), "runs-per-level", "less than 'size-ratio'");
        // each constraint is exercised above; a new constraint should get a case here
        assertEquals(6, ConfigOptions.CONSTRAINTS.size());
    }

    @Test
    void crossOptionChecksSeeTheFinalValuesNotTheOrderOfKeys() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("write-memory", "512m");    // larger than the default total, but total is raised below
        m.put("total-memory", "1g");
        assertEquals(512L << 20, StorageConfig.fromMap(m).get(ConfigOptions.WRITE_MEMORY));
    }

    @Test
    void malformedFiles() throws IOException {
        Path json = file("bad.json", "{\"page-size\": 4096,");
        ConfigException e1 = rejects(() -> StorageConfig.load(json), null, "bad.json", "malformed", "line 1");
        assertNull(e1.option());
        Path yaml = file("bad.yaml", "page-size: [4096\nsize-ratio: 3\n");
        rejects(() -> StorageConfig.load(yaml), null, "bad.yaml", "malformed");
        Path list = file("list.yaml", "- page-size\n- 4096\n");
        rejects(() -> StorageConfig.load(list), null, "list.yaml", "expected a mapping");
        Path scalar = file("scalar.json", "42");
        rejects(() -> StorageConfig.load(scalar), null, "expected a mapping");
        Path dupJson = file("dup.json", "{\"size-ratio\": 4, \"size-ratio\": 5}");
        rejects(() -> StorageConfig.load(dupJson), null, "dup.json", "size-ratio");
        Path dupYaml = file("dup.yaml", "size-ratio: 4\nsize-ratio: 5\n");
        rejects(() -> StorageConfig.load(dupYaml), null, "dup.yaml", "size-ratio");
        Path txt = file("c.txt", "page-size=4096");
        rejects(() -> StorageConfig.load(txt), null, "must end in .json, .yaml or .yml");
        rejects(() -> StorageConfig.load(dir.resolve("missing.json")), null, "cannot read", "missing.json");
    }

    @Test
    void yamlTagsDoNotInstantiateClasses() throws IOException {
        Path f = file("tag.yaml", "page-size: !!java.io.File /tmp\n");
        // the tag is ignored by tree reading: the value stays the text "/tmp", which is not a size
        rejects(() -> StorageConfig.load(f), "page-size", "'/tmp' is not a size");
    }
}
