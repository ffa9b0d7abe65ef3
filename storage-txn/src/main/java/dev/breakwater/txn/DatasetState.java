package dev.breakwater.txn;

import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.tree.LsmTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime of one open dataset: its catalog entry, codecs and trees. Secondary index entries are
 * the indexed fields followed by the primary key, with empty values.
 *
 * <p>A dataset has {@code spec.partitions()} partitions (one unless declared otherwise), each with
 * its own primary tree and one tree per secondary index. A record and its secondary entries live in
 * partition {@link #partitionOf(byte[]) partitionOf(pk)}.
 *
 * <p>Invariants: (1) {@code partitions.length == spec.partitions()}, and every partition lists the
 * secondary indexes in the order of {@code spec.secondaryIndexes()}; (2) {@link #primaryTreeId} and
 * {@link #secondaries} are partition 0's: they are the dataset's lock namespace (locks name a
 * key, not a tree, so one namespace per index serves every partition) and carry the codecs, which
 * all partitions share. Reads and writes go to the trees of {@link #partition(byte[])}.
 *
 * <p>Thread safety: immutable after construction apart from the trees, which are thread-safe; adding
 * an index creates a new DatasetState.
 */
final class DatasetState {

    /** One secondary index (of one partition). */
    record Secondary(IndexSpec spec, long treeId, LsmTree tree, KeyCodec codec) {
    }

    /** The trees of one partition: its primary and its secondary indexes in spec order. */
    record Partition(int index, long primaryTreeId, LsmTree primary, List<Secondary> secondaries) {
        Partition {
            secondaries = List.copyOf(secondaries);
        }
    }

    final Catalog.Entry entry;
    final DatasetSpec spec;
    final RecordCodec records;
    final KeyCodec primaryKeys;
    /** Partition 0's primary tree id: the lock namespace of the primary index. */
    final long primaryTreeId;
    /** Partition 0's secondary indexes: their codecs and lock namespaces. */
    final List<Secondary> secondaries;
    private final Partition[] partitions;
    volatile boolean dropped;

    DatasetState(Catalog.Entry entry, List<Partition> partitions) {
        this.entry = entry;
        this.spec = entry.spec();
        this.records = new RecordCodec(spec);
        this.primaryKeys = new KeyCodec(spec, DatasetSpec.PRIMARY, spec.primaryKey());
        this.partitions = partitions.toArray(new Partition[0]);
        if (this.partitions.length != spec.partitions()) {
            throw new IllegalArgumentException("dataset " + spec.name() + ": " + this.partitions.length + " partitions opened, "
                    + spec.partitions() + " declared");
        }
        this.primaryTreeId = this.partitions[0].primaryTreeId();
        this.secondaries = this.partitions[0].secondaries();
    }

    /** Key fields of a secondary index's entries: the indexed fields, then the primary key. */
    static List<String> secondaryKeyFields(DatasetSpec spec, IndexSpec ix) {
        List<String> f = new ArrayList<>(ix.fields());
        f.addAll(spec.primaryKey());
        return f;
    }

    /** Partition 0's secondary index {@code name} (codec and lock namespace). */
    Secondary secondary(String name) {
        for (Secondary s : secondaries) {
            if (s.spec().name().equals(name)) {
                return s;
            }
        }
        throw new SchemaException("dataset " + spec.name() + " has no index " + name);
    }

    int partitionCount() {
        return partitions.length;
    }

    Partition partition(int index) {
        return partitions[index];
    }

    /** The partition that holds the record with encoded primary key {@code pk}. */
    int partitionOf(byte[] pk) {
        return PartitionHash.partition(pk, pk.length, partitions.length);
    }

    /** The partition that holds the record with encoded primary key {@code pk}. */
    Partition partition(byte[] pk) {
        return partitions[partitionOf(pk)];
    }

    /** Position of secondary index {@code name} in each partition's list. */
    int secondaryPosition(String name) {
        for (int i = 0; i < secondaries.size(); i++) {
            if (secondaries.get(i).spec().name().equals(name)) {
                return i;
            }
        }
        throw new SchemaException("dataset " + spec.name() + " has no index " + name);
    }

    /**
     * A cursor over the primary index in {@code [from, to)}, ascending or descending: the primary
     * tree's own cursor, or every partition's merged in key order. Each partition's snapshot is taken
     * in turn.
     */
    EntryCursor scanPrimary(byte[] from, byte[] to, boolean descending) throws IOException {
        return scanPartitions(-1, from, to, descending);
    }

    /** As {@link #scanPrimary}, over the secondary index at {@code position} of every partition. */
    EntryCursor scanSecondary(int position, byte[] from, byte[] to, boolean descending) throws IOException {
        return scanPartitions(position, from, to, descending);
    }

    private EntryCursor scanPartitions(int secondary, byte[] from, byte[] to, boolean descending) throws IOException {
        EntryCursor[] cursors = new EntryCursor[partitions.length];
        try {
            for (int i = 0; i < partitions.length; i++) {
                LsmTree tree = secondary < 0 ? partitions[i].primary() : partitions[i].secondaries().get(secondary).tree();
                cursors[i] = descending ? tree.reverseScan(from, to) : tree.scan(from, to);
            }
        } catch (IOException | RuntimeException e) {
            PartitionMergeCursor.closeAll(cursors, e);
            throw e;
        }
        return cursors.length == 1 ? cursors[0] : new PartitionMergeCursor(cursors, descending);
    }

    /** Every tree of the dataset, partition by partition, primary first. */
    List<LsmTree> trees() {
        List<LsmTree> all = new ArrayList<>();
        for (Partition p : partitions) {
            all.add(p.primary());
            for (Secondary s : p.secondaries()) {
                all.add(s.tree());
            }
        }
        return all;
    }

    /** Every tree id of the dataset, in the order of {@link #trees()}. */
    List<Long> treeIds() {
        List<Long> all = new ArrayList<>();
        for (Partition p : partitions) {
            all.add(p.primaryTreeId());
            for (Secondary s : p.secondaries()) {
                all.add(s.treeId());
            }
        }
        return all;
    }
}
