package dev.breakwater.tools;

import dev.breakwater.common.key.FieldType;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.StoredCatalog.StoredIndex;
import java.util.HexFormat;
import java.util.List;

/**
 * Parses a {@code --from}/{@code --to} argument into a {@link Key} of an index: comma-separated
 * values of the index's leading key fields, each parsed by its field's type (INT32, INT64,
 * FLOAT64 as numbers, STRING as written, BYTES as hex, {@code null} for a null value). Fewer values
 * than key fields make a prefix bound. Values cannot contain commas.
 *
 * <p>Thread safety: stateless.
 */
final class KeyArgument {

    private KeyArgument() {
    }

    /**
     * @throws IllegalArgumentException naming the field and the expected type if a value does not parse
     */
    static Key parse(String text, StoredIndex index, DatasetSpec spec) {
        List<String> fields = index.keyFields();
        String[] parts = text.split(",", -1);
        if (parts.length > fields.size()) {
            throw new IllegalArgumentException("key '" + text + "' has " + parts.length + " values but index " + index.name()
                    + " has " + fields.size() + " key fields " + fields);
        }
        Object[] values = new Object[parts.length];
        for (int i = 0; i < parts.length; i++) {
            FieldType type = spec.fields().get(spec.fieldIndex(fields.get(i))).type();
            String v = parts[i].trim();
            try {
                values[i] = v.equals("null") ? null : switch (type) {
                    case INT32 -> Integer.parseInt(v);
                    case INT64 -> Long.parseLong(v);
                    case FLOAT64 -> Double.parseDouble(v);
                    case STRING -> parts[i];
                    case BYTES -> HexFormat.of().parseHex(v.startsWith("0x") ? v.substring(2) : v);
                };
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("key field " + fields.get(i) + " is " + type + ", cannot parse '" + v + "'", e);
            }
        }
        return Key.of(values);
    }

    /** Parses a raw key given as hex (for an SSTable without a catalog). */
    static byte[] parseHex(String text) {
        try {
            return HexFormat.of().parseHex(text.startsWith("0x") ? text.substring(2) : text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("without a catalog, keys are hex bytes; cannot parse '" + text + "'", e);
        }
    }
}
