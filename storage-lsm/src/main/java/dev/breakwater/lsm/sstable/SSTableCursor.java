package dev.breakwater.lsm.sstable;

import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.BufferedEntryCursor;
import java.io.IOException;
import java.util.Arrays;

/**
 * Walks an SSTable's leaves in order (they are the contiguous pages {@code [leafFirst, leafEnd)}),
 * or backward (the previous leaf is simply the previous page, so the index is only searched once,
 * to find the starting leaf), or a single leaf of it.
 * Each leaf is pinned just long enough to copy (or decompress) its body into this cursor's buffer,
 * so the cursor holds no pin between calls; the current entry is then copied into reused key and
 * value arrays. A merge's cursor reads the leaves through a {@link LeafReadAhead} instead: chunks of
 * pages straight from the file, the current leaf viewed in place in its chunk.
 *
 * <p>Invariants: (1) forward, {@code position} is the index in the current leaf of the entry the
 * next call to {@link #next} returns; backward, the entry at {@code position - 1} is (or, at 0, the
 * last entry of the nearest earlier non-empty leaf); (2) once {@code done}, it stays done.
 *
 * <p>Thread safety: one thread uses a cursor.
 */
final class SSTableCursor extends BufferedEntryCursor {

    private final SSTableReader reader;
    private final IoPurpose purpose;
    /** Reads the leaves in chunks, not through the cache (a merge's full forward scan); null otherwise. Closed with the cursor. */
    private final LeafReadAhead readAhead;
    /** From the thread's pool; given back at the first {@link #close()} (then null). */
    private ReadScratch scratch = ReadScratch.take();
    /** The leaf after the last one this cursor walks. */
    private final int leafEnd;
    private final boolean descending;
    private int leafNo;
    private int position;
    private int count;
    private boolean done;

    SSTableCursor(SSTableReader reader, byte[] from, int fromLen, IoPurpose purpose) throws IOException {
        this(reader, from, fromLen, purpose, (LeafReadAhead) null);
    }

    /** A forward cursor over every entry whose leaves come from {@code readAhead} (owned by the cursor from here on). */
    SSTableCursor(SSTableReader reader, LeafReadAhead readAhead, IoPurpose purpose) throws IOException {
        this(reader, null, 0, purpose, readAhead);
    }

    private SSTableCursor(SSTableReader reader, byte[] from, int fromLen, IoPurpose purpose, LeafReadAhead readAhead) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.readAhead = readAhead;
        this.leafEnd = reader.leafEnd();
        this.descending = false;
        this.lsn = reader.metadata().maxLsn();
        byte[] last = reader.lastKeyNoCopy();
        if (from == null) {
            try {
                load(reader.leafFirst());
            } catch (IOException | RuntimeException e) {
                close(); // frees the read-ahead chunk the cursor owns
                throw e;
            }
            position = 0;
        } else if (Arrays.compareUnsigned(from, 0, fromLen, last, 0, last.length) > 0) {
            done = true;
        } else {
            load(reader.findLeaf(from, fromLen, purpose, scratch.page));
            position = scratch.leaf.lowerBound(from, fromLen);
        }
    }

    /**
     * A backward cursor over the entries with keys below {@code toExclusive[0, toLen)} (all if null),
     * in descending key order; {@code reverse} only tells this constructor apart.
     */
    SSTableCursor(SSTableReader reader, byte[] toExclusive, int toLen, IoPurpose purpose, boolean reverse) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.readAhead = null;
        this.leafEnd = reader.leafEnd();
        this.descending = true;
        this.lsn = reader.metadata().maxLsn();
        byte[] first = reader.firstKeyNoCopy();
        if (toExclusive == null) {
            load(leafEnd - 1);
            position = count;
        } else if (Arrays.compareUnsigned(toExclusive, 0, toLen, first, 0, first.length) <= 0) {
            done = true;
        } else {
            load(reader.findLeaf(toExclusive, toLen, purpose, scratch.page));
            position = scratch.leaf.lowerBound(toExclusive, toLen);
        }
    }

    /** A cursor over the entries of leaf page {@code leaf} only. */
    SSTableCursor(SSTableReader reader, int leaf, IoPurpose purpose) throws IOException {
        this.reader = reader;
        this.purpose = purpose;
        this.readAhead = null;
        this.leafEnd = leaf + 1;
        this.descending = false;
        this.lsn = reader.metadata().maxLsn();
        load(leaf);
        position = 0;
    }

    private void load(int leaf) throws IOException {
        leafNo = leaf;
        count = (readAhead != null ? readAhead.viewLeaf(leaf, scratch) : reader.copyLeaf(leaf, purpose, scratch)).count();
    }

    @Override
    public boolean next() throws IOException {
        if (done) {
            return false;
        }
        int index = descending ? previousIndex() : nextIndex();
        if (index < 0) {
            done = true;
            return false;
        }
        LeafView leaf = scratch.leaf;
        leaf.entry(index);
        keyLength = leaf.keyLength();
        keyBuffer(keyLength);
        leaf.copy(leaf.keyOffset(), key, keyLength);
        tombstone = leaf.isTombstone();
        valueLength = leaf.valueLength();
        valueBuffer(valueLength);
        leaf.copy(leaf.valueOffset(), value, valueLength);
        return true;
    }

    /** The index in the current leaf of the next entry forward, loading later leaves; -1 at the end. */
    private int nextIndex() throws IOException {
        while (position >= count) {
            if (leafNo + 1 >= leafEnd) {
                return -1;
            }
            load(leafNo + 1);
            position = 0;
        }
        return position++;
    }

    /** The index in the current leaf of the next entry backward, loading earlier leaves; -1 at the start. */
    private int previousIndex() throws IOException {
        while (position <= 0) {
            if (leafNo <= reader.leafFirst()) {
                return -1;
            }
            load(leafNo - 1);
            position = count;
        }
        return --position;
    }

    @Override
    public void close() {
        done = true;
        if (readAhead != null) {
            readAhead.close();
        }
        if (scratch != null) {
            ReadScratch.giveBack(scratch);
            scratch = null;
        }
    }
}
