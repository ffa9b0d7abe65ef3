package dev.breakwater.lsm.manager;

/**
 * What the {@link WriteMemoryManager} needs from a tree: how much write memory it holds, the oldest
 * log LSN it holds only in memory, how many entries it has taken, and a way to make it give memory
 * back. Keeps the manager independent of how a tree organizes its memory.
 *
 * <p>Thread safety: implementations are safe to call from the manager's thread while the tree is in use.
 */
public interface ManagedTree {

    String name();

    /** Write memory held now, in bytes ({@code a_i·M_w}). */
    long memoryBytes();

    /** Smallest log LSN held only in memory, or {@code Long.MAX_VALUE}. */
    long oldestMemoryLsn();

    /** Entries written so far ({@code w_i}). */
    long entriesWritten();

    /**
     * Starts freeing memory without waiting: a whole memory component for a monolithic tree, or
     * part of it for a partitioned one. Does nothing if the tree holds nothing to flush.
     */
    void requestFlush(FlushCause cause);

    /**
     * About how many bytes one more {@link #requestFlush} would free, beyond the flushes already
     * under way: the active memory component of a monolithic tree, the next memory SSTable of a
     * partitioned one; 0 while such a request is still pending. Lets the manager ask enough trees
     * at once to get below its threshold, and not ask the same tree again meanwhile.
     */
    long flushableBytes();

    /** Bytes of memory already on their way out (sealed or requested flushes not yet installed). */
    long flushingBytes();

    /**
     * Tells the tree whom to ask when its writer finds the pool empty, so that the flush policy, not
     * the tree that happens to be written, decides who gives memory back.
     */
    void setMemoryPressureHandler(Runnable handler);

    /**
     * Tells the tree how much write memory it holds on average, which sizes its disk levels
     * (paper 000, section 4.1.3).
     */
    void setWriteMemoryShare(long bytes);
}
