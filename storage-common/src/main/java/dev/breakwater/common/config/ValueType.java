package dev.breakwater.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The kind of value an {@link Option} holds: how it is read from a JSON/YAML tree, how it is shown
 * in documentation, and how it is written back to a map for reports.
 *
 * <p>Readers accept only the JSON kinds that fit: an integer option rejects the string "10" and the
 * number 10.5; a size accepts an integer number of bytes or a size string ({@link Sizes}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the Java type of the value
 */
public final class ValueType<T> {

    /** A size in bytes: an integer, or a string such as "64MB" (see {@link Sizes}). */
    public static final ValueType<Long> BYTES = new ValueType<>("size", Long.class, ValueType::readBytes, Sizes::format, v -> v);
    /** A 32-bit integer. */
    public static final ValueType<Integer> INT = new ValueType<>("integer", Integer.class, ValueType::readInt, String::valueOf, v -> v);
    /** A duration in milliseconds, given as an integer. */
    public static final ValueType<Long> MILLIS = new ValueType<>("milliseconds", Long.class, ValueType::readLong, String::valueOf, v -> v);
    /** A finite floating-point number. */
    public static final ValueType<Double> DOUBLE = new ValueType<>("number", Double.class, ValueType::readDouble, String::valueOf, v -> v);
    /** {@code true} or {@code false}. */
    public static final ValueType<Boolean> BOOLEAN = new ValueType<>("boolean", Boolean.class, ValueType::readBoolean, String::valueOf, v -> v);
    /** A string, taken as written (for host names and addresses). */
    public static final ValueType<String> STRING = new ValueType<>("string", String.class, ValueType::readString, v -> v, v -> v);

    private final String name;
    private final Class<T> javaType;
    private final Function<JsonNode, T> reader;
    private final Function<T, String> shower;
    private final Function<T, Object> writer;

    private ValueType(String name, Class<T> javaType, Function<JsonNode, T> reader,
                      Function<T, String> shower, Function<T, Object> writer) {
        this.name = name;
        this.javaType = javaType;
        this.reader = reader;
        this.shower = shower;
        this.writer = writer;
    }

    /** One of the constants of {@code type}, matched case-insensitively, written by name. */
    public static <E extends Enum<E>> ValueType<E> enumOf(Class<E> type) {
        String allowed = Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", "));
        Function<JsonNode, E> reader = node -> {
            if (!node.isTextual()) {
                throw wrongType("one of " + allowed, node);
            }
            for (E e : type.getEnumConstants()) {
                if (e.name().equalsIgnoreCase(node.textValue().trim())) {
                    return e;
                }
            }
            throw new IllegalArgumentException("'" + node.textValue() + "' is not one of " + allowed);
        };
        return new ValueType<>("enum", type, reader, Enum::name, Enum::name);
    }

    /** Short name for documentation: "size", "integer", "enum", ... */
    public String name() {
        return name;
    }

    public Class<T> javaType() {
        return javaType;
    }

    /** Reads a value. @throws IllegalArgumentException describing what was expected and what was found */
    T read(JsonNode node) {
        return reader.apply(node);
    }

    /** The value as a person would write it in a file ("64 MiB", "LZ4", "0.95"). */
    String show(T value) {
        return shower.apply(value);
    }

    /** The value as a plain Java object for JSON output (sizes as numbers of bytes, enums as names). */
    Object toPlain(T value) {
        return writer.apply(value);
    }

    private static Long readBytes(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        if (node.isTextual()) {
            return Sizes.parse(node.textValue());
        }
        throw wrongType("a size (integer number of bytes or a string like \"64MB\")", node);
    }

    private static Integer readInt(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            return node.intValue();
        }
        throw wrongType("an integer", node);
    }

    private static Long readLong(JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            return node.longValue();
        }
        throw wrongType("an integer number of milliseconds", node);
    }

    private static Double readDouble(JsonNode node) {
        if (node.isNumber() && Double.isFinite(node.doubleValue())) {
            return node.doubleValue();
        }
        throw wrongType("a finite number", node);
    }

    private static Boolean readBoolean(JsonNode node) {
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        throw wrongType("true or false", node);
    }

    private static String readString(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        throw wrongType("a string", node);
    }

    private static IllegalArgumentException wrongType(String expected, JsonNode node) {
        String kind = node.getNodeType().name().toLowerCase(Locale.ROOT);
        return new IllegalArgumentException("expected " + expected + ", got " + kind + " " + node);
    }
}
