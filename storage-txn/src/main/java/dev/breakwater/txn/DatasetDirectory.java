package dev.breakwater.txn;

import dev.breakwater.common.config.BloomAllocationKind;
import dev.breakwater.common.config.ConfigException;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.L0MergePolicy;
import dev.breakwater.common.config.LeafCompression;
import dev.breakwater.common.config.MemoryComponentKind;
import dev.breakwater.common.config.MergePolicyKind;
import dev.breakwater.common.config.Option;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.memory.HashMemoryComponent;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.memory.MemoryMergeSettings;
import dev.breakwater.lsm.sstable.Compression;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where datasets live on disk and how their trees are opened, created and removed:
 * {@code <data>/datasets/<dataset id>_<name>/tree-<tree id>/}. Directory names carry never-reused
 * ids, so a dataset dropped and created again under the same name never meets its old files.
 *
 * <p>The engine deletes only directories its own records name. Before it creates a dataset or an
 * index directory, and before it deletes one, it records that directory in the catalog's
 * {@code garbage} list and saves the catalog; the entry goes once the catalog names the new trees,
 * or once the deletion is done. After a crash in between, open deletes exactly the directories
 * listed there. Open refuses, with a {@link DataDirectoryException} and without changing anything,
 * a {@code datasets/} entry that the catalog neither names nor lists as garbage, a directory the
 * catalog names that is missing, and a {@code datasets/} that holds anything while
 * {@code catalog.json} is missing.
 *
 * <p>Thread safety: called under the engine's DDL lock, or during open.
 */
