package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;
import java.util.Arrays;

/**
 * A flyweight over a leaf body ({@link LeafPageDescriptor}) held either off-heap (an uncompressed
 * leaf in a pinned buffer-cache frame) or in a heap array (a decompressed leaf, or a cursor's copy).
 * Re-pointed with {@link #wrapOffHeap} or {@link #wrapHeap}; never allocates.
 *
 * <p>Thread safety: owned by one thread at a time; the caller keeps the memory valid (pinned).
 */
final class LeafView {

    private final OffHeapPage page = new OffHeapPage();
    private byte[] heap;
    private boolean onHeap;

    LeafView wrapOffHeap(long bodyAddress, int bodyLength) {
        page.wrap(bodyAddress, bodyLength);
        onHeap = false;
        return this;
    }

    LeafView wrapHeap(byte[] body) {
        heap = body;
        onHeap = true;
        return this;
    }

    private int getInt(int offset) {
        return onHeap ? LittleEndian.getInt(heap, offset) : page.getInt(offset);
    }

    int count() {
        return getInt(LeafPageDescriptor.countOffset());
    }

    /** Body offset of entry {@code index}. */
    int entry(int index) {
        return getInt(LeafPageDescriptor.slotOffset(index));
    }

    int keyLength(int entry) {
        return getInt(LeafPageDescriptor.keyLengthOffset(entry));
    }

    boolean isTombstone(int entry) {
        return (getInt(LeafPageDescriptor.valueLengthOffset(entry)) & LeafPageDescriptor.TOMBSTONE_BIT) != 0;
    }

    int valueLength(int entry) {
        return getInt(LeafPageDescriptor.valueLengthOffset(entry)) & ~LeafPageDescriptor.TOMBSTONE_BIT;
    }

    /** Sign of (key of {@code entry}) compared with {@code key[0, keyLen)}, unsigned lexicographic. */
    int compare(int entry, byte[] key, int keyLen) {
        int from = LeafPageDescriptor.keyOffset(entry);
        int len = keyLength(entry);
        return onHeap ? Arrays.compareUnsigned(heap, from, from + len, key, 0, keyLen)
                : page.compareUnsigned(from, len, key, 0, keyLen);
    }

    /** Index of the entry with exactly this key, or -1. */
    int find(byte[] key, int keyLen) {
        int i = lowerBound(key, keyLen);
        return i < count() && compare(entry(i), key, keyLen) == 0 ? i : -1;
    }

    /** Index of the first entry whose key is &gt;= {@code key} ({@link #count()} if none). */
    int lowerBound(byte[] key, int keyLen) {
        int lo = 0;
        int hi = count();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(entry(mid), key, keyLen) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Copies {@code length} bytes at body offset {@code offset} into {@code dst[0..]}. */
    void copy(int offset, byte[] dst, int length) {
        if (onHeap) {
            System.arraycopy(heap, offset, dst, 0, length);
        } else {
            page.getBytes(offset, dst, 0, length);
        }
    }
}
