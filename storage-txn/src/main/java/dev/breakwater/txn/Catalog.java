package dev.breakwater.txn;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.key.FieldType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The persisted catalog of datasets ({@code catalog.json}): every dataset's specification and the
 * ids of its trees. Tree ids are never reused, so log records of a dropped dataset can never be
 * applied to a new one. Saved atomically (write {@code catalog.json.tmp}, sync, rename, sync the
 * directory). Read with Jackson into plain records, no polymorphic typing. Besides the datasets it
 * lists {@code garbage}: directories under {@code datasets/} the engine created or is deleting and
 * may delete at open (see {@link DatasetDirectory}). A dataset's optional {@code memoryComponent}
 * (its {@link MemoryComponentOverride}) is written only when the dataset has one, so a catalog
 * written before the field existed reads as datasets following the engine's memory-component kind.
 *
 * <p>Thread safety: none; the engine serializes catalog changes.
 */
final class Catalog {

    static final String FILE = "catalog.json";
    /** Written while no dataset is partitioned, so such a catalog stays readable by older builds. */
    static final int FORMAT_VERSION = 1;
    /**
     * Written once any dataset has more than one partition: a build that reads only version 1 would
     * ignore the other partitions' trees (unknown properties are skipped) and lose their records, so
     * it must refuse such a catalog instead.
     */
    static final int PARTITIONED_FORMAT_VERSION = 2;
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The trees of one partition: its primary tree's id and each secondary index's tree id. */
    record PartitionTrees(long primaryTree, Map<String, Long> indexTrees) {
        PartitionTrees {
            indexTrees = Collections.unmodifiableMap(new LinkedHashMap<>(indexTrees));
        }
    }

    /**
     * One dataset: its id, spec, and the trees of each of its {@code spec.partitions()} partitions
     * (one for an unpartitioned dataset).
     */
    record Entry(int id, DatasetSpec spec, List<PartitionTrees> partitions) {
        Entry {
            partitions = List.copyOf(partitions);
            if (partitions.size() != spec.partitions()) {
                throw new IllegalArgumentException("dataset " + spec.name() + " declares " + spec.partitions()
                        + " partitions but lists trees of " + partitions.size());
            }
        }

        /** An unpartitioned dataset's entry. */
        Entry(int id, DatasetSpec spec, long primaryTree, Map<String, Long> indexTrees) {
            this(id, spec, List.of(new PartitionTrees(primaryTree, indexTrees)));
        }

        /** Partition 0's primary tree: the whole primary index of an unpartitioned dataset. */
        long primaryTree() {
            return partitions.get(0).primaryTree();
        }

        /** Partition 0's secondary index trees. */
        Map<String, Long> indexTrees() {
            return partitions.get(0).indexTrees();
        }

        /** Every tree id of the dataset, partition by partition, primary first. */
        List<Long> allTrees() {
            List<Long> all = new ArrayList<>();
            for (PartitionTrees p : partitions) {
                all.add(p.primaryTree());
                all.addAll(p.indexTrees().values());
            }
            return all;
        }
    }

    // JSON shapes.
    record FieldJson(String name, FieldType type, boolean nullable) {
    }

    record IndexJson(String name, List<String> fields, long tree) {
    }

    /** Partitions 1..N-1 of a partitioned dataset (partition 0's trees are in the dataset's own fields). */
    record PartitionJson(long primaryTree, Map<String, Long> indexes) {
    }

    /** A dataset's memory-component override; absent parameters are left out of the file. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MemoryComponentJson(MemoryComponentKind kind, Integer hashPrefix, Integer hashBuckets, Integer vectorReserve) {
    }

    /**
     * {@code partitions}, {@code partitionHash} and {@code morePartitions} are absent (null) for an
     * unpartitioned dataset, as in catalogs written before partitions existed; {@code memoryComponent}
     * is left out (and read as null) for a dataset without an override, as in catalogs before it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DatasetJson(int id, String name, List<FieldJson> fields, List<String> primaryKey, long primaryTree,
                       List<IndexJson> indexes, Integer partitions, String partitionHash, List<PartitionJson> morePartitions,
                       MemoryComponentJson memoryComponent) {
    }

    record CatalogJson(int formatVersion, long nextId, List<DatasetJson> datasets, List<String> garbage) {
    }

    private final Map<String, Entry> byName = new LinkedHashMap<>();
    /**
     * Directories under {@code datasets/} (relative paths) that the engine is creating or removing:
     * recorded before a dataset or index directory is created and before one is deleted, so that after
     * a crash the engine can prove they are its own garbage and delete them. Nothing else unnamed is
     * ever deleted.
     */
    private final Set<String> garbage = new TreeSet<>();
    private long nextId = 1;
    private boolean persisted;

