package dev.breakwater.lsm.memory;

/**
 * Layout of one skip-list node of a {@link MemoryComponent}, stored in a write-memory page at an
 * absolute address that is a multiple of 8. Multi-byte fields are in native byte order (little
 * endian on every platform Breakwater supports); nodes never leave memory, so no byte order is
 * fixed for files.
 *
 * <pre>
 *  0       1       2               4               8              12              16
 *  +-------+-------+---------------+---------------+---------------+---------------+
 *  |height | flags |   (unused)    |  keyLength    |  valueLength  |   (unused)    |
 *  +-------+-------+---------------+---------------+---------------+---------------+
 *  |                         lsn (int64)                                           |  16
 *  +-------------------------------------------------------------------------------+
 *  |                next[0]: absolute address of the successor at level 0          |  24
 *  +-------------------------------------------------------------------------------+
 *  |                ...  next[height-1]                                            |
 *  +-------------------------------------------------------------------------------+
 *  |  key bytes (keyLength)  |  value bytes (valueLength)  | padding to 8 bytes    |
 *  +-------------------------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code height}: number of levels the node is linked into, 1..{@link #MAX_HEIGHT}.</li>
 *   <li>{@code flags}: bit 0 {@link #FLAG_TOMBSTONE}; other bits zero.</li>
 *   <li>{@code keyLength}, {@code valueLength}: unsigned in practice (non-negative ints); a
 *       tombstone has {@code valueLength == 0}.</li>
 *   <li>{@code lsn}: the log sequence number of the write, {@code >= 0}.</li>
 *   <li>{@code next[i]}: 8-byte aligned so it can be the target of a CAS; {@link #NIL} (0) ends
 *       the list. Written before the node is published at level {@code i}, then changed only by
 *       CAS.</li>
 * </ul>
 * Every field except the next pointers is written once, before the node is published, and never
 * changes.
 *
 * <p>The other memory-component kinds reuse this layout: a {@link VectorMemoryComponent} record is a
 * node of height 0 (no next pointers) whose bytes {@code [12, 16)} hold its append ordinal (int32); a
 * {@link HashMemoryComponent} bucket holds nodes of any height (skip-list buckets) or of height 1
 * (linked-list buckets).
 */
public final class SkipListNodeDescriptor {

    /** Highest level of any node. With branching 1/4 (LevelDB's), 12 levels serve ~16M entries. */
    public static final int MAX_HEIGHT = 12;

    /** Reciprocal of the probability that a node reaching level {@code i} also reaches {@code i+1}. */
    public static final int BRANCHING = 4;

    public static final int HEIGHT_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int KEY_LENGTH_OFFSET = 4;
    public static final int VALUE_LENGTH_OFFSET = 8;
    public static final int LSN_OFFSET = 16;
    public static final int NEXT_OFFSET = 24;

    /** Header bytes before the next pointers. */
    public static final int HEADER_LENGTH = NEXT_OFFSET;

    /** Bit of {@code flags} marking anti-matter. */
    public static final int FLAG_TOMBSTONE = 1;

    /** The null node address. */
    public static final long NIL = 0L;

    /** Alignment of every node. */
    public static final int ALIGNMENT = 8;

    private SkipListNodeDescriptor() {
    }

    /** Address of {@code next[level]} of the node at {@code node}. */
    public static long nextAddress(long node, int level) {
        return node + NEXT_OFFSET + 8L * level;
    }

    /** Address of the first key byte of a node of {@code height}. */
    public static long keyAddress(long node, int height) {
        return node + NEXT_OFFSET + 8L * height;
    }

    /** Bytes a node occupies, padding included. */
    public static int nodeLength(int height, int keyLength, int valueLength) {
        int raw = NEXT_OFFSET + 8 * height + keyLength + valueLength;
        return (raw + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * The largest {@code keyLength + valueLength} that fits a page of {@code pageSize} bytes at any
     * height. Requires: {@code pageSize} is a multiple of {@link #ALIGNMENT}.
     */
    public static int maxRecordLength(int pageSize) {
        return pageSize - NEXT_OFFSET - 8 * MAX_HEIGHT;
    }
}
