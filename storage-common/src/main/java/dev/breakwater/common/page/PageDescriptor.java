package dev.breakwater.common.page;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The layout shared by every disk page Breakwater writes: a 16-byte header followed by a payload
 * whose layout depends on the page type (described by the Descriptor of that page type).
 *
 * <pre>
 *  0                   4         6      7      8                  12                 16
 *  +-------------------+---------+------+------+------------------+------------------+---------
 *  | checksum (CRC32C) | version | type | flags| page number      | payload length   | payload
 *  | u32 LE            | u16 LE  | u8   | u8   | u32 LE           | u32 LE           | ...
 *  +-------------------+---------+------+------+------------------+------------------+---------
 * </pre>
 *
 * <ul>
 *   <li>The checksum is CRC32C over bytes {@code [4, pageSize)}: header after the checksum, payload
 *       and padding. It is written last, by {@link PageChecksum#seal}, and verified on every read
 *       from disk by {@link PageChecksum#verify}.</li>
 *   <li>The version is {@link #FORMAT_VERSION}; a reader refuses pages of a version it does not know.</li>
 *   <li>The page number is the page's own index in its file, so a page written to or read from the
 *       wrong place fails verification rather than returning another page's data.</li>
 *   <li>All multi-byte fields are little endian.</li>
 * </ul>
 */
public final class PageDescriptor {

    /** Version of the page format written by this code. */
    public static final short FORMAT_VERSION = 1;

    public static final int CHECKSUM_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 6;
    public static final int FLAGS_OFFSET = 7;
    public static final int PAGE_NUMBER_OFFSET = 8;
    public static final int PAYLOAD_LENGTH_OFFSET = 12;
    /** Size of the common header; the payload starts here. */
    public static final int HEADER_LENGTH = 16;
    /** First byte covered by the checksum. */
    public static final int CHECKSUMMED_FROM = 4;

    private PageDescriptor() {
    }

    /** Maximum payload of a page of {@code pageSize} bytes. */
    public static int maxPayload(int pageSize) {
        return pageSize - HEADER_LENGTH;
    }

    /**
     * Writes the header fields other than the checksum into {@code page} (absolute positions
     * relative to {@code page.position()}; the buffer's position is not changed).
     */
    public static void writeHeader(ByteBuffer page, byte type, byte flags, int pageNumber, int payloadLength) {
        // Absolute puts in the page's own buffer, its byte order restored: no duplicate per page
        // (flushes and merges write one header per page).
        ByteOrder order = page.order();
        page.order(ByteOrder.LITTLE_ENDIAN);
        int base = page.position();
        page.putShort(base + VERSION_OFFSET, FORMAT_VERSION);
        page.put(base + TYPE_OFFSET, type);
        page.put(base + FLAGS_OFFSET, flags);
        page.putInt(base + PAGE_NUMBER_OFFSET, pageNumber);
        page.putInt(base + PAYLOAD_LENGTH_OFFSET, payloadLength);
        page.order(order);
    }

    public static int checksum(ByteBuffer page) {
        return page.order(ByteOrder.LITTLE_ENDIAN).getInt(page.position() + CHECKSUM_OFFSET);
    }

    public static short version(ByteBuffer page) {
        return page.order(ByteOrder.LITTLE_ENDIAN).getShort(page.position() + VERSION_OFFSET);
    }

    public static byte type(ByteBuffer page) {
        return page.get(page.position() + TYPE_OFFSET);
    }

    public static byte flags(ByteBuffer page) {
        return page.get(page.position() + FLAGS_OFFSET);
    }

    public static int pageNumber(ByteBuffer page) {
        return page.order(ByteOrder.LITTLE_ENDIAN).getInt(page.position() + PAGE_NUMBER_OFFSET);
    }

    public static int payloadLength(ByteBuffer page) {
        return page.order(ByteOrder.LITTLE_ENDIAN).getInt(page.position() + PAYLOAD_LENGTH_OFFSET);
    }
}
