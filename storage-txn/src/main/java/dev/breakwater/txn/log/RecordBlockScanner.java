package dev.breakwater.txn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Reads the records of a packed segment's body ({@link PackedSegmentFormat}) in order and checks
 * each: length within the body and at most the largest record size, CRC32C over payload and LSN,
 * LSN strictly above the previous one and inside the segment's range. Records sit back to back, so
 * unlike a plain segment a record's LSN is not its position; every other check is the same. The
 * body ends exactly after the last record, and the record count must match the header.
 *
 * <p>Thread safety: not thread-safe; one scanner per scan.
 */
final class RecordBlockScanner {

    private final Path path;
    private final PackedSegmentFormat.Header header;
    private final ByteBuffer body;
    private final ByteBuffer payloadView;
    private final int maxRecordSize;
    private final CRC32C crc = new CRC32C();
    private int cursor;
    private int records;
    private long recordLsn = -1;

    RecordBlockScanner(PackedSegment segment, int maxRecordSize) {
        this.path = segment.path;
        this.header = segment.header;
        this.body = segment.body.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.payloadView = body.asReadOnlyBuffer();
        this.maxRecordSize = maxRecordSize;
    }

    /**
     * Moves to the next record; false at the clean end of the body.
     *
     * @throws LogCorruptedException if a record fails a check or the count disagrees with the header
     */
    boolean next() throws LogCorruptedException {
        int limit = body.limit();
        if (cursor == limit) {
            if (records != header.records()) {
                throw damage("body holds " + records + " records but the header says " + header.records());
            }
            return false;
        }
        if (limit - cursor < LogRecordFormat.HEADER_LENGTH) {
            throw damage("only " + (limit - cursor) + " bytes left in the body, a record header needs "
                    + LogRecordFormat.HEADER_LENGTH);
        }
        long length = LogRecordFormat.payloadLength(body, cursor);
        if (length > maxRecordSize || LogRecordFormat.recordLength((int) length) > limit - cursor) {
            throw damage("payload length " + length + " exceeds the body or the largest record size " + maxRecordSize);
        }
        long lsn = LogRecordFormat.lsn(body, cursor);
        if (lsn <= recordLsn || lsn < header.firstLsn() || lsn >= header.endLsn()) {
            throw damage("record LSN " + lsn + " is not above the previous (" + recordLsn + ") inside ["
                    + header.firstLsn() + ", " + header.endLsn() + ")");
        }
        int payloadStart = LogRecordFormat.payloadOffset(cursor);
        ByteBuffer p = body.duplicate();
        p.limit(payloadStart + (int) length).position(payloadStart);
        if (LogRecordFormat.checksum(crc, p, lsn) != LogRecordFormat.checksum(body, cursor)) {
            throw damage("record at LSN " + lsn + " fails its CRC32C");
        }
        payloadView.limit(payloadStart + (int) length).position(payloadStart);
        recordLsn = lsn;
        cursor = payloadStart + (int) length;
        records++;
        return true;
    }

    long recordLsn() {
        return recordLsn;
    }

    /** Read-only payload of the current record; valid until the next call. */
    ByteBuffer payload() {
        return payloadView;
    }

    /** Bytes of the current record, header included. */
    int recordBytes() {
        return LogRecordFormat.recordLength(payloadView.remaining());
    }

    private LogCorruptedException damage(String detail) {
        return new LogCorruptedException(path, PackedSegmentFormat.HEADER_LENGTH + (long) cursor,
                recordLsn < 0 ? header.firstLsn() : recordLsn, "packed segment body (offset " + cursor
                + " after decompression): " + detail);
    }
}
