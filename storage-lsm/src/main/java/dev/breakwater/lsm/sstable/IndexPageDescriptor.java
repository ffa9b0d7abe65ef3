package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.PageDescriptor;

/**
 * Layout of an interior (index) page of the B+-tree: separator keys and child page numbers.
 * All integers are little endian; offsets below are from the start of the page.
 *
 * <pre>
 *  16        20        24                     24+4n
 *  +---------+---------+----------------------+----------------------------------------+
 *  | count n | level   | slot[0]..slot[n-1]   | entry 0 | entry 1 | ...                |
 *  | u32     | u32     | u32: page offset      |                                        |
 *  +---------+---------+----------------------+----------------------------------------+
 *
 *  entry:
 *  +------------+------------------+-----------------+
 *  | child page | separator length | separator bytes |
 *  | u32        | u32              |                 |
 *  +------------+------------------+-----------------+
 * </pre>
 * Header type {@link SSTableFormat#TYPE_INDEX}, flags 0. Level 1 pages point at leaves, level
 * {@code h} pages at level {@code h-1} pages; the root has level = index height.
 *
 * <p>Separator {@code i} is &lt;= every key under child {@code i} and &gt; every key under child
 * {@code i-1} (the writer uses the shortest prefix of the child's first key that is greater than the
 * previous child's last key). A search takes the last child whose separator is &lt;= the key,
 * treating separator 0 as minus infinity.
 */
public final class IndexPageDescriptor {

    public static final int COUNT_OFFSET = PageDescriptor.HEADER_LENGTH;
    public static final int LEVEL_OFFSET = PageDescriptor.HEADER_LENGTH + 4;
    public static final int SLOTS_OFFSET = PageDescriptor.HEADER_LENGTH + 8;
    public static final int SLOT_SIZE = 4;
    public static final int ENTRY_HEADER = 8;

    private IndexPageDescriptor() {
    }

    public static int slotOffset(int index) {
        return SLOTS_OFFSET + index * SLOT_SIZE;
    }

    public static int childOffset(int entryOffset) {
        return entryOffset;
    }

    public static int separatorLengthOffset(int entryOffset) {
        return entryOffset + 4;
    }

    public static int separatorOffset(int entryOffset) {
        return entryOffset + ENTRY_HEADER;
    }
}
