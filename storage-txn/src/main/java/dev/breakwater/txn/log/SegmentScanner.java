package dev.breakwater.txn.log;

import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Reads the records of one segment file in order and checks each (length, CRC32C, LSN). It reads
 * the file sequentially through a window buffer of at least {@link #MIN_WINDOW} bytes, grown only
 * for a record larger than the window.
 *
 * <p>Invariants: (1) {@code window[0, windowLength)} holds file bytes {@code [windowFileOffset,
 * windowFileOffset + windowLength)}; (2) {@code cursor} is the window index of the next record.
 *
 * <p>Thread safety: not thread-safe; one scanner per scan.
 */
final class SegmentScanner {

    /** Read granularity: 1 MiB, large enough that the per-read cost does not matter. */
    static final int MIN_WINDOW = 1 << 20;

    private final StorageFile file;
    private final long firstLsn;
    private final long fileSize;
    private final int maxRecordSize;
    private final CRC32C crc = new CRC32C();

    private ByteBuffer window;
    private ByteBuffer payloadView;
    private long windowFileOffset;
    private int windowLength;
    private int cursor;

    private long recordLsn;
    private String stopDetail;

    SegmentScanner(StorageFile file, long firstLsn, long fileSize, int maxRecordSize) {
        this.file = file;
        this.firstLsn = firstLsn;
        this.fileSize = fileSize;
        this.maxRecordSize = maxRecordSize;
        allocateWindow((int) Math.min(MIN_WINDOW, Math.max(fileSize, LogRecordFormat.HEADER_LENGTH)));
    }

    /** LSN of the next record to read (after a stop: where the good records end). */
    long positionLsn() {
        return firstLsn + windowFileOffset + cursor;
    }

    /**
     * Reads the next record. Returns null if there is one: its LSN is {@link #recordLsn()}, its
     * payload {@link #payload()}. Otherwise returns why the scan stops ({@link LogStopReason#END_OF_LOG}
     * at the clean end of the file) and {@link #positionLsn()} stays at the bad record.
     */
    LogStopReason next() throws IOException {
        long offset = windowFileOffset + cursor;
        long left = fileSize - offset;
        if (left == 0) {
            stopDetail = "end of " + file.path() + " at offset " + offset;
            return LogStopReason.END_OF_LOG;
        }
        if (left < LogRecordFormat.HEADER_LENGTH) {
            return stop(LogStopReason.SHORT_HEADER, offset, "only " + left + " bytes left, a header needs "
                    + LogRecordFormat.HEADER_LENGTH);
        }
        fill(LogRecordFormat.HEADER_LENGTH);
        long length = LogRecordFormat.payloadLength(window, cursor);
        if (length > maxRecordSize) {
            return stop(LogStopReason.BAD_LENGTH, offset, "payload length " + length + " exceeds the largest record size "
                    + maxRecordSize);
        }
        int recordLength = LogRecordFormat.recordLength((int) length);
        if (recordLength > left) {
            return stop(LogStopReason.LENGTH_PAST_END, offset, "record of " + recordLength + " bytes but only " + left
                    + " bytes left in the file");
        }
        fill(recordLength);
        long storedLsn = LogRecordFormat.lsn(window, cursor);
        int storedChecksum = LogRecordFormat.checksum(window, cursor);
        int payloadStart = LogRecordFormat.payloadOffset(cursor);
        window.limit(payloadStart + (int) length).position(payloadStart);
        int actual = LogRecordFormat.checksum(crc, window, storedLsn);
        window.clear();
        if (actual != storedChecksum) {
            return stop(LogStopReason.BAD_CHECKSUM, offset, String.format(
                    "CRC32C mismatch: header says 0x%08x, record gives 0x%08x", storedChecksum, actual));
        }
        long expectedLsn = firstLsn + offset;
        if (storedLsn != expectedLsn) {
            return stop(LogStopReason.LSN_MISMATCH, offset, "record carries LSN " + storedLsn + " but sits at LSN "
                    + expectedLsn);
        }
        recordLsn = expectedLsn;
        payloadView.limit(payloadStart + (int) length).position(payloadStart);
        cursor += recordLength;
        return null;
    }

    /** LSN of the record {@link #next()} just returned. */
    long recordLsn() {
        return recordLsn;
    }

    /** Read-only payload of the record {@link #next()} just returned; valid until the next call. */
    ByteBuffer payload() {
        return payloadView;
    }

    /** Bytes of the record {@link #next()} just returned, header included. */
    int recordBytes() {
        return LogRecordFormat.recordLength(payloadView.remaining());
    }

    /** Why the scan stopped, for messages. */
    String stopDetail() {
        return stopDetail;
    }

    private LogStopReason stop(LogStopReason reason, long offset, String detail) {
        stopDetail = reason + " in " + file.path() + " at offset " + offset + " (LSN " + (firstLsn + offset) + "): "
                + detail;
        return reason;
    }

    /** Makes at least {@code n} bytes from the cursor available in the window. Requires: the file has them. */
    private void fill(int n) throws IOException {
        if (windowLength - cursor >= n) {
            return;
        }
        // Move the unread tail to the front, growing the window if the record needs it.
        int unread = windowLength - cursor;
        window.limit(windowLength).position(cursor);
        if (n > window.capacity()) {
            ByteBuffer old = window;
            allocateWindow(Math.max(n, window.capacity() * 2));
            window.put(old);
        } else {
            window.compact();
        }
        windowFileOffset += cursor;
        cursor = 0;
        windowLength = unread;
        long readable = fileSize - (windowFileOffset + windowLength);
        int toRead = (int) Math.min(window.capacity() - windowLength, readable);
        window.limit(windowLength + toRead).position(windowLength);
        file.read(windowFileOffset + windowLength, window);
        windowLength += toRead;
        window.clear();
    }

    private void allocateWindow(int capacity) {
        window = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        payloadView = window.asReadOnlyBuffer();
    }
}
