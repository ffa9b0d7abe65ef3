package dev.breakwater.txn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One thread's reusable working space for {@link StorageEngine#commit}: the list the commit gathers
 * its tree operations in and the buffer it encodes the commit record into
 * ({@link CommitRecordFormat#encode(List, ByteBuffer)}), so that a commit allocates nothing for
 * them in steady state. The log copies the payload during {@code append}, so the buffer is free
 * again when the commit returns.
 *
 * <p>Invariants: between commits {@link #ops} is empty (it must not keep a finished transaction's
 * keys and values reachable); the kept buffer is little endian and at most {@link #MAX_KEPT_BYTES}
 * (a larger transaction encodes into a buffer of its own, dropped after the commit, so one huge
 * transaction does not pin its size per thread for the thread's life).
 *
 * <p>Thread safety: none; each instance belongs to one thread ({@link #get()}). A commit does not
 * nest inside another on the same thread (a transaction body cannot commit: see
 * {@code StorageEngine.RUNNING}), so one instance per thread suffices.
 */
final class CommitScratch {

    /** The largest payload buffer a thread keeps between commits. */
    static final int MAX_KEPT_BYTES = 1 << 20;
    private static final int INITIAL_BYTES = 4096;

    private static final ThreadLocal<CommitScratch> PER_THREAD = ThreadLocal.withInitial(CommitScratch::new);

    /** The tree operations of the commit in progress, in log order; cleared by {@link #release()}. */
    final List<TreeOp> ops = new ArrayList<>();
    private ByteBuffer payload = ByteBuffer.allocate(INITIAL_BYTES).order(ByteOrder.LITTLE_ENDIAN);

    private CommitScratch() {
    }

    /** This thread's instance. */
    static CommitScratch get() {
        return PER_THREAD.get();
    }

    /**
     * The commit record of {@link #ops}, encoded into the kept buffer when it fits; position 0,
     * limit the payload's end. Valid until the next call on this thread.
     */
    ByteBuffer encode() {
        int size = CommitRecordFormat.payloadBytes(ops);
        if (size > payload.capacity() && size <= MAX_KEPT_BYTES) {
            // grow geometrically, so that a run of slowly growing commits does not allocate each time
            int capacity = (int) Math.min(MAX_KEPT_BYTES, Math.max(size, 2L * payload.capacity()));
            payload = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        }
        return CommitRecordFormat.encode(ops, size, size <= payload.capacity() ? payload : null);
    }

    /** Forgets the commit's operations (keeps the list's and the buffer's capacity). */
    void release() {
        ops.clear();
    }
}
