package dev.breakwater.lsm.manager;

/**
 * Why a memory table was sealed for flushing. The memory tuner tells flushes caused by memory
 * pressure ({@code flush_mem_i}) from those caused by the log ({@code flush_log_i}), paper 000
 * section 5.2.
 */
public enum FlushCause {
    /** The table reached its size, or write memory ran short. */
    MEMORY,
    /**
     * The log grew past its maximum length and this tree held its oldest LSN, and memory did not
     * force the flush too. The rule (so that eq. 5's {@code flush_mem / (flush_mem + flush_log)}
     * is not zeroed by a full pool): a flush the log asks for counts as {@link #MEMORY} if, when it
     * is asked for, write-memory usage is at or above the manager's flush threshold, or if a writer
     * has to wait for memory while the table is sealed and not yet flushed. A flush that only the
     * log asked for, with memory to spare, counts as LOG.
     */
    LOG,
    /** Asked for explicitly (a flush call, shutdown, a static scheme deactivating a dataset). */
    EXPLICIT;


}
