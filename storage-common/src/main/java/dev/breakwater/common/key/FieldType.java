package dev.breakwater.common.key;

/**
 * The types a key field can have, each with the tag byte that introduces it in an encoded key
 * ({@link KeyFormat}). Nullability is not a type: any field may hold null, encoded as
 * {@link KeyFormat#TAG_NULL}.
 */
public enum FieldType {
    INT32(KeyFormat.TAG_INT32),
    INT64(KeyFormat.TAG_INT64),
    FLOAT64(KeyFormat.TAG_FLOAT64),
    STRING(KeyFormat.TAG_STRING),
    BYTES(KeyFormat.TAG_BYTES);

    private final byte tag;

    FieldType(byte tag) {
        this.tag = tag;
    }

    /** The tag byte written before a non-null value of this type. */
    public byte tag() {
        return tag;
    }

    /** The type introduced by {@code tag}, or {@code null} if the tag is not a type tag (e.g. NULL). */
    public static FieldType ofTag(byte tag) {
        switch (tag) {
            case KeyFormat.TAG_INT32: return INT32;
            case KeyFormat.TAG_INT64: return INT64;
            case KeyFormat.TAG_FLOAT64: return FLOAT64;
            case KeyFormat.TAG_STRING: return STRING;
            case KeyFormat.TAG_BYTES: return BYTES;
            default: return null;
        }
    }
}
