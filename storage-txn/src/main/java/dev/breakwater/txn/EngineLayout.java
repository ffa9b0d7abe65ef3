package dev.breakwater.txn;

import dev.breakwater.lsm.manager.WriteMemorySnapshot;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A read-only picture of what an engine holds: datasets, their indexes, each index's LSM-tree with
 * its memory, its write-memory share and its disk levels down to the SSTables. For the stats
 * endpoint ({@code /datasets}), JMX and tools; it copies metadata only and reads no data pages.
 *
 * <p>Immutable. Taken without stopping writers, so its parts may come from slightly different
 * moments (a flush may land between two trees).
 *
 * @param datasets the open datasets, by name
 */
public record EngineLayout(List<DatasetLayout> datasets) {

    /**
     * One dataset.
     *
     * @param name    dataset name
     * @param indexes the primary index first, then the secondary indexes; for a partitioned
     *                dataset, that list once per partition (partition 0 first), each tree named
     *                {@code dataset.index.p<k>}
     */
    public record DatasetLayout(String name, List<IndexLayout> indexes) {
    }

    /**
     * One index and its tree.
     *
     * @param name      index name ({@value DatasetSpec#PRIMARY} for the primary index)
     * @param primary   whether this is the primary index
     * @param keyFields the fields the index is ordered by (secondary indexes end with the primary key)
     * @param tree      the index's LSM-tree
     */
    public record IndexLayout(String name, boolean primary, List<String> keyFields, TreeLayout tree) {
    }

    /**
     * One LSM-tree.
     *
     * @param name             tree name ({@code dataset.index})
     * @param memoryBytes      write memory its memory components hold
     * @param writeMemoryShare its fraction of the write memory in use (0..1)
     * @param writeShare       its fraction of recent writes (0..1), which the OPTIMAL flush policy matches
     * @param diskBytes        bytes of all its SSTables
     * @param levels           disk levels from 0 (the flush groups) down
     */
    public record TreeLayout(String name, long memoryBytes, double writeMemoryShare, double writeShare, long diskBytes,
                             List<LevelLayout> levels) {
    }

    /**
     * One disk level.
     *
     * @param level      level number
     * @param bytes      bytes of its SSTables
     * @param components its runs, newest first; each a list of SSTables in key order
     */
    public record LevelLayout(int level, long bytes, List<List<SSTableLayout>> components) {
    }

    /**
     * One SSTable file ({@code <fileNumber>.sst} in the tree's directory).
     *
     * @param fileNumber file number
     * @param sizeBytes  file size
     * @param entries    entries, tombstones included
     */
    public record SSTableLayout(long fileNumber, long sizeBytes, long entries) {
    }

    static EngineLayout of(Map<String, DatasetState> states, WriteMemorySnapshot memory) {
        List<DatasetLayout> out = new ArrayList<>();
        for (DatasetState s : new TreeMap<>(states).values()) {
            List<IndexLayout> indexes = new ArrayList<>();
            for (int p = 0; p < s.partitionCount(); p++) {
                DatasetState.Partition part = s.partition(p);
                indexes.add(new IndexLayout(DatasetSpec.PRIMARY, true, s.spec.primaryKey(), tree(part.primary(), memory)));
                for (DatasetState.Secondary ix : part.secondaries()) {
                    indexes.add(new IndexLayout(ix.spec().name(), false,
                            List.copyOf(DatasetState.secondaryKeyFields(s.spec, ix.spec())), tree(ix.tree(), memory)));
                }
            }
            out.add(new DatasetLayout(s.spec.name(), List.copyOf(indexes)));
        }
        return new EngineLayout(List.copyOf(out));
    }

    private static TreeLayout tree(LsmTree tree, WriteMemorySnapshot memory) {
        Version v = tree.version();
        List<LevelLayout> levels = new ArrayList<>();
        long disk = 0;
        for (int i = 0; i < v.levelCount(); i++) {
            List<List<SSTableLayout>> runs = new ArrayList<>();
            for (Run r : v.level(i)) {
                List<SSTableLayout> tables = new ArrayList<>();
                for (TableMeta t : r.tables()) {
                    tables.add(new SSTableLayout(t.fileNumber(), t.sizeBytes(), t.entries()));
                }
                runs.add(List.copyOf(tables));
            }
            long bytes = v.levelBytes(i);
            disk += bytes;
            levels.add(new LevelLayout(i, bytes, List.copyOf(runs)));
        }
        WriteMemorySnapshot.TreeShare share = memory.trees().get(tree.name());
        return new TreeLayout(tree.name(), tree.memoryBytes(), share == null ? 0 : share.memoryShare(),
                share == null ? 0 : share.writeShare(), disk, List.copyOf(levels));
    }
}
