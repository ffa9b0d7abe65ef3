package dev.breakwater.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Predicate;

/**
 * One configuration option: name, type, default, unit, allowed range and description, in one
 * place. Options are declared only in {@link ConfigOptions}; defaults, validation, loading, reports
 * and the documentation table ({@link ConfigDocs}) are all derived from these descriptors.
 *
 * <p>Invariants: (1) the default value is allowed; (2) {@link #check} accepts exactly the values in
 * {@code [min, max]} (either bound may be absent) that also satisfy the extra rule, if any.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the Java type of the value
 */
public final class Option<T extends Comparable<? super T>> {

    private final String name;
    private final ValueType<T> type;
    private final T defaultValue;
    private final String unit;
    private final T min;
    private final T max;
    private final Predicate<T> rule;
    private final String ruleText;
    private final String description;

    Option(String name, ValueType<T> type, T defaultValue, String unit, T min, T max,
           Predicate<T> rule, String ruleText, String description) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.unit = unit;
        this.min = min;
        this.max = max;
        this.rule = rule;
        this.ruleText = ruleText;
        this.description = description;
        check(defaultValue);
    }

    /** The key used in files and reports (kebab-case). */
    public String name() {
        return name;
    }

    public ValueType<T> type() {
        return type;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** Smallest allowed value, or {@code null} when unbounded below or not ordered (booleans, enums). */
    public T min() {
        return min;
    }

    /** Largest allowed value, or {@code null} when unbounded above or not ordered. */
    public T max() {
        return max;
    }

    /** Unit of the value ("bytes", "ms", "fraction", ...), or "" when it has none. */
    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /** The allowed values in words, e.g. "4 KiB .. 1 MiB, power of two" or "NONE, LZ4". */
    public String allowed() {
        StringBuilder sb = new StringBuilder();
        if (type.javaType().isEnum()) {
            for (Object c : type.javaType().getEnumConstants()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(((Enum<?>) c).name());
            }
        } else if (type.javaType() == Boolean.class) {
            sb.append("true, false");
        } else if (min != null && max != null) {
            sb.append(type.show(min)).append(" .. ").append(type.show(max));
        } else if (min != null) {
            sb.append(">= ").append(type.show(min));
        } else if (max != null) {
            sb.append("<= ").append(type.show(max));
        } else {
            sb.append("any");
        }
        if (ruleText != null) {
            sb.append(", ").append(ruleText);
        }
        return sb.toString();
    }

    /**
     * Returns {@code value} if it is allowed.
     *
     * @throws ConfigException naming this option, the value and the allowed range
     */
    public T check(T value) {
        if (value == null) {
            throw new ConfigException(name, "option '" + name + "' must not be null; allowed: " + allowed());
        }
        boolean ok = (min == null || value.compareTo(min) >= 0)
                && (max == null || value.compareTo(max) <= 0)
                && (rule == null || rule.test(value));
        if (!ok) {
            throw new ConfigException(name, "option '" + name + "': value " + show(value) + " is out of range; allowed: "
                    + allowed());
        }
        return value;
    }

    /**
     * Reads and checks a value from a JSON/YAML tree.
     *
     * @throws ConfigException naming this option when the value has the wrong type or is not allowed
     */
    public T read(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new ConfigException(name, "option '" + name + "' must not be null; allowed: " + allowed());
        }
        T value;
        try {
            value = type.read(node);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, "option '" + name + "': " + e.getMessage() + "; allowed: " + allowed(), e);
        }
        return check(value);
    }

    /** The value as a person would write it ("64 MiB" shown as "64 MiB (67108864)" for sizes). */
    public String show(T value) {
        String shown = type.show(value);
        return type == ValueType.BYTES && !shown.equals(value + " B") ? shown + " (" + value + ")" : shown;
    }

    /** The value as a plain Java object for reports. */
    Object toPlain(T value) {
        return type.toPlain(value);
    }

    @Override
    public String toString() {
        return name;
    }
}
