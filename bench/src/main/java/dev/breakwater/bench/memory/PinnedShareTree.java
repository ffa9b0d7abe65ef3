package dev.breakwater.bench.memory;

import dev.breakwater.lsm.manager.FlushCause;
import dev.breakwater.lsm.manager.ManagedTree;
import dev.breakwater.lsm.tree.LsmTree;

/**
 * A tree as the write-memory manager sees it, except that the manager's
 * {@link #setWriteMemoryShare} is ignored: the tree's disk levels stay sized for a constant write
 * memory, the "static-32MB" / "static-1GB" baselines of paper 000 Figure 9. Everything else is
 * forwarded, so flushes, pressure handling and statistics are the real tree's.
 *
 * <p>Thread safety: as the wrapped tree's.
 */
final class PinnedShareTree implements ManagedTree {

    private final LsmTree tree;
    private final long pinnedBytes;

    /** Sets {@code tree}'s share to {@code pinnedBytes} now and keeps it there. */
    PinnedShareTree(LsmTree tree, long pinnedBytes) {
        this.tree = tree;
        this.pinnedBytes = pinnedBytes;
        tree.setWriteMemoryShare(pinnedBytes);
    }

    @Override
    public String name() {
        return tree.name();
    }

    @Override
    public long memoryBytes() {
        return tree.memoryBytes();
    }

    @Override
    public long oldestMemoryLsn() {
        return tree.oldestMemoryLsn();
    }

    @Override
    public long entriesWritten() {
        return tree.entriesWritten();
    }

    @Override
    public void requestFlush(FlushCause cause) {
        tree.requestFlush(cause);
    }

    @Override
    public long requestFlush(FlushCause cause, long bytes) {
        return tree.requestFlush(cause, bytes);
    }

    @Override
    public void setWriteSlowdownFrom(double poolFraction) {
        tree.setWriteSlowdownFrom(poolFraction);
    }

    @Override
    public long flushableBytes() {
        return tree.flushableBytes();
    }

    @Override
    public long flushingBytes() {
        return tree.flushingBytes();
    }

    @Override
    public void setMemoryPressureHandler(Runnable handler) {
        tree.setMemoryPressureHandler(handler);
    }

    /** Ignored: the share stays at the pinned value. */
    @Override
    public void setWriteMemoryShare(long bytes) {
        tree.setWriteMemoryShare(pinnedBytes);
    }
}
