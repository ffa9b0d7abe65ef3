package dev.breakwater.lsm.memory;

/**
 * A sorted stream of records read in place, in write-memory pages: the input of seals and memory
 * merges of the partitioned memory component (paper 000 §4.1.1). A {@link MemorySSTableBuilder}
 * copies each record straight from its source pages into the new table's pages with one off-heap
 * copy, where an {@link dev.breakwater.lsm.EntryCursor} would copy key and value into heap arrays,
 * then again into a merging cursor's arrays, then into the pages. The Figure 8 profile
 * (docs/benchmarks-memory.md) found those copies to be most of the partitioned write path's CPU.
 *
 * <p>Keys are strictly increasing (unsigned bytes); each key appears once, with its newest version.
 * The addresses of the current record are valid after {@link #next()} returned true, for as long as
 * the memory holding it stays allocated: a record's bytes never move or change, so they stay valid
 * after later calls to {@link #next()} too, until the source (component or table) is released. The
 * caller must hold the source (a sealed component, referenced memory SSTables) for that long.
 *
 * <p>Thread safety: one thread. The source must not change while it is read (a sealed component,
 * immutable tables).
 */
public interface RecordCursor extends AutoCloseable {

    /** Advances to the next record; false when there is none (and stays false). */
    boolean next();

    /** Address of the current record's first key byte. */
    long keyAddress();

    int keyLength();

    /** Address of the current record's first value byte; meaningless for a tombstone. */
    long valueAddress();

    /** Value bytes; 0 for a tombstone. */
    int valueLength();

    boolean isTombstone();

    /** The tree's sequence number of the write that produced the record. */
    long seq();

    /** What {@link #logLsnFloor()} returns when the cursor does not know it. */
    long UNKNOWN_LOG_LSN = Long.MIN_VALUE;

    /**
     * A lower bound of the log LSN of the write that produced the current record: the minimum log LSN
     * of the memory SSTable it is read from, or {@link #UNKNOWN_LOG_LSN} (the default) when the cursor
     * cannot say. A table built from records whose floors are all known takes the smallest of them as
     * its minimum log LSN, so a seal does not hand the oldest LSN of every input to every output.
     */
    default long logLsnFloor() {
        return UNKNOWN_LOG_LSN;
    }

    /** Ends the cursor; it returns no record afterwards. Releases nothing of the source. */
    @Override
    void close();
}
