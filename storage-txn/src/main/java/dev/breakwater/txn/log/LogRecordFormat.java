package dev.breakwater.txn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The layout of one transaction-log record (docs/formats.md, "Transaction log"): a 16-byte header
 * followed by the payload. All integers are little endian.
 *
 * <pre>
 *  0                  4                  8                                    16
 *  +------------------+------------------+------------------------------------+-------------
 *  | payload length n | CRC32C           | LSN                                | payload
 *  | u32 LE           | u32 LE           | u64 LE                             | n bytes
 *  +------------------+------------------+------------------------------------+-------------
 * </pre>
 *
 * <ul>
 *   <li><b>LSN</b>: the byte position of the record's header in the whole log, counted across
 *       segments. A record's LSN is also its position in its segment file plus the segment's first
 *       LSN, so a record read from the wrong place fails the LSN check.</li>
 *   <li><b>CRC32C</b>: over the payload bytes followed by the 8 LSN bytes (little endian). The
 *       payload comes first so that an appender can checksum its payload before it holds the append
 *       lock, and only folds in the LSN (8 bytes) once the LSN is assigned under the lock.</li>
 *   <li><b>Segments</b>: a record never spans segment files. If a record does not fit in the rest
 *       of the current segment, the segment simply ends there (no pad marker) and the record is the
 *       first of a new segment file named {@link SegmentFiles#fileName(long) log-&lt;20-digit first
 *       LSN&gt;.seg}. Hence a segment file holds exactly the LSN range from its own name to the next
 *       segment's name, and every byte of it belongs to a record.</li>
 * </ul>
 *
 * <p>Thread safety: stateless; safe.
 */
public final class LogRecordFormat {

    public static final int LENGTH_OFFSET = 0;
    public static final int CHECKSUM_OFFSET = 4;
    public static final int LSN_OFFSET = 8;
    /** Bytes of header before the payload. */
    public static final int HEADER_LENGTH = 16;

    private LogRecordFormat() {
    }

    /** Total bytes a record with a payload of {@code payloadLength} bytes takes in the log. */
    public static int recordLength(int payloadLength) {
        return HEADER_LENGTH + payloadLength;
    }

    /** Offset of the payload of the record whose header starts at {@code recordOffset}. */
    public static int payloadOffset(int recordOffset) {
        return recordOffset + HEADER_LENGTH;
    }

    /** Writes a header at absolute index {@code recordOffset} of {@code buf} (which must be little endian). */
    public static void writeHeader(ByteBuffer buf, int recordOffset, int payloadLength, int checksum, long lsn) {
        buf.putInt(recordOffset + LENGTH_OFFSET, payloadLength);
        buf.putInt(recordOffset + CHECKSUM_OFFSET, checksum);
        buf.putLong(recordOffset + LSN_OFFSET, lsn);
    }

    /** Payload length field of the header at {@code recordOffset}, as an unsigned value. */
    public static long payloadLength(ByteBuffer buf, int recordOffset) {
        return Integer.toUnsignedLong(buf.order(ByteOrder.LITTLE_ENDIAN).getInt(recordOffset + LENGTH_OFFSET));
    }

    public static int checksum(ByteBuffer buf, int recordOffset) {
        return buf.order(ByteOrder.LITTLE_ENDIAN).getInt(recordOffset + CHECKSUM_OFFSET);
    }

    public static long lsn(ByteBuffer buf, int recordOffset) {
        return buf.order(ByteOrder.LITTLE_ENDIAN).getLong(recordOffset + LSN_OFFSET);
    }

    /**
     * Starts a checksum: resets {@code crc} and feeds it the payload bytes {@code [position, limit)}
     * of {@code payload}, whose position and limit are left unchanged. Finish with {@link #finishChecksum}.
     */
    public static void startChecksum(CRC32C crc, ByteBuffer payload) {
        crc.reset();
        int position = payload.position();
        crc.update(payload);
        payload.position(position);
    }

    /** Feeds the 8 LSN bytes (little endian) to a checksum begun by {@link #startChecksum} and returns it. */
    public static int finishChecksum(CRC32C crc, long lsn) {
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            crc.update((int) (lsn >>> shift));
        }
        return (int) crc.getValue();
    }

    /** The checksum a record with this payload ({@code [position, limit)}, unchanged) and LSN must carry. */
    public static int checksum(CRC32C crc, ByteBuffer payload, long lsn) {
        startChecksum(crc, payload);
        return finishChecksum(crc, lsn);
    }
}
