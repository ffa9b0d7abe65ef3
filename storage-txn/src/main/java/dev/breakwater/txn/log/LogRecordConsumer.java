package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Receives the records {@link LogReader#forEach} replays, in LSN order. */
@FunctionalInterface
public interface LogRecordConsumer {

    /**
     * Handles the record at {@code lsn}. {@code payload} holds the payload between its position and
     * limit; it is a read-only view of the reader's buffer, valid only during this call (copy what
     * must outlive it).
     */
    void accept(long lsn, ByteBuffer payload) throws IOException;
}
