package dev.breakwater.txn;

import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.key.FieldType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The declared shape of a dataset: ordered typed fields, a primary key (a list of fields, none
 * nullable), zero or more secondary indexes, the number of hash partitions of the primary key
 * (1, the default, is an unpartitioned dataset), and optionally the data structure of its trees'
 * active memory components ({@code memoryComponent}, null to follow the engine's
 * {@code memory-component-kind}). Immutable and validated at construction.
 *
 * <p>Partitions (AsterixDB's hash partitioning): a dataset with N &gt; 1 partitions keeps N primary
 * trees and N trees per secondary index; a record and its secondary entries live in the trees of
 * partition {@code hash(encoded primary key) mod N} ({@link PartitionHash}). All partitions share
 * the engine's write memory, buffer cache, log and tuner; scans merge the partitions in key order
 * and a transaction may write any of them atomically. The count is fixed when the dataset is
 * created.
 *
 * @param partitions      hash partitions of the primary key, in {@code [1, 256]}
 * @param memoryComponent this dataset's memory-component kind and parameters, or null for the engine's
 */
public record DatasetSpec(String name, List<Field> fields, List<String> primaryKey, List<IndexSpec> secondaryIndexes,
                          int partitions, MemoryComponentOverride memoryComponent) {

    /** The primary index's name in {@link Dataset#index(String)}. */
    public static final String PRIMARY = "primary";

    /** An unpartitioned dataset (one partition) whose trees use the engine's memory-component kind. */
    public DatasetSpec(String name, List<Field> fields, List<String> primaryKey, List<IndexSpec> secondaryIndexes) {
        this(name, fields, primaryKey, secondaryIndexes, 1, null);
    }

    /** A dataset of {@code partitions} hash partitions whose trees use the engine's memory-component kind. */
    public DatasetSpec(String name, List<Field> fields, List<String> primaryKey, List<IndexSpec> secondaryIndexes,
                       int partitions) {
        this(name, fields, primaryKey, secondaryIndexes, partitions, null);
    }

    /** An unpartitioned dataset whose trees use {@code memoryComponent} (null: the engine's kind). */
    public DatasetSpec(String name, List<Field> fields, List<String> primaryKey, List<IndexSpec> secondaryIndexes,
                       MemoryComponentOverride memoryComponent) {
        this(name, fields, primaryKey, secondaryIndexes, 1, memoryComponent);
    }

    public DatasetSpec {
        Names.check("dataset", name);
        if (partitions < 1 || partitions > PartitionHash.MAX_PARTITIONS) {
            throw new SchemaException("dataset " + name + ": partitions = " + partitions + " is outside [1, "
                    + PartitionHash.MAX_PARTITIONS + "] (each partition has its own trees; use at most a few per core)");
        }
        fields = List.copyOf(fields);
        primaryKey = List.copyOf(primaryKey);
        secondaryIndexes = List.copyOf(secondaryIndexes);
        if (fields.isEmpty()) {
            throw new SchemaException("dataset " + name + " has no fields");
        }
        Set<String> seen = new HashSet<>();
        for (Field f : fields) {
            if (!seen.add(f.name())) {
                throw new SchemaException("dataset " + name + " declares field " + f.name() + " twice");
            }
        }
        if (primaryKey.isEmpty()) {
            throw new SchemaException("dataset " + name + " has no primary key");
        }
        Set<String> pk = new HashSet<>();
        for (String k : primaryKey) {
            Field f = findField(fields, name, k);
            if (f.nullable()) {
                throw new SchemaException("dataset " + name + ": primary key field " + k + " must not be nullable");
            }
            if (!pk.add(k)) {
                throw new SchemaException("dataset " + name + ": primary key lists " + k + " twice");
            }
        }
        Set<String> indexNames = new HashSet<>();
        indexNames.add(PRIMARY);
        for (IndexSpec ix : secondaryIndexes) {
            if (!indexNames.add(ix.name())) {
                throw new SchemaException("dataset " + name + ": index name " + ix.name() + " is used twice (or is reserved)");
            }
            for (String f : ix.fields()) {
                findField(fields, name, f);
            }
        }
    }

    private static Field findField(List<Field> fields, String dataset, String name) {
        for (Field f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new SchemaException("dataset " + dataset + " has no field " + name);
    }

    /** Position of field {@code name}. */
    public int fieldIndex(String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        throw new SchemaException("dataset " + name + " has no field " + fieldName);
    }

    /** The secondary index named {@code indexName}. */
    public IndexSpec index(String indexName) {
        for (IndexSpec ix : secondaryIndexes) {
            if (ix.name().equals(indexName)) {
                return ix;
            }
        }
        throw new SchemaException("dataset " + name + " has no index " + indexName);
    }

    /** A copy with one more secondary index. */
    public DatasetSpec withIndex(IndexSpec index) {
        List<IndexSpec> all = new ArrayList<>(secondaryIndexes);
        all.add(index);
        return new DatasetSpec(name, fields, primaryKey, all, partitions, memoryComponent);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds a spec field by field. */
    public static final class Builder {
        private final String name;
        private final List<Field> fields = new ArrayList<>();
        private final List<String> primaryKey = new ArrayList<>();
        private final List<IndexSpec> indexes = new ArrayList<>();
        private int partitions = 1;
        private MemoryComponentOverride memoryComponent;

        private Builder(String name) {
            this.name = name;
        }

        public Builder field(String fieldName, FieldType type) {
            fields.add(new Field(fieldName, type, false));
            return this;
        }

        public Builder nullableField(String fieldName, FieldType type) {
            fields.add(new Field(fieldName, type, true));
            return this;
        }

        public Builder primaryKey(String... fieldNames) {
            primaryKey.clear();
            primaryKey.addAll(List.of(fieldNames));
            return this;
        }

        public Builder secondaryIndex(String indexName, String... fieldNames) {
            indexes.add(new IndexSpec(indexName, List.of(fieldNames)));
            return this;
        }

        /** Hash partitions of the primary key (default 1); checked by {@link #build()}: 1 to 256. */
        public Builder partitions(int count) {
            this.partitions = count;
            return this;
        }

        /**
         * The data structure of the active memory component of this dataset's trees, overriding the
         * engine's {@code memory-component-*} options (null: follow them).
         */
        public Builder memoryComponent(MemoryComponentOverride override) {
            this.memoryComponent = override;
            return this;
        }

        /** {@link #memoryComponent(MemoryComponentOverride)} with the kind's parameters taken from the engine's options. */
        public Builder memoryComponent(MemoryComponentKind kind) {
            return memoryComponent(MemoryComponentOverride.of(kind));
        }

        public DatasetSpec build() {
            return new DatasetSpec(name, fields, primaryKey, indexes, partitions, memoryComponent);
        }
    }
}
