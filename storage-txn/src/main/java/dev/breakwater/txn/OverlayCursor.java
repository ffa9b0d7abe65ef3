package dev.breakwater.txn;

import dev.breakwater.lsm.EntryCursor;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;

/**
 * Scan results: a tree cursor merged with a transaction's pending writes in the same range (which
 * win over the tree, and whose deletions hide tree entries), decoded into tuples. Outside a
 * transaction the overlay is empty.
 *
 * <p>Thread safety: none; one thread.
 */
abstract class OverlayCursor<V> implements Cursor<Tuple> {

    private final EntryCursor tree;
    private final Iterator<Map.Entry<byte[], V>> overlay;
    private byte[] treeKey;
    private int treeKeyLength;
    private boolean treeDone;
    private Map.Entry<byte[], V> pending;
    private Tuple next;
    private boolean closed;

    OverlayCursor(EntryCursor tree, NavigableMap<byte[], V> overlay) {
        this.tree = tree;
        this.overlay = overlay.entrySet().iterator();
        this.pending = this.overlay.hasNext() ? this.overlay.next() : null;
    }

    /** The tuple for a tree entry, or null to skip it. */
    abstract Tuple fromTree(byte[] key, int keyLength, byte[] value, int valueLength);

    /** The tuple for an overlay entry, or null to skip it. */
    abstract Tuple fromOverlay(byte[] key, V value);

    private boolean advanceTree() {
        try {
            if (!treeDone && !tree.next()) {
                treeDone = true;
            }
        } catch (IOException e) {
            throw new StorageIOException("scan failed", e);
        }
        return !treeDone;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        while (next == null) {
            if (treeKey == null && !treeDone && advanceTree()) {
                treeKey = tree.key();
                treeKeyLength = tree.keyLength();
            }
            if (treeKey == null && pending == null) {
                return false;
            }
            int c = treeKey == null ? 1 : pending == null ? -1
                    : Arrays.compareUnsigned(treeKey, 0, treeKeyLength, pending.getKey(), 0, pending.getKey().length);
            if (c < 0) {
                next = fromTree(treeKey, treeKeyLength, tree.value(), tree.valueLength());
                treeKey = null;
            } else {
                if (c == 0) {
                    treeKey = null; // the transaction's own write replaces the tree's entry
                }
                next = fromOverlay(pending.getKey(), pending.getValue());
                pending = overlay.hasNext() ? overlay.next() : null;
            }
        }
        return true;
    }

    @Override
    public Tuple next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Tuple t = next;
        next = null;
        return t;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                tree.close();
            } catch (IOException e) {
                throw new StorageIOException("closing scan", e);
            }
        }
    }

    static EntryCursor open(dev.breakwater.lsm.tree.LsmTree tree, byte[] from, byte[] to) {
        try {
            return tree.scan(from, to);
        } catch (IOException e) {
            throw new StorageIOException("scan of tree " + tree.name(), e);
        }
    }

    /** Records of a primary index. */
    static final class Primary extends OverlayCursor<WriteSet.Pending> {
        private final DatasetState ds;

        Primary(StorageEngine engine, DatasetState ds, byte[] from, byte[] to, NavigableMap<byte[], WriteSet.Pending> overlay) {
            super(open(ds.primary, from, to), overlay);
            this.ds = ds;
        }

        @Override
        Tuple fromTree(byte[] key, int keyLength, byte[] value, int valueLength) {
            return ds.records.decode(value, valueLength);
        }

        @Override
        Tuple fromOverlay(byte[] key, WriteSet.Pending p) {
            return p.after;
        }
    }

    /** Records found through a secondary index (each looked up in the primary). */
    static final class Secondary extends OverlayCursor<Boolean> {
        private final StorageEngine engine;
        private final TransactionImpl tx;
        private final DatasetState ds;
        private final DatasetState.Secondary sec;
        private final int indexedFields;

        /** @param tx the transaction, or null for a non-transactional scan */
        Secondary(TransactionImpl tx, DatasetState ds, DatasetState.Secondary sec, byte[] from, byte[] to,
                  NavigableMap<byte[], Boolean> overlay) {
            this(tx == null ? null : tx.engine, tx, ds, sec, from, to, overlay);
        }

        Secondary(StorageEngine engine, TransactionImpl tx, DatasetState ds, DatasetState.Secondary sec, byte[] from, byte[] to,
                  NavigableMap<byte[], Boolean> overlay) {
            super(open(sec.tree(), from, to), overlay);
            this.engine = engine;
            this.tx = tx;
            this.ds = ds;
            this.sec = sec;
            this.indexedFields = sec.spec().fields().size();
        }

        @Override
        Tuple fromTree(byte[] key, int keyLength, byte[] value, int valueLength) {
            return lookup(key, keyLength);
        }

        @Override
        Tuple fromOverlay(byte[] key, Boolean present) {
            return present ? lookup(key, key.length) : null;
        }

        private Tuple lookup(byte[] entry, int length) {
            int pkStart = sec.codec().prefixLength(entry, length, indexedFields);
            byte[] pk = Arrays.copyOfRange(entry, pkStart, length);
            return tx != null ? tx.get(ds, pk) : engine.readCommitted(ds, pk);
        }
    }
}
