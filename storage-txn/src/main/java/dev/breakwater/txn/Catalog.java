package dev.breakwater.txn;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
 * may delete at open (see {@link DatasetDirectory}).
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

    record DatasetJson(int id, String name, List<FieldJson> fields, List<String> primaryKey, long primaryTree,
                       List<IndexJson> indexes) {
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
        if (json.formatVersion() != FORMAT_VERSION) {
            throw new IOException("catalog " + path + " has format version " + json.formatVersion() + ", this build reads " + FORMAT_VERSION);
        }
        c.nextId = json.nextId();
        if (json.garbage() != null) {
            c.garbage.addAll(json.garbage());
        }
        // The catalog carries no checksum: what damage makes of it must at least be a consistent
        // catalog, or the open is refused naming the file as damaged (not, say, a directory as
        // unnamed, with advice to move it away). A next id at or below a used one would make new
        // datasets reuse live ids.
        Set<Long> ids = new HashSet<>();
        try {
            for (DatasetJson d : json.datasets()) {
                List<Field> fields = d.fields().stream().map(f -> new Field(f.name(), f.type(), f.nullable())).toList();
                List<IndexSpec> indexes = d.indexes().stream().map(i -> new IndexSpec(i.name(), i.fields())).toList();
                Map<String, Long> trees = new LinkedHashMap<>();
                d.indexes().forEach(i -> trees.put(i.name(), i.tree()));
                List<Long> used = new ArrayList<>(List.of((long) d.id(), d.primaryTree()));
                used.addAll(trees.values());
                for (long id : used) {
                    if (id < 1 || id >= c.nextId || !ids.add(id)) {
                        throw new IOException("dataset '" + d.name() + "' uses id " + id + ", which is "
                                + (id < 1 || id >= c.nextId ? "outside [1, nextId " + c.nextId + ")" : "used twice"));
                    }
                }
                if (c.byName.put(d.name(), new Entry(d.id(), new DatasetSpec(d.name(), fields, d.primaryKey(), indexes),
                        d.primaryTree(), trees)) != null) {
                    throw new IOException("dataset name '" + d.name() + "' appears twice");
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException("catalog " + path + " is damaged (" + e.getMessage() + "); restore it from a backup", e);
        }
        return c;
    }

    void save(FileSystem fs, Path dir) throws IOException {
        List<DatasetJson> datasets = new ArrayList<>();
        for (Entry e : byName.values()) {
            List<FieldJson> fields = e.spec().fields().stream().map(f -> new FieldJson(f.name(), f.type(), f.nullable())).toList();
            List<IndexJson> indexes = e.spec().secondaryIndexes().stream()
                    .map(i -> new IndexJson(i.name(), i.fields(), e.indexTrees().get(i.name()))).toList();
            datasets.add(new DatasetJson(e.id(), e.spec().name(), fields, e.spec().primaryKey(), e.primaryTree(), indexes));
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
