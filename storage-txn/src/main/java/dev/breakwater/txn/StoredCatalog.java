package dev.breakwater.txn;

import dev.breakwater.common.io.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalog of a data directory as it is stored, read without opening an engine: for inspection
 * tools that must not run recovery or change a file. It names each dataset's trees and where they
 * live, and decodes the trees' keys and records with the dataset's schema (the same codecs the
 * engine uses).
 *
 * <p>Reading it opens {@code catalog.json} read-only; nothing else is touched. A directory without
 * a catalog has no datasets.
 *
 * <p>Thread safety: immutable; safe.
 */
public final class StoredCatalog {

    /** Name of the file the engine records its checkpoint in (JSON), in the data directory. */
    public static final String CHECKPOINT_FILE = CheckpointFile.NAME;
    /** Name of the catalog file in the data directory. */
    public static final String CATALOG_FILE = Catalog.FILE;

    private final Path dataDir;
    private final List<StoredDataset> datasets;

    private StoredCatalog(Path dataDir, List<StoredDataset> datasets) {
        this.dataDir = dataDir;
        this.datasets = datasets;
    }

    /**
     * Reads the catalog of {@code dataDir}.
     *
     * @throws IOException if the catalog exists but cannot be read or parsed
     */
    public static StoredCatalog read(FileSystem fs, Path dataDir) throws IOException {
        List<StoredDataset> list = new ArrayList<>();
        for (Catalog.Entry e : Catalog.load(fs, dataDir).entries()) {
            list.add(new StoredDataset(dataDir, e));
        }
        return new StoredCatalog(dataDir, List.copyOf(list));
    }

    /** The transaction log's directory in {@code dataDir} (the engine's {@code log/}). */
    public static Path logDirectory(Path dataDir) {
        return dataDir.resolve("log");
    }

    /** The directory that holds one directory per dataset. */
    public Path datasetsDirectory() {
        return dataDir.resolve(DatasetDirectory.ROOT);
    }

    /** Every dataset, in catalog order. */
    public List<StoredDataset> datasets() {
        return datasets;
    }

    /**
     * The dataset named {@code name}.
     *
     * @throws UnknownDatasetException naming the datasets there are
     */
    public StoredDataset dataset(String name) {
        for (StoredDataset d : datasets) {
            if (d.spec().name().equals(name)) {
                return d;
            }
        }
        throw new UnknownDatasetException("no dataset named '" + name + "' in " + dataDir + "; datasets: "
                + datasets.stream().map(d -> d.spec().name()).toList());
    }

    /** One dataset of the catalog: its schema, its directory and its trees. */
    public static final class StoredDataset {
        private final Catalog.Entry entry;
        private final Path dir;
        private final RecordCodec records;
        private final List<StoredIndex> indexes = new ArrayList<>();

        StoredDataset(Path dataDir, Catalog.Entry entry) {
            this.entry = entry;
            this.dir = DatasetDirectory.datasetDir(dataDir, entry);
            this.records = new RecordCodec(entry.spec());
            DatasetSpec spec = entry.spec();
            for (int p = 0; p < entry.partitions().size(); p++) {
                Catalog.PartitionTrees trees = entry.partitions().get(p);
                indexes.add(new StoredIndex(DatasetSpec.PRIMARY, p, trees.primaryTree(), true,
                        dir.resolve(DatasetDirectory.treeDirName(trees.primaryTree())),
                        new KeyCodec(spec, DatasetSpec.PRIMARY, spec.primaryKey()), spec.primaryKey(), records));
                for (IndexSpec ix : spec.secondaryIndexes()) {
                    long tree = trees.indexTrees().get(ix.name());
                    List<String> fields = DatasetState.secondaryKeyFields(spec, ix);
                    indexes.add(new StoredIndex(ix.name(), p, tree, false, dir.resolve(DatasetDirectory.treeDirName(tree)),
                            new KeyCodec(spec, ix.name(), fields), fields, records));
                }
            }
        }

        /** The dataset's id (part of its directory name; never reused). */
        public int id() {
            return entry.id();
        }

        public DatasetSpec spec() {
            return entry.spec();
        }

        /** The dataset's directory. */
        public Path directory() {
            return dir;
        }

        /**
         * Every tree: the primary index first, then the secondary indexes in catalog order; for a
         * partitioned dataset that list once per partition, partition 0 first.
         */
        public List<StoredIndex> indexes() {
            return List.copyOf(indexes);
        }