final class DatasetDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(DatasetDirectory.class);

    /** The directory under the data directory that holds the datasets. */
    static final String ROOT = "datasets";
    /** What a garbage entry may look like: a dataset directory, or a tree directory inside one. */
    private static final java.util.regex.Pattern GARBAGE_NAME =
            java.util.regex.Pattern.compile("[0-9]+_[^/\\\\]+(/tree-[0-9]+)?");

    private final StorageEngine engine;
    private final Path root;

    DatasetDirectory(StorageEngine engine) {
        this.engine = engine;
        this.root = engine.dir.resolve(ROOT);
    }

    private Path datasetDir(Catalog.Entry e) {
        return datasetDir(engine.dir, e);
    }

    /** The directory of dataset {@code e} in the data directory {@code dataDir}. */
    static Path datasetDir(Path dataDir, Catalog.Entry e) {
        return dataDir.resolve(ROOT).resolve(datasetDirName(e));
    }

    private static String datasetDirName(Catalog.Entry e) {
        return e.id() + "_" + e.spec().name();
    }

    static String treeDirName(long treeId) {
        return "tree-" + treeId;
    }

    /**
     * The partitioned component's M0 size for the opening write memory: see
     * {@link #activeComponentBytes(StorageConfig, long)}.
     */
    static long activeComponentBytes(StorageConfig c) {
        return activeComponentBytes(c, c.get(ConfigOptions.WRITE_MEMORY));
    }

    /**
     * The partitioned component's M0 size over {@code writeMemory}: memory-component-size, but at
     * most an eighth of write memory. Sealing copies M0 into compact memory SSTables, so an M0 near
     * half the pool (32 MiB of the default 64 MiB) would make every seal wait for flushes. Trees open
     * with it over the configured write memory and follow it over the write memory in effect when
     * the pool is resized ({@link #followWriteMemory}); the smallest write-memory share the manager
     * sizes a tree's disk levels for follows the same rule (issue 12).
     */
    static long activeComponentBytes(StorageConfig c, long writeMemory) {
        return Math.min(c.get(ConfigOptions.MEMORY_COMPONENT_SIZE), writeMemory / M0_FRACTION_OF_WRITE_MEMORY);
    }

    /**
     * Moves every open partitioned tree's M0 to {@link #activeComponentBytes(StorageConfig, long)} of
     * {@code writeMemory}, the capacity the pool was just resized to, but never to less than twice
     * its memory component's own structure (a hash kind's bucket array, a vector's reserved index:
     * the bound {@link #memorySpec(StorageConfig, DatasetSpec)} checks at open), so a shrinking pool
     * does not have M0 sealed after every write. A tree opened after a resize gets the same from
     * {@link #openTree}.
     */
    void followWriteMemory(long writeMemory) {
        for (LsmTree t : engine.trees.values()) {
            followWriteMemory(t, writeMemory);
        }
    }

    private void followWriteMemory(LsmTree tree, long writeMemory) {
        long floor = 2 * structureBytes(tree.memorySpec()) + WriteMemoryPoolOptions.DEFAULT_PAGE_SIZE;
        tree.setActiveComponentBytes(Math.max(activeComponentBytes(engine.config, writeMemory), floor));
    }

    /** M0 is at most write memory over this; the write-memory manager's share floor follows the same rule. */
    static final int M0_FRACTION_OF_WRITE_MEMORY = 8;

    /**
     * Tree options from the configuration. Under the global write-memory manager a tree's memory
     * grows until the flush policy picks it (or the pool runs dry): a monolithic component (DYNAMIC,
     * STATIC) has no size limit of its own, so it may take whatever the pool holds, also after the
     * pool grows; a partitioned one seals its M0 at {@link #activeComponentBytes} into two memory
     * levels.
     */
    /**
     * Memory levels M1..Mk of a partitioned component for {@code writeMemory} and an M0 of
     * {@code m0}: with the paper's T = 10, k is the smallest count whose last level would start where
     * M0·T^(k-1) reaches write memory, and at least 2 (paper 000 §4.1.1); the levels themselves are
     * then sized with {@link MemoryMergeSettings#DEFAULT_SIZE_RATIO}. 64 MiB with an
     * 8 MiB M0 gives 2; 4 GiB with 32 MiB gives 3. Fixed when the tree opens: a later resize of write
     * memory changes what the last level holds, not the number of levels.
     */
    static int memoryLevels(long writeMemory, long m0) {
        int k = 1;
        double target = m0;
        while (target * MemoryMergeSettings.PAPER_SIZE_RATIO < writeMemory && k < 8) {
            target *= MemoryMergeSettings.PAPER_SIZE_RATIO;
            k++;
        }
        return Math.max(2, k);
    }

    /** A monolithic memory component's own size limit: none (the pool and the flush policy decide). */
    private static final long UNBOUNDED_MEMORY_TABLE = 1L << 50;

    static LsmTreeOptions treeOptions(StorageConfig c) {
        int pageSize = Math.toIntExact(c.get(ConfigOptions.PAGE_SIZE));
        boolean partitioned = c.get(ConfigOptions.WRITE_MEMORY_SCHEME) == WriteMemoryScheme.PARTITIONED;
        long m0 = activeComponentBytes(c);
        LsmTreeOptions o = LsmTreeOptions.defaults(pageSize, m0)
                .withMemoryTableBytes(partitioned ? m0 : UNBOUNDED_MEMORY_TABLE)
                .withMemoryLevels(partitioned ? memoryLevels(c.get(ConfigOptions.WRITE_MEMORY), m0) : 0)
                .withSizeRatio(c.get(ConfigOptions.SIZE_RATIO))
                .withTargetTableBytes(c.get(ConfigOptions.TARGET_SSTABLE_SIZE))
                .withPolicy(policy(c))
                .withBloomAllocation(c.get(ConfigOptions.BLOOM_ALLOCATION) == BloomAllocationKind.MONKEY
                        ? LsmTreeOptions.BloomAllocation.MONKEY : LsmTreeOptions.BloomAllocation.UNIFORM)
                .withCompression(c.get(ConfigOptions.LEAF_COMPRESSION) == LeafCompression.LZ4 ? Compression.LZ4 : Compression.NONE)
                .withDirectIo(c.get(ConfigOptions.DIRECT_IO))
                .withBloomBits(c.get(ConfigOptions.BLOOM_BITS_PER_KEY));
        if (c.get(ConfigOptions.MERGE_POLICY) == MergePolicyKind.RUNS_PER_LEVEL) {
            o = o.withRunsPerLevel(c.get(ConfigOptions.RUNS_PER_LEVEL));
        }
        if (c.get(ConfigOptions.MERGE_POLICY) == MergePolicyKind.GARNERING) {
            o = o.withGarnering(c.get(ConfigOptions.GARNERING_SCALE));
        }
        int slowdown = c.get(ConfigOptions.L0_SLOWDOWN_GROUPS);
        int mergeGroups = o.policy() == LsmTreeOptions.Policy.LEVELING_BATCHED_L0 ? Math.max(2, slowdown - 2) : Math.min(4, slowdown);
        return o.withL0(mergeGroups, slowdown, c.get(ConfigOptions.L0_STOP_GROUPS)).withL0MergeTables(c.get(ConfigOptions.L0_MERGE_TABLES));
    }

    private static LsmTreeOptions.Policy policy(StorageConfig c) {
        if (c.get(ConfigOptions.MERGE_POLICY) == MergePolicyKind.TIERING) {
            return LsmTreeOptions.Policy.TIERING;
        }
        return c.get(ConfigOptions.L0_MERGE_POLICY) == L0MergePolicy.BATCHED ? LsmTreeOptions.Policy.LEVELING_BATCHED_L0
                : LsmTreeOptions.Policy.LEVELING;
    }

    /**
     * The engine's active memory component kind and parameters (paper 001), for datasets without an
     * override.
     *
     * @throws ConfigException if the kind's own structure would fill M0 (see {@link #memorySpec(StorageConfig, DatasetSpec)})
     */
    static MemoryComponentSpec memorySpec(StorageConfig c) {
        MemoryComponentSpec spec = new MemoryComponentSpec(c.get(ConfigOptions.MEMORY_COMPONENT_KIND),
                c.get(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX), c.get(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS),
                c.get(ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE));
        String problem = structureProblem(c, spec);
        if (problem != null) {
            Option<Integer> option = spec.kind() == MemoryComponentKind.VECTOR ? ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE
                    : ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS;
            throw new ConfigException(option.name(), option.name() + ": " + problem);
        }
        return spec;
    }

    /**
     * The memory component the trees of {@code dataset} build: its {@link MemoryComponentOverride},
     * parameters it leaves out taken from the engine's options, or the engine's kind if it has none.
     *
     * @throws SchemaException naming the dataset if the kind's own structure (a hash kind's bucket
     *         array, a pre-sized vector's reserved index) would take half of a partitioned M0 or more:
     *         every write would then seal M0
     * @throws ConfigException if the dataset has no override and the engine's options are refused so
     */
    static MemoryComponentSpec memorySpec(StorageConfig c, DatasetSpec dataset) {
        MemoryComponentOverride o = dataset.memoryComponent();
        if (o == null) {
            return memorySpec(c);
        }
        MemoryComponentSpec spec = new MemoryComponentSpec(o.kind(),
                o.hashPrefix() != null ? o.hashPrefix() : c.get(ConfigOptions.MEMORY_COMPONENT_HASH_PREFIX),
                o.hashBuckets() != null ? o.hashBuckets() : c.get(ConfigOptions.MEMORY_COMPONENT_HASH_BUCKETS),
                o.vectorReserve() != null ? o.vectorReserve() : c.get(ConfigOptions.MEMORY_COMPONENT_VECTOR_RESERVE));
        String problem = structureProblem(c, spec);
        if (problem != null) {
            throw new SchemaException("dataset " + dataset.name() + ": memory component " + o + ": " + problem);
        }
        return spec;
    }

    /**
     * Why {@code spec}'s own structure does not fit a partitioned M0, or null. The structure is drawn
     * from write memory at the first write and counted in M0 (exact accounting), so a bucket array or
     * reserved index of half of M0 or more would have M0 sealed after almost every write.
     */
    private static String structureProblem(StorageConfig c, MemoryComponentSpec spec) {
        if (c.get(ConfigOptions.WRITE_MEMORY_SCHEME) != WriteMemoryScheme.PARTITIONED) {
            return null;
        }
        long m0 = activeComponentBytes(c);
        long bytes = structureBytes(spec);
        if (bytes < m0 / 2) {
            return null;
        }
        String what = switch (spec.kind()) {
            case VECTOR -> spec.vectorReserve() + " reserved entries take " + bytes + " bytes of index (8 bytes each, in whole "
                    + WriteMemoryPoolOptions.DEFAULT_PAGE_SIZE + "-byte write-memory pages)";
            default -> spec.hashBuckets() + " hash buckets take " + bytes + " bytes of bucket array (whole "
                    + WriteMemoryPoolOptions.DEFAULT_PAGE_SIZE + "-byte write-memory pages)";
        };
        return what + ", at least half of the active memory component's " + m0
                + " bytes (memory-component-size, at most write-memory / 8): M0 would hold almost no data; use fewer, or raise "
                + "memory-component-size or write-memory";
    }

    /**
     * Bytes of write memory {@code spec}'s own structure takes in M0 before any entry: a vector's
     * reserved index, a hash kind's bucket array (whole pages); 0 for the other kinds.
     */
    static long structureBytes(MemoryComponentSpec spec) {
        int page = WriteMemoryPoolOptions.DEFAULT_PAGE_SIZE;
        return switch (spec.kind()) {
            case VECTOR -> {
                int slotsPerPage = Integer.highestOneBit(page / 8);
                yield (spec.vectorReserve() + (long) slotsPerPage - 1) / slotsPerPage * page;
            }
            case HASH_SKIP_LIST, HASH_LINKED_LIST -> HashMemoryComponent.tablePages(spec.hashBuckets(), page) * (long) page;
            default -> 0;
        };
    }

    /**
     * A tree's name (in statistics, the layout and the write-memory manager): {@code dataset.index},
     * and {@code dataset.index.p<k>} for partition k of a partitioned dataset.
     */
    static String treeName(DatasetSpec spec, String index, int partition) {
        return spec.name() + "." + index + (spec.partitions() == 1 ? "" : ".p" + partition);
    }

    /** Opens one tree; unless {@code start}, it changes no file until {@link LsmTree#start()} (see {@link #finishOpen()}). */
    private LsmTree openTree(Catalog.Entry e, String what, int partition, long treeId, boolean start) throws IOException {
        LsmTree tree = LsmTree.open(treeName(e.spec(), what, partition), datasetDir(e).resolve(treeDirName(treeId)),
                treeOptions(engine.config), engine.resources, start, memorySpec(engine.config, e.spec()));
        tree.setOldestUnappliedLsn(engine::oldestUnappliedLsn);
        tree.setLogBarrier(engine::awaitLogDurable);
        tree.setLogWindow(engine::logEndLsn, engine.config.get(ConfigOptions.MAX_LOG_SIZE));
        followWriteMemory(tree, engine.pool.capacityBytes());
        engine.trees.put(treeId, tree);
        engine.writeMemory.register(tree, e.spec().name());
        return tree;
    }

    private DatasetState openState(Catalog.Entry e, boolean start) throws IOException {
        List<DatasetState.Partition> partitions = new ArrayList<>();
        for (int p = 0; p < e.partitions().size(); p++) {
            Catalog.PartitionTrees trees = e.partitions().get(p);
            LsmTree primary = openTree(e, DatasetSpec.PRIMARY, p, trees.primaryTree(), start);
            List<DatasetState.Secondary> secondaries = new ArrayList<>();
            for (IndexSpec ix : e.spec().secondaryIndexes()) {
                long treeId = trees.indexTrees().get(ix.name());
                secondaries.add(new DatasetState.Secondary(ix, treeId, openTree(e, ix.name(), p, treeId, start),
                        new KeyCodec(e.spec(), ix.name(), DatasetState.secondaryKeyFields(e.spec(), ix))));
            }
            partitions.add(new DatasetState.Partition(p, trees.primaryTree(), primary, secondaries));
        }
        return new DatasetState(e, partitions);
    }

    /**
     * Checks that {@code datasets/} holds only what the catalog names or lists as garbage and opens
     * every dataset of the catalog, reading only: the trees keep their orphan files and schedule no
     * merge, and the garbage directories stay, until {@link #finishOpen()}. So an open refused later
     * (by recovery, by the log) changes no file of the datasets.
     */
    void openAll() throws IOException {
        Catalog catalog = engine.catalog;
        List<String> top = engine.fs.exists(root) ? engine.fs.list(root) : List.of();
        if (!catalog.persisted() && !top.isEmpty()) {
            throw new DataDirectoryException("data directory " + engine.dir + " holds " + ROOT + "/" + top.get(0)
                    + (top.size() > 1 ? " (and " + (top.size() - 1) + " more)" : "") + " but " + Catalog.FILE
                    + " is missing; restore " + Catalog.FILE + " or move the directory away");
        }
        Set<String> garbage = catalog.garbage();
        for (String g : garbage) {
            if (!GARBAGE_NAME.matcher(g).matches() || g.contains("..")) {
                throw new DataDirectoryException(Catalog.FILE + " in " + engine.dir + " lists '" + g + "' as garbage, which "
                        + "is not a directory the engine creates; the catalog is damaged: restore it from a backup");
            }
        }
        Set<String> live = new HashSet<>();
        for (Catalog.Entry e : catalog.entries()) {
            String name = datasetDirName(e);
            live.add(name);
            Set<String> trees = new HashSet<>();
            e.allTrees().forEach(id -> trees.add(treeDirName(id)));
            if (!engine.fs.exists(datasetDir(e))) {
                throw new DataDirectoryException("data directory " + engine.dir + ": " + Catalog.FILE + " names dataset '"
                        + e.spec().name() + "' in " + ROOT + "/" + name + ", which is missing; restore that directory");
            }
            for (String tree : trees) {
                Path treeDir = datasetDir(e).resolve(tree);
                if (!engine.fs.exists(treeDir) || engine.fs.list(treeDir).isEmpty()) {
                    throw new DataDirectoryException("data directory " + engine.dir + ": " + Catalog.FILE + " names tree "
                            + ROOT + "/" + name + "/" + tree + " of dataset '" + e.spec().name() + "', which is missing or "
                            + "empty; restore that directory");
                }
            }
            for (String child : engine.fs.list(datasetDir(e))) {
                if (!trees.contains(child) && !garbage.contains(name + "/" + child)) {
                    throw unnamed(ROOT + "/" + name + "/" + child);
                }
            }
        }
        for (String name : top) {
            if (!live.contains(name) && !garbage.contains(name)) {
                throw unnamed(ROOT + "/" + name);
            }
        }
        engine.fs.createDirectories(root);
        for (Catalog.Entry e : catalog.entries()) {
            engine.datasetStates().put(e.spec().name(), openState(e, false));
        }
    }

    /**
     * The changes {@link #openAll()} deferred, once the engine's open has succeeded: deletes the
     * directories the catalog lists as garbage, then starts every tree (orphan files removed, due
     * merges scheduled).
     */
    void finishOpen() throws IOException {
        Catalog catalog = engine.catalog;
        Set<String> garbage = Set.copyOf(catalog.garbage());
        if (!garbage.isEmpty()) {
            for (String g : garbage) {
                Path p = root.resolve(g);
                if (engine.fs.exists(p)) {
                    LOG.info("removing {} left by an interrupted create or drop (listed as garbage in {})", p, Catalog.FILE);
                    deleteRecursively(p);
                }
                catalog.removeGarbage(g);
            }
            engine.fs.syncDirectory(root);
            catalog.save(engine.fs, engine.dir);
        }
        for (LsmTree t : engine.trees.values()) {
            t.start();
        }
    }

    private DataDirectoryException unnamed(String relative) {
        return new DataDirectoryException("data directory " + engine.dir + " holds " + relative + ", which " + Catalog.FILE
                + " does not name; the engine deletes only directories its own records name: move " + relative
                + " away (or restore the " + Catalog.FILE + " that names it)");
    }

    DatasetState create(DatasetSpec spec) throws IOException {
        memorySpec(engine.config, spec); // refuses a memory component that does not fit, before anything is written
        Catalog c = engine.catalog;
        int id = Math.toIntExact(c.newId());
        List<Catalog.PartitionTrees> partitions = new ArrayList<>();
        for (int p = 0; p < spec.partitions(); p++) {
            long primaryTree = c.newId();
            Map<String, Long> indexTrees = new LinkedHashMap<>();
            for (IndexSpec ix : spec.secondaryIndexes()) {
                indexTrees.put(ix.name(), c.newId());
            }
            partitions.add(new Catalog.PartitionTrees(primaryTree, indexTrees));
        }
        Catalog.Entry e = new Catalog.Entry(id, spec, partitions);
        String name = datasetDirName(e);
        c.addGarbage(name); // until the catalog names it: a crash in between leaves provable garbage
        c.save(engine.fs, engine.dir);
        DatasetState state = openState(e, true);
        c.put(e);
        c.removeGarbage(name);
        c.save(engine.fs, engine.dir);
        return state;
    }

    void drop(DatasetState state) throws IOException {
        String name = datasetDirName(state.entry);
        engine.catalog.remove(state.spec.name());
        engine.catalog.addGarbage(name); // until it is deleted: a crash in between leaves provable garbage
        engine.catalog.save(engine.fs, engine.dir);
        for (LsmTree t : state.trees()) {
            t.close(false);
        }
        for (long id : state.treeIds()) {
            engine.trees.remove(id);
        }
        for (LsmTree t : state.trees()) {
            engine.writeMemory.unregister(t);
        }
        deleteRecursively(datasetDir(state.entry));
        engine.catalog.removeGarbage(name);
        engine.catalog.save(engine.fs, engine.dir);
    }

    /**
     * Builds a new secondary index from the primary (the caller holds a lock that keeps writers
     * out), makes it durable, then records it in the catalog.
     */
    DatasetState addIndex(DatasetState state, IndexSpec index) throws IOException {
        DatasetSpec spec = state.spec.withIndex(index);
        int n = state.partitionCount();
        long[] treeIds = new long[n];
        List<Catalog.PartitionTrees> partitionTrees = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            treeIds[p] = engine.catalog.newId();
            Map<String, Long> trees = new LinkedHashMap<>(state.entry.partitions().get(p).indexTrees());
            trees.put(index.name(), treeIds[p]);
            partitionTrees.add(new Catalog.PartitionTrees(state.entry.partitions().get(p).primaryTree(), trees));
        }
        Catalog.Entry e = new Catalog.Entry(state.entry.id(), spec, partitionTrees);
        List<String> treeDirs = new ArrayList<>();
        for (long id : treeIds) {
            treeDirs.add(datasetDirName(e) + "/" + treeDirName(id));
            engine.catalog.addGarbage(treeDirs.get(treeDirs.size() - 1)); // until the catalog names it
        }
        engine.catalog.save(engine.fs, engine.dir);
        KeyCodec codec = new KeyCodec(spec, index.name(), DatasetState.secondaryKeyFields(spec, index));
        // Entries written during the build carry the log position reached so far: every later
        // commit has a higher LSN and is replayed into the index after a crash.
        long lsn = Math.max(0, engine.log.endLsn() - 1);
        long entries = 0;
        List<DatasetState.Partition> partitions = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            DatasetState.Partition old = state.partition(p);
            LsmTree tree = openTree(e, index.name(), p, treeIds[p], true);
            try (EntryCursor c = old.primary().scan(null, null)) {
                while (c.next()) {
                    Tuple t = state.records.decode(c.value(), c.valueLength());
                    byte[] key = codec.keyOf(t);
                    tree.write(key, key.length, TreeOp.EMPTY, 0, false, lsn);
                    entries++;
                }
            }
            tree.flush();
            List<DatasetState.Secondary> secondaries = new ArrayList<>(old.secondaries());
            secondaries.add(new DatasetState.Secondary(index, treeIds[p], tree, codec));
            partitions.add(new DatasetState.Partition(p, old.primaryTreeId(), old.primary(), secondaries));
        }
        engine.catalog.put(e);
        treeDirs.forEach(engine.catalog::removeGarbage);
        engine.catalog.save(engine.fs, engine.dir);
        LOG.info("built index {} of dataset {} with {} entries", index.name(), spec.name(), entries);
        return new DatasetState(e, partitions);
    }

    private void deleteRecursively(Path p) throws IOException {
        try {
            engine.fs.delete(p);
        } catch (DirectoryNotEmptyException e) {
            for (String child : engine.fs.list(p)) {
                deleteRecursively(p.resolve(child));
            }
            engine.fs.delete(p);
        }
    }
}
