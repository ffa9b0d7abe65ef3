package dev.breakwater.txn;

import java.util.List;

/**
 * A secondary index: its name and the fields it indexes, in order. Its entries are the indexed
 * fields followed by the primary key, so entries are unique and a scan yields primary keys.
 */
public record IndexSpec(String name, List<String> fields) {

    public IndexSpec {
        Names.check("index", name);
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new SchemaException("index " + name + " has no fields");
        }
    }
}
