package dev.breakwater.tuner;

/**
 * One LSM-tree's part of a tuning cycle (paper 000, Tables 1 and 2): what it wrote and flushed during
 * the cycle and how large it is at the cycle's end. Counts are differences over the cycle; sizes are
 * current values.
 *
 * @param name            the tree, for reports
 * @param mergeBytes      bytes written by this tree's merges during the cycle ({@code merge_i})
 * @param flushMemBytes   bytes flushed because write memory ran short ({@code flush_mem_i})
 * @param flushLogBytes   bytes flushed so the log could be truncated ({@code flush_log_i})
 * @param lastLevelBytes  size of the tree's deepest non-empty level ({@code |L_N_i|}); 0 if it has none
 * @param memoryShare     the tree's share of write memory, {@code a_i} in [0, 1]
 * @param queryReadPages  pages of this tree's SSTables that queries read from disk during the cycle
 *                        ({@code read_q_i}: its part of {@code read_q}), point lookups' and scans' together
 * @param pointReadPages  the part of {@code queryReadPages} that point lookups read; at most {@code queryReadPages}
 */
public record TreeSample(String name, long mergeBytes, long flushMemBytes, long flushLogBytes, long lastLevelBytes,
                         double memoryShare, long queryReadPages, long pointReadPages) {

    /** A tree sample whose query reads are not split by kind (all counted as scans' reads). */
    public TreeSample(String name, long mergeBytes, long flushMemBytes, long flushLogBytes, long lastLevelBytes,
                      double memoryShare, long queryReadPages) {
        this(name, mergeBytes, flushMemBytes, flushLogBytes, lastLevelBytes, memoryShare, queryReadPages, 0);
    }

    /** A tree sample without query reads ({@code read_q_i = 0}). */
    public TreeSample(String name, long mergeBytes, long flushMemBytes, long flushLogBytes, long lastLevelBytes,
                      double memoryShare) {
        this(name, mergeBytes, flushMemBytes, flushLogBytes, lastLevelBytes, memoryShare, 0, 0);
    }

    /** Pages the tree's scans read from disk in the cycle: the query reads that grow with its level count. */
    public long scanReadPages() {
        return queryReadPages - pointReadPages;
    }

    public TreeSample {
        if (mergeBytes < 0 || flushMemBytes < 0 || flushLogBytes < 0 || lastLevelBytes < 0 || queryReadPages < 0) {
            throw new IllegalArgumentException("tree " + name + ": negative count in a tuning sample (merge " + mergeBytes
                    + ", flush_mem " + flushMemBytes + ", flush_log " + flushLogBytes + ", |L_N| " + lastLevelBytes + ", read_q " + queryReadPages
                    + "); a cycle is the difference of a later snapshot minus an earlier one");
        }
        if (pointReadPages < 0 || pointReadPages > queryReadPages) {
            throw new IllegalArgumentException("tree " + name + ": point lookups' reads " + pointReadPages
                    + " must be within the tree's query reads " + queryReadPages);
        }
        if (!(memoryShare >= 0 && memoryShare <= 1)) {
            throw new IllegalArgumentException("tree " + name + ": memory share a_i must be in [0, 1], got " + memoryShare);
        }
    }
}
