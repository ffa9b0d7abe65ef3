package dev.breakwater.txn.log;

import java.nio.ByteBuffer;

/**
 * What the log's owner tells the {@link SegmentPacker} about its records: which of the operations
 * a logged record holds are still needed for recovery. The log itself does not know the record
 * format; the engine does (its commit records and its trees' memory).
 *
 * <p>Contract, on which the packer's safety argument rests (see {@link SegmentPacker}): for a record
 * below {@link #oldestUnapplied()} (read after the log's end), an operation may be left out only if
 * its tree no longer needs it replayed: the tree's memory holds no version of its key at or below
 * the operation's LSN that could still be the newest (in practice: no memory version of the key, or
 * only ones in memory tables every one of whose writes is newer). Implementations are called from
 * the packer thread only but must be safe against concurrent writes, flushes and merges.
 */
public interface RecordTrimmer {

    /** The lowest LSN a commit in flight has or will get (not yet applied to every tree), or {@code Long.MAX_VALUE}. */
    long oldestUnapplied();

    /**
     * The record at {@code lsn} with only the operations still needed: {@code payload} itself (the
     * same object) to keep it whole, null if none is needed, or a new buffer holding the reduced
     * payload between its position and limit.
     */
    ByteBuffer trim(long lsn, ByteBuffer payload) throws java.io.IOException;
}
