package dev.breakwater.txn;

import dev.breakwater.lsm.tree.LsmTree;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime of one open dataset: its catalog entry, codecs and trees. Secondary index entries are
 * the indexed fields followed by the primary key, with empty values.
 *
 * <p>Thread safety: immutable after construction apart from the trees, which are thread-safe; adding
 * an index creates a new DatasetState.
 */
final class DatasetState {

    /** One secondary index. */
    record Secondary(IndexSpec spec, long treeId, LsmTree tree, KeyCodec codec) {
    }

    final Catalog.Entry entry;
    final DatasetSpec spec;
    final RecordCodec records;
    final KeyCodec primaryKeys;
    final long primaryTreeId;
    final LsmTree primary;
    final List<Secondary> secondaries;
    volatile boolean dropped;

    DatasetState(Catalog.Entry entry, LsmTree primary, List<Secondary> secondaries) {
        this.entry = entry;
        this.spec = entry.spec();
        this.records = new RecordCodec(spec);
        this.primaryKeys = new KeyCodec(spec, DatasetSpec.PRIMARY, spec.primaryKey());
        this.primaryTreeId = entry.primaryTree();
        this.primary = primary;
        this.secondaries = List.copyOf(secondaries);
    }

    /** Key fields of a secondary index's entries: the indexed fields, then the primary key. */
    static List<String> secondaryKeyFields(DatasetSpec spec, IndexSpec ix) {
        List<String> f = new ArrayList<>(ix.fields());
        f.addAll(spec.primaryKey());
        return f;
    }

    Secondary secondary(String name) {
        for (Secondary s : secondaries) {
            if (s.spec().name().equals(name)) {
                return s;
            }
        }
        throw new SchemaException("dataset " + spec.name() + " has no index " + name);
    }

    /** Every tree of the dataset, primary first. */
    List<LsmTree> trees() {
        List<LsmTree> all = new ArrayList<>();
        all.add(primary);
        for (Secondary s : secondaries) {
            all.add(s.tree());
        }
        return all;
    }
}
