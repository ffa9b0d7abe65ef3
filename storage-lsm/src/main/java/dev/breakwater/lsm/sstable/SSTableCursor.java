package dev.breakwater.lsm.sstable;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * Walks an SSTable's leaves in order (they are the contiguous pages {@code [leafFirst, leafEnd)}).
 * Each leaf is pinned just long enough to copy (or decompress) its body into this cursor's buffer,
 * so the cursor holds no pin between calls; the current entry is then copied into reused key and
 * value arrays.
 *
 * <p>Invariants: (1) {@code position} is the index in the current leaf of the entry the next call
 * to {@link #next} returns; (2) once {@code done}, it stays done.
 *
 * <p>Thread safety: one thread uses a cursor.
 */
final class SSTableCursor implements EntryCursor {

    private final SSTableReader reader;
    private final IoPurpose purpose;
    private final ReadScratch scratch = new ReadScratch();
    private final long lsn;
    private int leafNo;
    private int position;
    private int count;
    private boolean done;
    private byte[] key = new byte[64];
    private int keyLength;
    private byte[] value = new byte[64];
    private int valueLength;
    private boolean tombstone;

    SSTableCursor(SSTableReader reader, byte[] from, int fromLen, IoPurpose purpose) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.lsn = reader.metadata().maxLsn();
        byte[] last = reader.lastKeyNoCopy();
        if (from == null) {
            load(reader.leafFirst());
            position = 0;
        } else if (Arrays.compareUnsigned(from, 0, fromLen, last, 0, last.length) > 0) {
            done = true;
        } else {
            load(reader.findLeaf(from, fromLen, purpose, scratch.page));
            position = scratch.leaf.lowerBound(from, fromLen);
        }
    }

    private void load(int leaf) throws IOException {
        leafNo = leaf;
        count = reader.copyLeaf(leaf, purpose, scratch).count();
    }

    @Override
    public boolean next() throws IOException {
        if (done) {
            return false;
        }
        while (position >= count) {
            if (leafNo + 1 >= reader.leafEnd()) {
                done = true;
                return false;
            }
            load(leafNo + 1);
            position = 0;
        }
        LeafView leaf = scratch.leaf;
        int entry = leaf.entry(position++);
        keyLength = leaf.keyLength(entry);
        if (key.length < keyLength) {
            key = new byte[Math.max(keyLength, key.length * 2)];
        }
        leaf.copy(LeafPageDescriptor.keyOffset(entry), key, keyLength);
        tombstone = leaf.isTombstone(entry);
        valueLength = leaf.valueLength(entry);
        if (value.length < valueLength) {
            value = new byte[Math.max(valueLength, value.length * 2)];
        }
        leaf.copy(LeafPageDescriptor.valueOffset(entry, keyLength), value, valueLength);
        return true;
    }

    @Override
    public byte[] key() {
        return key;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public byte[] value() {
        return value;
    }

    @Override
    public int valueLength() {
        return valueLength;
    }

    @Override
    public boolean isTombstone() {
        return tombstone;
    }

    @Override
    public long lsn() {
        return lsn;
    }

    @Override
    public void close() {
        done = true;
    }
}