        /** The dataset's hash partitions of its primary key (1 unless declared). */
        public int partitions() {
            return entry.spec().partitions();
        }

        /**
         * The index named {@code name} ({@link DatasetSpec#PRIMARY} for the primary) of an
         * unpartitioned dataset.
         *
         * @throws SchemaException naming the indexes there are, or if the dataset is partitioned
         */
        public StoredIndex index(String name) {
            if (partitions() > 1) {
                throw new SchemaException("dataset " + spec().name() + " has " + partitions() + " partitions, each with its "
                        + "own tree of index '" + name + "': name the partition");
            }
            return index(name, 0);
        }

        /**
         * The tree of index {@code name} in partition {@code partition}.
         *
         * @throws SchemaException naming the indexes there are, or if there is no such partition
         */
        public StoredIndex index(String name, int partition) {
            if (partition < 0 || partition >= partitions()) {
                throw new SchemaException("dataset " + spec().name() + " has " + partitions() + " partitions; there is no "
                        + "partition " + partition);
            }
            for (StoredIndex ix : indexes) {
                if (ix.partition() != partition) {
                    continue;
                }
                if (ix.name().equals(name)) {
                    return ix;
                }
            }
            throw new SchemaException("dataset " + spec().name() + " has no index '" + name + "'; indexes: "
                    + indexes.stream().map(StoredIndex::name).toList());
        }
    }

    /** One tree of a dataset: the primary index or a secondary index. */
    public static final class StoredIndex {
        private final String name;
        private final int partition;
        private final long treeId;
        private final boolean primary;
        private final Path dir;
        private final KeyCodec keys;
        private final List<String> keyFields;
        private final RecordCodec records;

        StoredIndex(String name, int partition, long treeId, boolean primary, Path dir, KeyCodec keys, List<String> keyFields,
                    RecordCodec records) {
            this.name = name;
            this.partition = partition;
            this.treeId = treeId;
            this.primary = primary;
            this.dir = dir;
            this.keys = keys;
            this.keyFields = List.copyOf(keyFields);
            this.records = records;
        }

        public String name() {
            return name;
        }

        /** The partition this tree belongs to (0 for an unpartitioned dataset). */
        public int partition() {
            return partition;
        }

        /** The tree's id (log records and the checkpoint name trees by it). */
        public long treeId() {
            return treeId;
        }

        /** True for the primary index, whose values are the records. */
        public boolean isPrimary() {
            return primary;
        }

        /** The tree's directory (manifest and SSTables). */
        public Path directory() {
            return dir;
        }

        /** The fields a key of this tree consists of, in order (secondary: indexed fields, then primary key). */
        public List<String> keyFields() {
            return keyFields;
        }

        /**
         * Decodes a stored key of this tree.
         *
         * @throws IllegalArgumentException if the bytes are not a key of this tree's fields
         */
        public Key decodeKey(byte[] key, int length) {
            return Key.of(keys.decode(key, length, keys.fieldCount()));
        }

        /**
         * Decodes a stored value of the primary tree into a record.
         *
         * @throws IllegalStateException if this is a secondary index (its values are empty)
         * @throws RuntimeException      if the bytes are not a record of the dataset's schema
         */
        public Tuple decodeRecord(byte[] value, int length) {
            if (!primary) {
                throw new IllegalStateException("index " + name + " is a secondary index: its entries have no record");
            }
            return records.decode(value, length);
        }

        /**
         * The byte range {@code [from, to)} of this tree's keys in {@code range}; an element is null
         * where the range is unbounded.
         *
         * @throws SchemaException if a bound has too many values or a value of the wrong type
         */
        public byte[][] byteRange(KeyRange range) {
            return new byte[][] {keys.from(range), keys.to(range)};
        }
    }

    /**
     * Checks the checkpoint in {@code dataDir} as open does (header, length, CRC32C, fields) without
     * changing anything; returns its JSON body, or null if there is none.
     *
     * @throws CheckpointCorruptedException if the file is damaged
     */
    public static String checkedCheckpointBody(FileSystem fs, Path dataDir) throws IOException {
        if (CheckpointFile.read(fs, dataDir) == null) {
            return null;
        }
        String text = new String(java.nio.file.Files.readAllBytes(dataDir.resolve(CheckpointFile.NAME)),
                java.nio.charset.StandardCharsets.UTF_8);
        return text.startsWith(CheckpointFile.MAGIC) ? text.substring(text.indexOf('\n') + 1) : text;
    }
}
