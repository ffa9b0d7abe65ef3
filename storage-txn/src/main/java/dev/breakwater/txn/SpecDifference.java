package dev.breakwater.txn;

/**
 * Compares the specification of an existing dataset with the one a caller asked for
 * ({@link StorageEngine#createDatasetIfAbsent}) and names the first difference.
 */
final class SpecDifference {

    private SpecDifference() {
    }

    /** @throws SchemaException naming the first difference between {@code existing} and {@code wanted} */
    static void check(DatasetSpec existing, DatasetSpec wanted) {
        String diff = firstDifference(existing, wanted);
        if (diff != null) {
            throw new SchemaException("dataset " + existing.name() + " exists with a different specification: " + diff
                    + ". Use the existing specification, or drop the dataset (engine.dropDataset) to recreate it");
        }
    }

    /** The first difference in words, or null if the specifications are equal. */
    static String firstDifference(DatasetSpec existing, DatasetSpec wanted) {
        if (!existing.fields().equals(wanted.fields())) {
            int n = Math.max(existing.fields().size(), wanted.fields().size());
            for (int i = 0; i < n; i++) {
                Field a = i < existing.fields().size() ? existing.fields().get(i) : null;
                Field b = i < wanted.fields().size() ? wanted.fields().get(i) : null;
                if (a == null || !a.equals(b)) {
                    return "field " + (i + 1) + " is " + describe(a) + " in the existing dataset, " + describe(b) + " in the new specification";
                }
            }
        }
        if (!existing.primaryKey().equals(wanted.primaryKey())) {
            return "primary key is " + existing.primaryKey() + " in the existing dataset, " + wanted.primaryKey() + " in the new specification";
        }
        if (!existing.secondaryIndexes().equals(wanted.secondaryIndexes())) {
            return "secondary indexes are " + existing.secondaryIndexes() + " in the existing dataset, " + wanted.secondaryIndexes()
                    + " in the new specification";
        }
        if (existing.partitions() != wanted.partitions()) {
            return "partitions are " + existing.partitions() + " in the existing dataset, " + wanted.partitions()
                    + " in the new specification (the count is fixed at creation: records are placed by hash mod the count)";
        }
        if (!java.util.Objects.equals(existing.memoryComponent(), wanted.memoryComponent())) {
            return "memory component is " + describe(existing.memoryComponent()) + " in the existing dataset, "
                    + describe(wanted.memoryComponent()) + " in the new specification";
        }
        return null;
    }

    private static String describe(MemoryComponentOverride m) {
        return m == null ? "the engine's (no override)" : m.toString();
    }

    private static String describe(Field f) {
        return f == null ? "absent" : f.name() + " " + f.type() + (f.nullable() ? " nullable" : "");
    }
}
