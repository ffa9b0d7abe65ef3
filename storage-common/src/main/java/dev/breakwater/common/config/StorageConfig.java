package dev.breakwater.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration of a storage engine: one value for every option of {@link ConfigOptions}.
 *
 * <pre>{@code
 * StorageConfig c = StorageConfig.load(Path.of("breakwater.yaml"));
 * StorageConfig d = StorageConfig.builder().set(ConfigOptions.WRITE_MEMORY, 128 * Sizes.MIB).build();
 * long pageSize = c.get(ConfigOptions.PAGE_SIZE);
 * }</pre>
 *
 * <p>Invariants: (1) every option of {@link ConfigOptions#ALL} has a value, of its type and within
 * its allowed range; (2) every constraint of {@link ConfigOptions#CONSTRAINTS} holds. A
 * configuration that would break either is never constructed: a {@link ConfigException} is thrown
 * instead.
 *
 * <p>Thread safety: immutable, so thread-safe. {@link Builder} is not thread-safe.
 */
public final class StorageConfig {

    private static final StorageConfig DEFAULTS = new Builder().build();

    /** Option to value, in the order of {@link ConfigOptions#ALL}. */
    private final Map<Option<?>, Object> values;

    private StorageConfig(Map<Option<?>, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Every option at its default value. */
    public static StorageConfig defaults() {
        return DEFAULTS;
    }

    /** A builder that starts from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values.putAll(values);
        return b;
    }

    /**
     * Reads a configuration file: JSON ({@code .json}) or YAML ({@code .yaml}, {@code .yml}), one
     * mapping from option names to values. Options that are absent keep their defaults; an empty
     * file gives the defaults.
     *
     * @throws ConfigException if the file cannot be read or parsed, has an unknown option, a value
     *     of the wrong type or out of range, or breaks a relation between options
     */
    public static StorageConfig load(Path file) {
        return fromTree(ConfigFiles.read(file), file.toString());
    }

    /** Builds a configuration from option names to plain values (numbers, strings, booleans). */
    public static StorageConfig fromMap(Map<String, ?> map) {
        Builder b = builder();
        map.forEach(b::set);
        return b.build();
    }

    private static StorageConfig fromTree(JsonNode root, String source) {
        if (root.isMissingNode()) {
            return defaults();
        }
        if (!root.isObject()) {
            throw new ConfigException(null, source + ": expected a mapping of option names to values at the top level, got "
                    + root.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        Builder b = builder();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            b.set(e.getKey(), e.getValue());
        }
        return b.build();
    }

    /** The value of {@code option}. */
    public <T extends Comparable<? super T>> T get(Option<T> option) {
        return option.type().javaType().cast(values.get(option));
    }

    /** Derived, not an option: the initial buffer-cache size, {@code total-memory - write-memory}. */
    public long bufferCacheSize() {
        return get(ConfigOptions.TOTAL_MEMORY) - get(ConfigOptions.WRITE_MEMORY);
    }

    /**
     * Derived, not an option: the bytes of pages the simulated cache represents,
     * {@code min(simulated-cache, simulated-cache-fraction × total-memory)} (0 when disabled).
     */
    public long simulatedCacheSize() {
        long cap = get(ConfigOptions.SIMULATED_CACHE);
        return Math.min(cap, (long) (get(ConfigOptions.SIMULATED_CACHE_FRACTION) * get(ConfigOptions.TOTAL_MEMORY)));
    }

    /** Option names to plain values (sizes in bytes, enums by name), in table order; loadable by {@link #fromMap}. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Option<?> o : ConfigOptions.ALL) {
            out.put(o.name(), plain(o));
        }
        return out;
    }

    private <T extends Comparable<? super T>> Object plain(Option<T> option) {
        return option.toPlain(get(option));
    }

    /** Writes {@link #toMap()} as pretty-printed JSON, loadable by {@link #load}. */
    public void writeJson(Path file) throws IOException {
        ConfigFiles.writeJson(file, toMap());
    }

    /** The option table as Markdown: see {@link ConfigDocs}. */
    public static String describe() {
        return ConfigDocs.markdown();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StorageConfig && values.equals(((StorageConfig) o).values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "StorageConfig" + toMap();
    }

    /**
     * Collects option values; each is checked against its range when set, and the relations
     * between options when {@link #build()} is called.
     *
     * <p>Not thread-safe.
     */
    public static final class Builder {

        private final Map<Option<?>, Object> values = new LinkedHashMap<>();

        private Builder() {
            for (Option<?> o : ConfigOptions.ALL) {
                values.put(o, o.defaultValue());
            }
        }

        /** @throws ConfigException if {@code value} is not allowed for {@code option} */
        public <T extends Comparable<? super T>> Builder set(Option<T> option, T value) {
            values.put(option, option.check(value));
            return this;
        }

        /**
         * Sets an option by name from a plain value as it would appear in a file: a number, a
         * string (sizes such as "64MB", enum names), a boolean, or a Jackson tree node.
         *
         * @throws ConfigException if the name is unknown, or the value has the wrong type or is not allowed
         */
        public Builder set(String name, Object value) {
            Option<?> option = ConfigOptions.byName(name);
            if (option == null) {
                throw new ConfigException(name, "unknown option '" + name + "'; known options: " + ConfigOptions.names());
            }
            JsonNode node = value instanceof JsonNode ? (JsonNode) value : ConfigFiles.toTree(value);
            values.put(option, option.read(node));
            return this;
        }

        /**
         * Sets an option by name from command-line text ({@code --engine-option name=value}):
         * {@code "false"}, {@code "5000"} and {@code "0.5"} are read as a boolean and numbers, anything
         * else ({@code "64MB"}, {@code "LZ4"}) as a string.
         *
         * @throws ConfigException if the name is unknown, or the value has the wrong type or is not allowed
         */
        public Builder setText(String name, String text) {
            JsonNode node = ConfigFiles.fromText(text.trim());
            try {
                return set(name, node);
            } catch (ConfigException e) {
                if (node.isTextual()) {
                    throw e;
                }
                return set(name, text.trim()); // a string option whose value looks like a number or boolean
            }
        }

        /** @throws ConfigException if a relation of {@link ConfigOptions#CONSTRAINTS} does not hold */
        public StorageConfig build() {
            StorageConfig config = new StorageConfig(values);
            for (OptionConstraint<?> c : ConfigOptions.CONSTRAINTS) {
                c.check(config);
            }
            return config;
        }
    }
}
