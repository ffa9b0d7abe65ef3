package dev.breakwater.lsm.memory;

import java.util.ArrayList;
import java.util.List;

/**
 * A flush chosen by {@link FlushPicker}: memory SSTables to write to disk and then drop from memory.
 * A pure description. The caller merges the inputs with a newest-first merging cursor (inputs are
 * given newest level first; tables within one level are disjoint, so a level reads as one sorted run)
 * and cuts the output into disk SSTables.
 *
 * @param kind   why the flush was picked
 * @param inputs the tables by memory level, newest (lowest-numbered) level first; only levels that
 *               contribute a table appear
 * @param reason short human-readable explanation, for logs and tests
 */
public record MemoryFlushTask(Kind kind, List<Input> inputs, String reason) {

    /** The flush rules of paper 000 §4.1.1 and §4.1.4. */
    public enum Kind {
        /** Write memory is full: the next table of the last non-empty memory level, round-robin. */
        MEMORY_TRIGGERED,
        /** The log must be truncated: the table holding the oldest log LSN, with what must go with it. */
        LOG_TRIGGERED,
        /** Everything in memory, merge-sorted into disjoint disk tables. */
        FULL
    }

    /** Tables of one memory level (1-based, M1 is 1), in key order. */
    public record Input(int level, List<MemorySSTableMeta> tables) {
        public Input {
            tables = List.copyOf(tables);
        }
    }

    public MemoryFlushTask {
        inputs = List.copyOf(inputs);
    }

    /** Every table, newest level first. */
    public List<MemorySSTableMeta> allTables() {
        List<MemorySSTableMeta> all = new ArrayList<>();
        for (Input in : inputs) {
            all.addAll(in.tables());
        }
        return all;
    }

    public long bytes() {
        return MemoryMergePicker.bytes(allTables());
    }
}
