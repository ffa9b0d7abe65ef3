package dev.breakwater.lsm.sstable;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.BufferedEntryCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * Walks an SSTable's leaves in order (they are the contiguous pages {@code [leafFirst, leafEnd)}),
 * or a single leaf of it.
 * Each leaf is pinned just long enough to copy (or decompress) its body into this cursor's buffer,
 * so the cursor holds no pin between calls; the current entry is then copied into reused key and
 * value arrays.
 *
 * <p>Invariants: (1) {@code position} is the index in the current leaf of the entry the next call
 * to {@link #next} returns; (2) once {@code done}, it stays done.
 *
 * <p>Thread safety: one thread uses a cursor.
 */
final class SSTableCursor extends BufferedEntryCursor {

    private final SSTableReader reader;
    private final IoPurpose purpose;
    private final ReadScratch scratch = new ReadScratch();
    /** The leaf after the last one this cursor walks. */
    private final int leafEnd;
    private int leafNo;
    private int position;
    private int count;
    private boolean done;

    SSTableCursor(SSTableReader reader, byte[] from, int fromLen, IoPurpose purpose) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.leafEnd = reader.leafEnd();
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

    /** A cursor over the entries of leaf page {@code leaf} only. */
    SSTableCursor(SSTableReader reader, int leaf, IoPurpose purpose) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.leafEnd = leaf + 1;
        this.lsn = reader.metadata().maxLsn();
        load(leaf);
        position = 0;
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
            if (leafNo + 1 >= leafEnd) {
                done = true;
                return false;
            }
            load(leafNo + 1);
            position = 0;
        }
        LeafView leaf = scratch.leaf;
        int entry = leaf.entry(position++);
        keyLength = leaf.keyLength(entry);
        keyBuffer(keyLength);
        leaf.copy(LeafPageDescriptor.keyOffset(entry), key, keyLength);
        tombstone = leaf.isTombstone(entry);
        valueLength = leaf.valueLength(entry);
        valueBuffer(valueLength);
        leaf.copy(LeafPageDescriptor.valueOffset(entry, keyLength), value, valueLength);
        return true;
    }

    @Override
    public void close() {
        done = true;
    }
}
