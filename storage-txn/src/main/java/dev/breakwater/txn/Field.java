package dev.breakwater.txn;

import dev.breakwater.common.key.FieldType;

/**
 * One field of a dataset's schema.
 *
 * @param name     a valid name ({@link Names})
 * @param type     its type
 * @param nullable whether the field may hold null
 */
public record Field(String name, FieldType type, boolean nullable) {

    public Field {
        Names.check("field", name);
        if (type == null) {
            throw new SchemaException("field " + name + " has no type");
        }
    }

    /** True if {@code value} may be stored in this field. */
    public boolean accepts(Object value) {
        if (value == null) {
            return nullable;
        }
        return switch (type) {
            case INT32 -> value instanceof Integer;
            case INT64 -> value instanceof Long;
            case FLOAT64 -> value instanceof Double;
            case STRING -> value instanceof String;
            case BYTES -> value instanceof byte[];
        };
    }

    /** The Java class values of this field have. */
    public Class<?> javaType() {
        return switch (type) {
            case INT32 -> Integer.class;
            case INT64 -> Long.class;
            case FLOAT64 -> Double.class;
            case STRING -> String.class;
            case BYTES -> byte[].class;
        };
    }
}
