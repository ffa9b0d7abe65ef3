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
    static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** One dataset: its id, spec, and the tree id of its primary index and of each secondary index. */
    record Entry(int id, DatasetSpec spec, long primaryTree, Map<String, Long> indexTrees) {
        Entry {
            indexTrees = Collections.unmodifiableMap(new LinkedHashMap<>(indexTrees));
        }
    }

    // JSON shapes.
    record FieldJson(String name, FieldType type, boolean nullable) {
    }

    record IndexJson(String name, List<String> fields, long tree) {
    }

    /** A dataset's memory-component override; absent parameters are left out of the file. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MemoryComponentJson(MemoryComponentKind kind, Integer hashPrefix, Integer hashBuckets, Integer vectorReserve) {
    }

    /** {@code memoryComponent} is left out (and read as null) for a dataset without an override: catalogs before it read unchanged. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DatasetJson(int id, String name, List<FieldJson> fields, List<String> primaryKey, long primaryTree,
                       List<IndexJson> indexes, MemoryComponentJson memoryComponent) {
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
        if (json.formatVersion() != FORMAT_VERSION) {
            throw new IOException("catalog " + path + " has format version " + json.formatVersion() + ", this build reads " + FORMAT_VERSION);
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
            check(e.id() >= 0 && e.id() < c.nextId && e.primaryTree() >= 0 && e.primaryTree() < c.nextId
                    && e.indexTrees().values().stream().allMatch(t -> t != null && t >= 0 && t < c.nextId),
                    path, "gives dataset " + e.spec().name() + " an id or tree id outside [0, nextId " + c.nextId
                    + "): ids would be reused");
            List<Long> used = new ArrayList<>(List.of((long) e.id(), e.primaryTree()));
            used.addAll(e.indexTrees().values());
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
        try {
            List<Field> fields = d.fields().stream().map(f -> new Field(f.name(), f.type(), f.nullable())).toList();
            List<IndexSpec> indexes = d.indexes().stream().map(i -> new IndexSpec(i.name(), i.fields())).toList();
            Map<String, Long> trees = new LinkedHashMap<>();
            d.indexes().forEach(i -> trees.put(i.name(), i.tree()));
            MemoryComponentJson m = d.memoryComponent();
            MemoryComponentOverride memory = m == null ? null
                    : new MemoryComponentOverride(m.kind(), m.hashPrefix(), m.hashBuckets(), m.vectorReserve());
            return new Entry(d.id(), new DatasetSpec(d.name(), fields, d.primaryKey(), indexes, memory), d.primaryTree(), trees);
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
        for (Entry e : byName.values()) {
            List<FieldJson> fields = e.spec().fields().stream().map(f -> new FieldJson(f.name(), f.type(), f.nullable())).toList();
            List<IndexJson> indexes = e.spec().secondaryIndexes().stream()
                    .map(i -> new IndexJson(i.name(), i.fields(), e.indexTrees().get(i.name()))).toList();
            MemoryComponentOverride m = e.spec().memoryComponent();
            MemoryComponentJson memory = m == null ? null
                    : new MemoryComponentJson(m.kind(), m.hashPrefix(), m.hashBuckets(), m.vectorReserve());
            datasets.add(new DatasetJson(e.id(), e.spec().name(), fields, e.spec().primaryKey(), e.primaryTree(), indexes, memory));
        }
        byte[] bytes = JSON.writeValueAsBytes(new CatalogJson(FORMAT_VERSION, nextId, datasets, List.copyOf(garbage)));
        Path tmp = dir.resolve(FILE + ".tmp");
        try (StorageFile f = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(bytes));
            f.sync();
        }
        fs.rename(tmp, dir.resolve(FILE));
        fs.syncDirectory(dir);
        persisted = true;
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
