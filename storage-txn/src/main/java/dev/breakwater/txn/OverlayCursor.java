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
 * transaction the overlay is empty. A descending scan takes a descending tree cursor and the
 * overlay in descending order, and merges them with the comparison reversed.
 *
 * <p>Engine close: the tree cursor holds a snapshot of off-heap memory, so every step that reads it
 * runs inside the engine's {@link OperationGate}, and {@link StorageEngine#close()} first waits for
 * steps in progress, then {@link #invalidate()}s every open cursor (releasing its snapshot) before
 * freeing memory. After that every method but {@link #close()} throws {@link EngineClosedException}.
 *
 * <p>Invariants: (1) the tree cursor is closed exactly once, by {@link #close()} inside the gate or
 * by {@link #invalidate()} after the gate is drained, never both (a user close that cannot enter the
 * gate leaves the cursor registered for the engine to invalidate); (2) no tree-cursor access happens
 * outside the gate.
 *
 * <p>Thread safety: one thread uses a cursor; {@link #invalidate()} runs on the closing thread
 * only after that thread's steps have drained.
 */
abstract class OverlayCursor<V> implements Cursor<Tuple> {

    private final StorageEngine engine;
    private final EntryCursor tree;
    private final Iterator<Map.Entry<byte[], V>> overlay;
    /** 1 for an ascending scan, -1 for a descending one: the sign applied to key comparisons. */
    private final int direction;
    private byte[] treeKey;
    private int treeKeyLength;
    private boolean treeDone;
    private Map.Entry<byte[], V> pending;
    private Tuple next;
    private volatile boolean closed;
    private volatile boolean invalidated;

    /**
     * Requires: inside the engine's gate (opening reads tree memory); see {@link StorageEngine#openCursor}.
     * {@code overlay} is in the scan's order (a descending map for a descending scan).
     */
    OverlayCursor(StorageEngine engine, EntryCursor tree, NavigableMap<byte[], V> overlay, boolean descending) {
        this.engine = engine;
        this.tree = tree;
        this.direction = descending ? -1 : 1;
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
        // closed before invalidated: invalidate() sets invalidated, then closed, so a cursor that reads
        // closed set by a closing engine also reads invalidated; in the other order the two reads could
        // straddle invalidate() and report a plain end (next() then threw NoSuchElementException)
        boolean wasClosed = closed;
        if (invalidated) {
            throw new EngineClosedException("cursor used after its storage engine was closed");
        }
        if (wasClosed) {
            return false;
        }
        if (next != null) {
            return true;
        }
        engine.enterCursorStep(); // throws EngineClosedException once the engine is closing
        try {
            return step();
        } finally {
            engine.exitCursorStep();
        }
    }

    private boolean step() {
        while (next == null) {
            if (treeKey == null && !treeDone && advanceTree()) {
                treeKey = tree.key();
                treeKeyLength = tree.keyLength();
            }
            if (treeKey == null && pending == null) {
                return false;
            }
            int c = treeKey == null ? 1 : pending == null ? -1
                    : direction * Arrays.compareUnsigned(treeKey, 0, treeKeyLength, pending.getKey(), 0, pending.getKey().length);
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

    /** Closes the cursor; after its engine was closed, does nothing (the engine released it). */
    @Override
    public void close() {
        if (closed || invalidated) {
            return;
        }
        try {
            engine.enterGate();
        } catch (EngineClosedException e) {
            return; // the engine invalidates every cursor still registered
        }
        try {
            if (!closed) {
                closed = true;
                engine.cursorClosed(this);
                tree.close();
            }
        } catch (IOException e) {
            throw new StorageIOException("closing scan", e);
        } finally {
            engine.exitGate();
        }
    }

    /**
     * Releases the snapshot on behalf of a closing engine. Requires: the engine's gate is closed
     * and drained, so no step of this cursor is running or can start.
     */
    void invalidate() {
        invalidated = true;
        if (!closed) {
            closed = true;
            try {
                tree.close();
            } catch (IOException | RuntimeException e) {
                // The engine is closing; the snapshot's memory is freed with everything else.
            }
        }
    }

    /**
     * A cursor over the primary index ({@code secondary} &lt; 0) or a secondary index, every partition
     * merged, ascending or descending.
     */
    static EntryCursor open(DatasetState ds, int secondary, byte[] from, byte[] to, boolean descending) {
        try {
            return secondary < 0 ? ds.scanPrimary(from, to, descending) : ds.scanSecondary(secondary, from, to, descending);
        } catch (IOException e) {
            throw new StorageIOException("scan of dataset " + ds.spec.name() + " index "
                    + (secondary < 0 ? DatasetSpec.PRIMARY : ds.secondaries.get(secondary).spec().name()), e);
        }
    }

    /** Records of a primary index. */
    static final class Primary extends OverlayCursor<WriteSet.Pending> {
        private final DatasetState ds;

        Primary(StorageEngine engine, DatasetState ds, byte[] from, byte[] to, NavigableMap<byte[], WriteSet.Pending> overlay,
                boolean descending) {
            super(engine, open(ds, -1, from, to, descending), overlay, descending);
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
        Secondary(StorageEngine engine, TransactionImpl tx, DatasetState ds, DatasetState.Secondary sec, byte[] from, byte[] to,
                  NavigableMap<byte[], Boolean> overlay, boolean descending) {
            super(engine, open(ds, ds.secondaryPosition(sec.spec().name()), from, to, descending), overlay, descending);
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
