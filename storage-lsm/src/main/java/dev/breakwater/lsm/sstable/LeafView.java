package dev.breakwater.lsm.sstable;

import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.page.CorruptPageException;
import java.util.Arrays;

/**
 * A flyweight over a leaf body ({@link LeafPageDescriptor}, either SSTable format version) held
 * either off-heap (an uncompressed leaf in a pinned buffer-cache frame, or a merge's read-ahead
 * chunk) or in a heap array (a decompressed leaf, or a cursor's copy). Re-pointed with
 * {@link #wrapOffHeap} or {@link #wrapHeap}; never allocates.
 *
 * <p>Entries are decoded one at a time: {@link #entry(int)} decodes entry {@code i}'s header into
 * this view's <em>current entry</em> ({@link #keyOffset()}, {@link #keyLength()},
 * {@link #valueOffset()}, {@link #valueLength()}, {@link #isTombstone()}), which stays valid until
 * the next {@code entry} or wrap. So a binary search decodes only the entries it probes, and a scan
 * decodes each entry once, without per-entry objects.
 *
 * <p>A leaf that passed its page checksum can still be malformed (a writer bug, a crafted file), so
 * the view never trusts a length or offset read from the body: a wrap checks that the count's slot
 * array fits the body, and {@link #entry} checks that the slot points inside the entry area, that
 * each varint ends inside the body within {@link LeafPageDescriptor#MAX_VARINT_BYTES} bytes, and
 * that the key and value end inside the body, before anything reads them; otherwise it throws
 * {@link CorruptPageException} naming the file and page.
 *
 * <p>Invariants: (1) every read is inside {@code [0, length)} of the wrapped body, for any body
 * bytes; (2) {@code file} and {@code pageNo} name the page the body came from; (3) after a wrap
 * returned, {@code width} is the body's slot width and {@code count} its checked entry count; after
 * {@code entry(i)} returned, the current entry's key and value lie inside the body.
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
    /** Whether entries have the version-1 header (two u32) rather than two varints. */
    private boolean legacy;
    private int width;
    private int count;
    /** Body offset of the first byte after the slot array: no entry starts before it. */
    private int entriesStart;

    // The current entry, set by entry(i).
    private int keyOffset;
    private int keyLength;
    private int valueLength;
    private boolean tombstone;
    /** Scratch of the varint decoder: the body offset after the last varint read. */
    private int varintEnd;

    /** Views an off-heap leaf body of SSTable format {@code version}; checks its count. */
    LeafView wrapOffHeap(long bodyAddress, int bodyLength, int version, String file, int pageNo) throws CorruptPageException {
        page.wrap(bodyAddress, bodyLength);
        onHeap = false;
        return source(bodyLength, version, file, pageNo);
    }

    /** Views {@code body[0, bodyLength)} (the array may be longer), of SSTable format {@code version}; checks its count. */
    LeafView wrapHeap(byte[] body, int bodyLength, int version, String file, int pageNo) throws CorruptPageException {
        heap = body;
        onHeap = true;
        return source(bodyLength, version, file, pageNo);
    }

    private LeafView source(int bodyLength, int version, String file, int pageNo) throws CorruptPageException {
        this.length = bodyLength;
        this.file = file;
        this.pageNo = pageNo;
        this.legacy = version == SSTableFormat.LEGACY_VERSION_1;
        this.width = LeafPageDescriptor.slotWidth(version, bodyLength);
        this.count = 0;
        this.entriesStart = 0;
        this.keyOffset = 0;
        this.keyLength = 0;
        this.valueLength = 0;
        if (bodyLength < width) {
            throw corrupt("leaf body of " + bodyLength + " bytes has no entry count");
        }
        int n = getUnsigned(LeafPageDescriptor.countOffset(), width);
        int perEntry = width + LeafPageDescriptor.minEntryHeader(version);
        if (n < 0 || n > (bodyLength - width) / perEntry) {
            throw corrupt("leaf entry count " + Integer.toUnsignedString(n) + " cannot fit a body of " + bodyLength
                    + " bytes (" + width + "-byte slots, entries of at least " + LeafPageDescriptor.minEntryHeader(version)
                    + " bytes)");
        }
        this.count = n;
        this.entriesStart = LeafPageDescriptor.slotOffset(width, n);
        return this;
    }

    private byte getByte(int offset) {
        return onHeap ? heap[offset] : page.getByte(offset);
    }

    private int getInt(int offset) {
        return onHeap ? LittleEndian.getInt(heap, offset) : page.getInt(offset);
    }

    /** The {@code w}-byte (2 to 4) little-endian unsigned integer at {@code offset}; requires it inside the body. */
    private int getUnsigned(int offset, int w) {
        if (w == 4) {
            return getInt(offset);
        }
        int v = (onHeap ? LittleEndian.getShort(heap, offset) : page.getShort(offset)) & 0xFFFF;
        return w == 2 ? v : v | (getByte(offset + 2) & 0xFF) << 16;
    }

    /** Number of entries (checked at wrap to fit the body). */
    int count() {
        return count;
    }

    /**
     * Makes entry {@code index} ({@code 0 <= index < count()}) the current entry, checked: its
     * header, key and value lie inside the body.
     */
    void entry(int index) throws CorruptPageException {
        int e = getUnsigned(LeafPageDescriptor.slotOffset(width, index), width);
        if (legacy) {
            entryV1(e, index);
            return;
        }
        if (e < entriesStart || e > length - LeafPageDescriptor.V2_MIN_ENTRY_HEADER) {
            throw slotOutside(index, e);
        }
        // one-byte varints (lengths under 128, tombstone included) are the common case: no loop
        int keyLen = getByte(e);
        int at = e + 1;
        if (keyLen < 0) {
            keyLen = varint(e, index, "key length");
            at = varintEnd;
        }
        int valueField = at < length ? getByte(at) : -1;
        if (valueField >= 0) {
            at++;
        } else {
            valueField = varint(at, index, "value length");
            at = varintEnd;
        }
        tombstone = (valueField & 1) != 0;
        valueLength = valueField >>> 1;
        keyOffset = at;
        keyLength = keyLen;
        if (keyLen < 0 || (long) at + (keyLen & 0xFFFF_FFFFL) + valueLength > length) {
            throw runsPast(index, e, keyLen, (valueField & 0xFFFF_FFFFL) >>> 1);
        }
    }

    /** {@link #entry} for a version-1 body: two u32 lengths, the tombstone in bit 31 of the second. */
    private void entryV1(int e, int index) throws CorruptPageException {
        if (e < entriesStart || e > length - LeafPageDescriptor.V1_ENTRY_HEADER) {
            throw slotOutside(index, e);
        }
        int keyLen = getInt(e);
        int valueField = getInt(e + 4);
        tombstone = (valueField & LeafPageDescriptor.V1_TOMBSTONE_BIT) != 0;
        valueLength = valueField & ~LeafPageDescriptor.V1_TOMBSTONE_BIT;
        keyOffset = e + LeafPageDescriptor.V1_ENTRY_HEADER;
        keyLength = keyLen;
        if (keyLen < 0 || (long) keyOffset + (keyLen & 0xFFFF_FFFFL) + valueLength > length) {
            throw runsPast(index, e, keyLen, valueLength);
        }
    }

    private CorruptPageException slotOutside(int index, int e) {
        return corrupt("leaf slot " + index + " points at offset " + Integer.toUnsignedString(e)
                + ", outside the entries at [" + entriesStart + ", " + length + ")");
    }

    /** The current entry's lengths run past the body: clears them and says so. */
    private CorruptPageException runsPast(int index, int e, int keyLen, long valueLen) {
        keyLength = 0;
        valueLength = 0;
        return corrupt("leaf entry " + index + " at offset " + e + " (key " + Integer.toUnsignedString(keyLen) + ", value "
                + valueLen + " bytes) runs past the body of " + length + " bytes");
    }

    /**
     * Decodes the unsigned varint at {@code at} (of entry {@code index}); leaves the offset after it
     * in {@link #varintEnd}.
     */
    private int varint(int at, int index, String what) throws CorruptPageException {
        int value = 0;
        for (int i = 0; i < LeafPageDescriptor.MAX_VARINT_BYTES; i++) {
            if (at + i >= length) {
                throw corrupt("leaf entry " + index + ": the " + what + " varint at offset " + at
                        + " runs past the body of " + length + " bytes");
            }
            int b = getByte(at + i);
            value |= (b & 0x7F) << (7 * i);
            if (b >= 0) {
                if (i == LeafPageDescriptor.MAX_VARINT_BYTES - 1 && (b & 0x70) != 0) {
                    throw corrupt("leaf entry " + index + ": the " + what + " varint at offset " + at
                            + " overflows 32 bits");
                }
                varintEnd = at + i + 1;
                return value;
            }
        }
        throw corrupt("leaf entry " + index + ": the " + what + " varint at offset " + at + " is longer than "
                + LeafPageDescriptor.MAX_VARINT_BYTES + " bytes");
    }

    private CorruptPageException corrupt(String detail) {
        return new CorruptPageException(file, pageNo, detail);
    }

    /** Body offset of the current entry's key. */
    int keyOffset() {
        return keyOffset;
    }

    int keyLength() {
        return keyLength;
    }

    /** Body offset of the current entry's value. */
    int valueOffset() {
        return keyOffset + keyLength;
    }

    int valueLength() {
        return valueLength;
    }

    boolean isTombstone() {
        return tombstone;
    }

    /**
     * Sign of (key of the current entry) compared with {@code key[0, keyLen)}, unsigned
     * lexicographic. Requires: {@link #entry} returned normally since the last wrap.
     */
    int compareKey(byte[] key, int keyLen) {
        return onHeap ? Arrays.compareUnsigned(heap, keyOffset, keyOffset + keyLength, key, 0, keyLen)
                : page.compareUnsigned(keyOffset, keyLength, key, 0, keyLen);
    }

    /** Index of the entry with exactly this key (then the current entry), or -1. */
    int find(byte[] key, int keyLen) throws CorruptPageException {
        int i = lowerBound(key, keyLen);
        if (i >= count) {
            return -1;
        }
        entry(i);
        return compareKey(key, keyLen) == 0 ? i : -1;
    }

    /** Index of the first entry whose key is &gt;= {@code key} ({@link #count()} if none). */
    int lowerBound(byte[] key, int keyLen) throws CorruptPageException {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            entry(mid);
            if (compareKey(key, keyLen) < 0) {
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
