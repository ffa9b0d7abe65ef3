package dev.breakwater.common.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Reads configuration files into plain Jackson trees and writes reports. Only tree reading is
 * used: no data binding to classes, no polymorphic or default typing, so a file can only ever
 * produce numbers, strings, booleans, nulls, arrays and mappings. Duplicate keys are rejected.
 *
 * <p>Thread-safe (the mappers are configured once and only used afterwards).
 */
final class ConfigFiles {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private ConfigFiles() {
    }

    /** The tree of {@code file}, chosen by extension; a missing node if the file is empty. */
    static JsonNode read(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        ObjectMapper mapper;
        if (name.endsWith(".json")) {
            mapper = JSON;
        } else if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            mapper = YAML;
        } else {
            throw new ConfigException(null, "configuration file " + file + " must end in .json, .yaml or .yml");
        }
        try {
            return mapper.readTree(Files.readAllBytes(file));
        } catch (JacksonException e) {
            throw new ConfigException(null, "configuration file " + file + " is malformed: " + e.getOriginalMessage()
                    + locationOf(e), e);
        } catch (IOException e) {
            throw new ConfigException(null, "cannot read configuration file " + file + ": " + e, e);
        }
    }

    private static String locationOf(JacksonException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    /** A plain Java value (number, string, boolean, enum, null) as a tree node. */
    /**
     * A command-line value as a file would hold it: a number or boolean as such (an option in
     * milliseconds wants the number 5000, not the string "5000"), anything else as the string (sizes
     * such as "2MB", enum names).
     */
    static JsonNode fromText(String text) {
        try {
            JsonNode n = JSON.reader().with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(text);
            if (n != null && (n.isNumber() || n.isBoolean())) {
                return n;
            }
        } catch (IOException e) {
            // not a JSON scalar: a size or a name
        }
        return JSON.getNodeFactory().textNode(text);
    }

    static JsonNode toTree(Object value) {
        return JSON.valueToTree(value instanceof Enum ? ((Enum<?>) value).name() : value);
    }

    static void writeJson(Path file, Map<String, Object> map) throws IOException {
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), map);
    }
}
