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
     * Starts freeing about {@code bytes} of memory without waiting, and says how much it will free:
     * a monolithic tree seals its whole memory component whatever {@code bytes} is; a partitioned
     * one adds {@code bytes} (at most what it holds and is not already flushing) to its pending
     * partial flushes, which take tables of its last memory level round-robin, sealing M0 into the
     * memory levels first when they hold less than asked. 0 if it holds nothing more to flush.
     */
    default long requestFlush(FlushCause cause, long bytes) {
        long flushable = flushableBytes();
        requestFlush(cause);
        return flushable;
    }

    /**
     * Bytes that further flush requests could free, beyond the flushes already under way: the
     * active memory component of a monolithic tree; the memory levels of a partitioned one less its
     * pending partial flushes, plus its M0. Lets the manager ask enough trees to get below its threshold.
     */
    long flushableBytes();

    /**
     * The smallest flush worth making into this tree now ({@link dev.breakwater.lsm.merge.MergePicker#smallestUsefulFlushBytes}):
     * a smaller one only makes its L0 merge while thin. The optimal flush policy lets a tree keep at
     * least this much memory. 0 (the default): no such floor.
     */
    default long smallestUsefulFlushBytes() {
        return 0;
    }

    /** Bytes of memory already on their way out (sealed or requested flushes not yet installed). */
    long flushingBytes();

    /**
     * Tells the tree whom to ask when its writer finds the pool empty, so that the flush policy, not
     * the tree that happens to be written, decides who gives memory back.
     */
    void setMemoryPressureHandler(Runnable handler);

    /**
     * Tells the tree whom to ask when it needs room in the pool beyond what the flush threshold leaves
     * free: a partitioned tree's seal copies M0 and the M1 tables it overlaps into new tables before
     * it frees them. The handler takes the bytes needed and asks the trees the flush policy picks to
     * free them, so a seal does not flush its own tree's newest data for room the policy would have
     * taken from another tree. Trees that need no such room ignore it.
     */
    default void setRoomHandler(java.util.function.LongConsumer handler) {
    }

    /**
     * Tells the tree how much write memory it holds on average, which sizes its disk levels
     * (paper 000, section 4.1.3).
     */
    void setWriteMemoryShare(long bytes);

    /**
     * Tells the tree whether its write-memory share is settled: an average over enough of its
     * writes to decide its number of disk levels by. While it is not (just registered), the tree
     * adds and retires no level (levels follow the share, not a guess; see
     * {@code LevelSizingShare}). Trees that do not size levels from the share ignore it.
     */
    default void setLevelCountSettled(boolean settled) {
    }

    /**
     * Tells the tree from which fraction of the write-memory pool in use its writers are slowed
     * (a little more the fuller the pool), before they block on an empty pool.
     */
    default void setWriteSlowdownFrom(double poolFraction) {
    }

    /**
     * Tells the tree the pool fraction at which the manager starts memory-triggered flushes. The tree
     * uses it to label its flushes: one the log asks for while usage is at or above it counts as
     * memory-triggered (see {@link FlushCause#LOG}).
     */
    default void setMemoryFlushThreshold(double poolFraction) {
    }
}
