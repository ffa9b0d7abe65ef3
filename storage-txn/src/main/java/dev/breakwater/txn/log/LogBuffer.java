package dev.breakwater.txn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One of the two in-memory log buffers of a {@link LogManager}: a run of complete records covering
 * the LSN range {@code [startLsn, endLsn())}, plus the LSNs inside that range at which a new segment
 * file starts.
 *
 * <p>Invariants: (1) byte {@code i} of the buffer is log byte {@code startLsn + i}, for {@code i <
 * used}; (2) the buffer holds whole records only; (3) the segment starts are ascending, each the LSN
 * of a record in the buffer.
 *
 * <p>Thread safety: not thread-safe. The log manager hands each buffer from the appenders (under its
 * append lock) to the flusher thread (through the same lock) and back; one side owns it at a time.
 */
final class LogBuffer {

    private final ByteBuffer bytes;
    private long startLsn;
    private int used;
    private int records;
    private long[] segmentStarts = new long[4];
    private int segmentStartCount;

    LogBuffer(int capacity) {
        this.bytes = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Empties the buffer; the next record appended will have LSN {@code lsn}. */
    void reset(long lsn) {
        startLsn = lsn;
        used = 0;
        records = 0;
        segmentStartCount = 0;
        bytes.clear();
    }

    boolean isEmpty() {
        return used == 0;
    }

    int remaining() {
        return bytes.capacity() - used;
    }

    long startLsn() {
        return startLsn;
    }

    /** LSN just past the last record. */
    long endLsn() {
        return startLsn + used;
    }

    int records() {
        return records;
    }

    int usedBytes() {
        return used;
    }

    /** Notes that the record about to be appended at {@code lsn} is the first of a new segment. */
    void markSegmentStart(long lsn) {
        if (segmentStartCount == segmentStarts.length) {
            segmentStarts = Arrays.copyOf(segmentStarts, segmentStartCount * 2);
        }
        segmentStarts[segmentStartCount++] = lsn;
    }

    int segmentStartCount() {
        return segmentStartCount;
    }

    long segmentStart(int i) {
        return segmentStarts[i];
    }

    /**
     * Appends a record at {@link #endLsn()}. Requires: {@code remaining() >= recordLength(payload.remaining())}.
     * The payload's position and limit are unchanged.
     */
    void append(ByteBuffer payload, int checksum) {
        int length = payload.remaining();
        LogRecordFormat.writeHeader(bytes, used, length, checksum, endLsn());
        bytes.put(LogRecordFormat.payloadOffset(used), payload, payload.position(), length);
        used += LogRecordFormat.recordLength(length);
        records++;
    }

    /**
     * The buffer positioned on log bytes {@code [fromLsn, toLsn)}, for writing them out (no
     * allocation). Appends use absolute indexes, so {@link #reset} restores the full limit.
     */
    ByteBuffer window(long fromLsn, long toLsn) {
        bytes.limit((int) (toLsn - startLsn)).position((int) (fromLsn - startLsn));
        return bytes;
    }
}
