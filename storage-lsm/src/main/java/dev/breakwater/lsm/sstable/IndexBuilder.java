package dev.breakwater.lsm.sstable;

import java.io.IOException;
import java.util.Arrays;

/**
 * Builds the interior levels of the B+-tree bottom-up ({@link IndexPageDescriptor}). While leaves
 * are written it records one (separator, leaf page) pair per leaf; {@link #build} then packs each
 * level into pages, left to right, and repeats on the pages' first separators until one page (the
 * root) remains.
 *
 * <p>Separators are shortened: the separator of leaf {@code i > 0} is the shortest prefix of its
 * first key that is greater than the last key of leaf {@code i-1}; leaf 0 gets the empty key.
 *
 * <p>Invariants: (1) separators of a level are strictly increasing; (2) every index page holds at
 * least two entries except perhaps the last of a level, because keys are limited to
 * {@link SSTableFormat#maxKeyLength}, so each level is at most half as wide as the one below.
 *
 * <p>Thread safety: not thread-safe; owned by one writer.
 */
final class IndexBuilder {

    /** Where the index ended up. */
    record Result(int rootPage, int height, int firstPage, int pageCount) {
    }

    private final int payloadCap;
    private final Level leaves = new Level();
    private byte[] previousLast = new byte[64];
    private int previousLastLength = -1;

    IndexBuilder(int pageSize) {
        this.payloadCap = SSTableFormat.payload(pageSize);
    }

    /** Records leaf {@code pageNo} with its first and last key. Leaves arrive in key order. */
    void addLeaf(int pageNo, byte[] buf, int firstOffset, int firstLength, int lastOffset, int lastLength) {
        int separatorLength = 0;
        if (previousLastLength >= 0) {
            int mismatch = Arrays.mismatch(previousLast, 0, previousLastLength, buf, firstOffset, firstOffset + firstLength);
            separatorLength = mismatch + 1; // first key > previous last, so mismatch < firstLength
        }
        leaves.add(buf, firstOffset, separatorLength, pageNo);
        if (previousLast.length < lastLength) {
            previousLast = new byte[Math.max(lastLength, previousLast.length * 2)];
        }
        System.arraycopy(buf, lastOffset, previousLast, 0, lastLength);
        previousLastLength = lastLength;
    }

    int leafCount() {
        return leaves.count;
    }

    /** Writes the index pages; requires at least one leaf. */
    Result build(PageBatchWriter out) throws IOException {
        int firstPage = out.nextPage();
        Level level = leaves;
        int height = 0;
        byte[] payload = new byte[payloadCap];
        while (level.count > 1) {
            height++;
            level = writeLevel(level, height, out, payload);
        }
        return new Result(level.children[0], height, firstPage, out.nextPage() - firstPage);
    }

    private Level writeLevel(Level below, int levelNo, PageBatchWriter out, byte[] payload) throws IOException {
        Level up = new Level();
        int fixed = IndexPageDescriptor.SLOTS_OFFSET - IndexPageDescriptor.COUNT_OFFSET;
        int i = 0;
        while (i < below.count) {
            int used = fixed;
            int j = i;
            while (j < below.count && used + IndexPageDescriptor.SLOT_SIZE + IndexPageDescriptor.ENTRY_HEADER + below.keyLength(j) <= payloadCap) {
                used += IndexPageDescriptor.SLOT_SIZE + IndexPageDescriptor.ENTRY_HEADER + below.keyLength(j);
                j++;
            }
            if (j == i) {
                throw new IllegalStateException("index entry of " + below.keyLength(i) + " B does not fit a page payload of " + payloadCap + " B");
            }
            int n = j - i;
            int base = IndexPageDescriptor.COUNT_OFFSET; // page offset of payload byte 0
            LittleEndian.putInt(payload, 0, n);
            LittleEndian.putInt(payload, IndexPageDescriptor.LEVEL_OFFSET - base, levelNo);
            int entryAt = IndexPageDescriptor.slotOffset(n) - base;
            for (int e = 0; e < n; e++) {
                int k = i + e;
                LittleEndian.putInt(payload, IndexPageDescriptor.slotOffset(e) - base, entryAt + base);
                LittleEndian.putInt(payload, IndexPageDescriptor.childOffset(entryAt), below.children[k]);
                LittleEndian.putInt(payload, IndexPageDescriptor.separatorLengthOffset(entryAt), below.keyLength(k));
                System.arraycopy(below.keys, below.keyStarts[k], payload, IndexPageDescriptor.separatorOffset(entryAt), below.keyLength(k));
                entryAt += IndexPageDescriptor.ENTRY_HEADER + below.keyLength(k);
            }
            int pageNo = out.writePage(SSTableFormat.TYPE_INDEX, (byte) 0, payload, used);
            up.add(below.keys, below.keyStarts[i], below.keyLength(i), pageNo);
            i = j;
        }
        return up;
    }

    /** One level's (separator, child) pairs, separators packed in one array. */
    private static final class Level {
        byte[] keys = new byte[1024];
        int keysLength;
        int[] keyStarts = new int[65];
        int[] children = new int[64];
        int count;

        void add(byte[] src, int offset, int length, int child) {
            if (keysLength + length > keys.length) {
                keys = Arrays.copyOf(keys, Math.max(keysLength + length, keys.length * 2));
            }
            if (count + 1 >= keyStarts.length) {
                keyStarts = Arrays.copyOf(keyStarts, keyStarts.length * 2);
                children = Arrays.copyOf(children, keyStarts.length);
            }
            System.arraycopy(src, offset, keys, keysLength, length);
            keyStarts[count] = keysLength;
            children[count] = child;
            keysLength += length;
            count++;
            keyStarts[count] = keysLength;
        }

        int keyLength(int i) {
            return keyStarts[i + 1] - keyStarts[i];
        }
    }
}