    static Catalog load(FileSystem fs, Path dir) throws IOException {
        Catalog c = new Catalog();
        Path path = dir.resolve(FILE);
        if (!fs.exists(path)) {
            return c;
        }
        byte[] bytes;
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            bytes = b.array();
        }
        c.persisted = true;
        CatalogJson json;
        try {
            json = JSON.readValue(bytes, CatalogJson.class);
        } catch (IOException e) {
            throw new IOException("catalog " + path + " is unreadable: " + e.getMessage(), e);
        }
        if (json == null) {
            throw new IOException("catalog " + path + " is empty (JSON null); restore it from a backup");
        }
        if (json.formatVersion() != FORMAT_VERSION && json.formatVersion() != PARTITIONED_FORMAT_VERSION) {
            throw new IOException("catalog " + path + " has format version " + json.formatVersion() + ", this build reads "
                    + FORMAT_VERSION + " and " + PARTITIONED_FORMAT_VERSION);
        }
        c.nextId = json.nextId();
        check(json.datasets() != null, path, "has no datasets list");
        if (json.garbage() != null) {
            c.garbage.addAll(json.garbage());
        }
        // The catalog carries no checksum: what damage makes of it must at least be a consistent
        // catalog, or the open is refused naming the file as damaged (not, say, a directory as
        // unnamed, with advice to move it away). Ids are unique and below nextId, or new datasets
        // would reuse live ids.
        Set<Long> ids = new HashSet<>();
        for (DatasetJson d : json.datasets()) {
            Entry e = entry(d, path);
            check(!c.byName.containsKey(e.spec().name()), path, "names dataset " + e.spec().name() + " twice");
            check(e.id() >= 0 && e.id() < c.nextId && e.allTrees().stream().allMatch(t -> t != null && t >= 0 && t < c.nextId),
                    path, "gives dataset " + e.spec().name() + " an id or tree id outside [0, nextId " + c.nextId
                    + "): ids would be reused");
            List<Long> used = new ArrayList<>(List.of((long) e.id()));
            used.addAll(e.allTrees());
            for (long id : used) {
                check(ids.add(id), path, "uses id " + id + " twice (dataset " + e.spec().name() + ")");
            }
            c.byName.put(e.spec().name(), e);
        }
        return c;
    }

    /** One dataset of a loaded catalog, every field checked: a damaged catalog is an IOException, not an NPE. */
    private static Entry entry(DatasetJson d, Path path) throws IOException {
        check(d != null && d.name() != null && d.fields() != null && d.primaryKey() != null && d.indexes() != null,
                path, "has a dataset without a name, fields, primary key or index list");
        check(d.fields().stream().allMatch(f -> f != null && f.name() != null && f.type() != null)
                && !d.primaryKey().contains(null)
                && d.indexes().stream().allMatch(i -> i != null && i.name() != null && i.fields() != null && !i.fields().contains(null)),
                path, "has an incomplete field, key or index in dataset " + d.name());
        int count = d.partitions() == null ? 1 : d.partitions();
        List<PartitionJson> more = d.morePartitions() == null ? List.of() : d.morePartitions();
        check(count >= 1 && more.size() == count - 1 && more.stream().allMatch(java.util.Objects::nonNull)
                && more.stream().allMatch(p -> p.indexes() != null && p.indexes().values().stream().allMatch(java.util.Objects::nonNull)),
                path, "gives dataset " + d.name() + " " + count + " partitions but the trees of " + (1 + more.size()));
        if (count > 1 && !PartitionHash.ID.equals(d.partitionHash())) {
            throw new IOException("catalog " + path + ": dataset " + d.name() + " is partitioned by hash '" + d.partitionHash()
                    + "', this build places records by '" + PartitionHash.ID + "' and would look for them in the wrong "
                    + "partitions; open it with the build that wrote it");
        }
        try {
            List<Field> fields = d.fields().stream().map(f -> new Field(f.name(), f.type(), f.nullable())).toList();
            List<IndexSpec> indexes = d.indexes().stream().map(i -> new IndexSpec(i.name(), i.fields())).toList();
            Map<String, Long> trees = new LinkedHashMap<>();
            d.indexes().forEach(i -> trees.put(i.name(), i.tree()));
            List<PartitionTrees> partitions = new ArrayList<>();
            partitions.add(new PartitionTrees(d.primaryTree(), trees));
            for (PartitionJson p : more) {
                check(p.indexes().keySet().equals(trees.keySet()), path, "gives a partition of dataset " + d.name()
                        + " the index trees " + p.indexes().keySet() + " instead of " + trees.keySet());
                partitions.add(new PartitionTrees(p.primaryTree(), p.indexes()));
            }
            MemoryComponentJson m = d.memoryComponent();
            MemoryComponentOverride memory = m == null ? null
                    : new MemoryComponentOverride(m.kind(), m.hashPrefix(), m.hashBuckets(), m.vectorReserve());
            return new Entry(d.id(), new DatasetSpec(d.name(), fields, d.primaryKey(), indexes, count, memory), partitions);
        } catch (SchemaException | IllegalArgumentException e) {
            throw new IOException("catalog " + path + " is damaged: it describes an invalid dataset " + d.name() + " ("
                    + e.getMessage() + "); restore it from a backup", e);
        }
    }

    private static void check(boolean ok, Path path, String problem) throws IOException {
        if (!ok) {
            throw new IOException("catalog " + path + " is damaged: it " + problem + "; restore it from a backup");
        }
    }

    void save(FileSystem fs, Path dir) throws IOException {
        List<DatasetJson> datasets = new ArrayList<>();
        boolean anyPartitioned = false;
        for (Entry e : byName.values()) {
            List<FieldJson> fields = e.spec().fields().stream().map(f -> new FieldJson(f.name(), f.type(), f.nullable())).toList();
            List<IndexJson> indexes = e.spec().secondaryIndexes().stream()
                    .map(i -> new IndexJson(i.name(), i.fields(), e.indexTrees().get(i.name()))).toList();
            int n = e.spec().partitions();
            anyPartitioned |= n > 1;
            List<PartitionJson> more = n == 1 ? null : e.partitions().subList(1, n).stream()
                    .map(p -> new PartitionJson(p.primaryTree(), orderedIndexTrees(e.spec(), p))).toList();
            MemoryComponentOverride m = e.spec().memoryComponent();
            MemoryComponentJson memory = m == null ? null
                    : new MemoryComponentJson(m.kind(), m.hashPrefix(), m.hashBuckets(), m.vectorReserve());
            datasets.add(new DatasetJson(e.id(), e.spec().name(), fields, e.spec().primaryKey(), e.primaryTree(), indexes,
                    n == 1 ? null : n, n == 1 ? null : PartitionHash.ID, more, memory));
        }
        int version = anyPartitioned ? PARTITIONED_FORMAT_VERSION : FORMAT_VERSION;
        byte[] bytes = JSON.writeValueAsBytes(new CatalogJson(version, nextId, datasets, List.copyOf(garbage)));
        Path tmp = dir.resolve(FILE + ".tmp");
        try (StorageFile f = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(bytes));
            f.sync();
        }
        fs.rename(tmp, dir.resolve(FILE));
        fs.syncDirectory(dir);
        persisted = true;
    }

    private static Map<String, Long> orderedIndexTrees(DatasetSpec spec, PartitionTrees p) {
        Map<String, Long> m = new LinkedHashMap<>();
        spec.secondaryIndexes().forEach(i -> m.put(i.name(), p.indexTrees().get(i.name())));
        return m;
    }

    /** True if the catalog was read from, or has been saved to, {@code catalog.json}. */
    boolean persisted() {
        return persisted;
    }

    /** Directories (relative to {@code datasets/}) recorded as the engine's garbage. */
    Set<String> garbage() {
        return Set.copyOf(garbage);
    }

    void addGarbage(String relativeDir) {
        garbage.add(relativeDir);
    }

    void removeGarbage(String relativeDir) {
        garbage.remove(relativeDir);
    }

    long newId() {
        return nextId++;
    }

    Entry get(String name) {
        return byName.get(name);
    }

    List<Entry> entries() {
        return List.copyOf(byName.values());
    }

    void put(Entry e) {
        byName.put(e.spec().name(), e);
    }

    void remove(String name) {
        byName.remove(name);
    }
}
