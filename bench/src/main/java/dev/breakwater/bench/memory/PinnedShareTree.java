package dev.breakwater.bench.memory;

import dev.breakwater.lsm.manager.ForwardingManagedTree;
import dev.breakwater.lsm.tree.LsmTree;

/**
 * A tree as the write-memory manager sees it, except that the manager's
 * {@link #setWriteMemoryShare} is ignored: the tree's disk levels stay sized for a constant write
 * memory, the "static-32MB" / "static-1GB" baselines of paper 000 Figure 9. Everything else is
 * forwarded, so flushes, pressure handling and statistics are the real tree's.
 *
 * <p>Thread safety: as the wrapped tree's.
 */
final class PinnedShareTree extends ForwardingManagedTree {

    private final LsmTree tree;
    private final long pinnedBytes;

    /** Sets {@code tree}'s share to {@code pinnedBytes} now and keeps it there. */
    PinnedShareTree(LsmTree tree, long pinnedBytes) {
        super(tree);
        this.tree = tree;
        this.pinnedBytes = pinnedBytes;
        tree.setWriteMemoryShare(pinnedBytes);
    }

    /** Ignored: the share stays at the pinned value. */
    @Override
    public void setWriteMemoryShare(long bytes) {
        tree.setWriteMemoryShare(pinnedBytes);
    }

    /** Always settled: the pinned share is not an estimate. */
    @Override
    public void setLevelCountSettled(boolean settled) {
        tree.setLevelCountSettled(true);
    }
}
