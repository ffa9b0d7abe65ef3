package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.memory.MemorySSTable;
import dev.breakwater.lsm.memory.MemorySSTableMeta;
import dev.breakwater.lsm.memory.RecordCursor;
import java.util.ArrayList;
import java.util.List;

/**
 * What the {@link Flusher} and the {@link MemoryMerger} both do with memory SSTables: build
 * range-partitioned outputs from a merged stream, resolve picker descriptions to tables, and span
 * log LSNs.
 *
 * <p>Thread safety: stateless; safe.
 */
final class MemorySSTables {

    private MemorySSTables() {
    }

    /**
     * Builds range-partitioned memory SSTables of the tree's memory-SSTable size from records read in
     * place (seals and memory merges): one off-heap copy per record. Closes {@code merged}; null, with
     * nothing leaked, if the write-memory pool runs dry.
     */
    static List<MemorySSTable> build(LsmTree tree, RecordCursor merged, long minLsn, long maxLsn) {
        List<MemorySSTable> outputs = new ArrayList<>();
        try (merged) {
            while (true) {
                MemorySSTable.BuildResult r = MemorySSTable.build(tree.resources.pool(), merged, tree.memorySSTableBytes(),
                        tree.options.bloomBitsFor(0), minLsn, maxLsn);
                switch (r.status()) {
                    case BUILT -> outputs.add(r.table());
                    case END_OF_SOURCE -> {
                        if (r.table() != null) {
                            outputs.add(r.table());
                        }
                        return outputs;
                    }
                    case POOL_EXHAUSTED -> {
                        outputs.forEach(MemorySSTable::unref);
                        return null;
                    }
                    default -> throw new IllegalStateException("unknown build status " + r.status());
                }
            }
        } catch (RuntimeException e) {
            outputs.forEach(MemorySSTable::unref);
            throw e;
        }
    }

    /** The tables {@code metas} describe, in the same order. */
    static List<MemorySSTable> tables(MemoryLevels levels, List<MemorySSTableMeta> metas) {
        List<MemorySSTable> out = new ArrayList<>();
        for (MemorySSTableMeta m : metas) {
            out.add(levels.byId(m.id()));
        }
        return out;
    }

    /** Pool bytes the tables hold. */
    static long bytes(List<MemorySSTable> tables) {
        long b = 0;
        for (MemorySSTable t : tables) {
            b += t.bytesUsed();
        }
        return b;
    }

    static long minLogLsn(List<MemorySSTable> tables) {
        long m = Long.MAX_VALUE;
        for (MemorySSTable t : tables) {
            m = Math.min(m, t.minLogLsn());
        }
        return m;
    }

    static long maxLogLsn(List<MemorySSTable> tables) {
        long m = Long.MIN_VALUE;
        for (MemorySSTable t : tables) {
            m = Math.max(m, t.maxLogLsn());
        }
        return m;
    }
}
