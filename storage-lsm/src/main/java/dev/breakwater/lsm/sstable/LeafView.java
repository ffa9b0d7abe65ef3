package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.page.CorruptPageException;
import java.util.Arrays;

/**
 * A flyweight over a leaf body ({@link LeafPageDescriptor}) held either off-heap (an uncompressed
 * leaf in a pinned buffer-cache frame) or in a heap array (a decompressed leaf, or a cursor's copy).
 * Re-pointed with {@link #wrapOffHeap} or {@link #wrapHeap}; never allocates.
 *
 * <p>A leaf that passed its page checksum can still be malformed (a writer bug, a crafted file), so
 * the view never trusts a length or offset read from the body: {@link #count} and {@link #entry}
 * check that the slot array, the entry header, its key and its value all lie inside the body before
 * anything reads them, and throw {@link CorruptPageException} naming the file and page otherwise.
 * After {@code entry(i)} returned {@code e}, {@link #keyLength}, {@link #valueLength},
 * {@link #compare} and copies of the key and value of {@code e} stay inside the body.
 *
 * <p>Invariants: (1) every read is inside {@code [0, length)} of the wrapped body, for any body
 * bytes; (2) {@code file} and {@code pageNo} name the page the body came from.
 *
 * <p>Thread safety: owned by one thread at a time; the caller keeps the memory valid (pinned).
 */
final class LeafView {

    private final OffHeapPage page = new OffHeapPage();
    private byte[] heap;
    private boolean onHeap;
    private int length;
    private String file;
    private int pageNo;

    LeafView wrapOffHeap(long bodyAddress, int bodyLength, String file, int pageNo) {
        page.wrap(bodyAddress, bodyLength);
        onHeap = false;
        return source(bodyLength, file, pageNo);
    }

    /** Views {@code body[0, bodyLength)} (the array may be longer). */
    LeafView wrapHeap(byte[] body, int bodyLength, String file, int pageNo) {
        heap = body;
        onHeap = true;
        return source(bodyLength, file, pageNo);
    }

    private LeafView source(int bodyLength, String file, int pageNo) {
        this.length = bodyLength;
        this.file = file;
        this.pageNo = pageNo;
        return this;
    }

    private int getInt(int offset) {
        return onHeap ? LittleEndian.getInt(heap, offset) : page.getInt(offset);
    }

    /** Number of entries; the slot array is checked to fit the body. */
    int count() throws CorruptPageException {
        if (length < LeafPageDescriptor.BODY_HEADER) {
            throw corrupt("leaf body of " + length + " bytes has no entry count");
        }
        int n = getInt(LeafPageDescriptor.countOffset());
        if (n < 0 || n > (length - LeafPageDescriptor.BODY_HEADER) / LeafPageDescriptor.SLOT_SIZE) {
            throw corrupt("leaf entry count " + n + " does not fit a body of " + length + " bytes");
        }
        return n;
    }

    /**
     * Body offset of entry {@code index} ({@code 0 <= index < count()}), checked: its header, key and
     * value lie inside the body.
     */
    int entry(int index) throws CorruptPageException {
        int e = getInt(LeafPageDescriptor.slotOffset(index));
        if (e < LeafPageDescriptor.BODY_HEADER || e > length - LeafPageDescriptor.ENTRY_HEADER) {
            throw corrupt("leaf slot " + index + " points at offset " + e + ", outside the body of " + length + " bytes");
        }
        long end = (long) LeafPageDescriptor.keyOffset(e) + keyLength(e) + valueLength(e);
        if (keyLength(e) < 0 || end > length) {
            throw corrupt("leaf entry " + index + " at offset " + e + " (key " + keyLength(e) + ", value "
                    + valueLength(e) + " bytes) runs past the body of " + length + " bytes");
        }
        return e;
    }

    private CorruptPageException corrupt(String detail) {
        return new CorruptPageException(file, pageNo, detail);
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

    /**
     * Sign of (key of {@code entry}) compared with {@code key[0, keyLen)}, unsigned lexicographic.
     * Requires: {@code entry} came from {@link #entry}.
     */
    int compare(int entry, byte[] key, int keyLen) {
        int from = LeafPageDescriptor.keyOffset(entry);
        int len = keyLength(entry);
        return onHeap ? Arrays.compareUnsigned(heap, from, from + len, key, 0, keyLen)
                : page.compareUnsigned(from, len, key, 0, keyLen);
    }

    /** Index of the entry with exactly this key, or -1. */
    int find(byte[] key, int keyLen) throws CorruptPageException {
        int i = lowerBound(key, keyLen);
        return i < count() && compare(entry(i), key, keyLen) == 0 ? i : -1;
    }

    /** Index of the first entry whose key is &gt;= {@code key} ({@link #count()} if none). */
    int lowerBound(byte[] key, int keyLen) throws CorruptPageException {
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
