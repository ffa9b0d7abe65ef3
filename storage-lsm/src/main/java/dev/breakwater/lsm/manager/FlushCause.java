package dev.breakwater.lsm.manager;

/**
 * Why a memory table was sealed for flushing. The memory tuner tells flushes caused by memory
 * pressure ({@code flush_mem_i}) from those caused by the log ({@code flush_log_i}), paper 000
 * section 5.2.
 */
public enum FlushCause {
    /** The table reached its size, or write memory ran short. */
    MEMORY,
    /** The log grew past its maximum length and this tree held its oldest LSN. */
    LOG,
    /** Asked for explicitly (a flush call, shutdown, a static scheme deactivating a dataset). */
    EXPLICIT;


}
