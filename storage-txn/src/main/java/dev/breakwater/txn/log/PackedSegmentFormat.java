package dev.breakwater.txn.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The layout of a <em>packed</em> sealed segment (docs/formats.md, "Packed log segments"): a sealed
 * segment rewritten without the records or operations no longer needed for recovery (trimmed),
 * and/or LZ4-compressed. It keeps the name of the plain segment it replaces
 * ({@link SegmentFiles#fileName}) and stands for the same LSN range. All integers little endian.
 *
 * <pre>
 *  0        4    5     6       8            16           24        28         32          36         40          44
 *  +--------+----+-----+-------+------------+------------+---------+----------+-----------+----------+-----------+------
 *  | magic  | v  |flags| zero  | first LSN  | end LSN    | records | raw body | stored    | body     | header    | body
 *  | u32    | u8 | u8  | u16   | u64        | u64        | u32     | u32      | body u32  | CRC32C   | CRC32C    | ...
 *  +--------+----+-----+-------+------------+------------+---------+----------+-----------+----------+-----------+------
 * </pre>
 *
 * <ul>
 *   <li><b>magic</b> {@link #MAGIC}: read as the payload length of a plain segment's first record it
 *       exceeds every possible record size, so a packed file can never pass for a plain one.</li>
 *   <li><b>flags</b>: {@link #FLAG_TRIMMED}, {@link #FLAG_LZ4}; other bits must be zero.</li>
 *   <li><b>first LSN</b> equals the LSN in the file name; <b>end LSN</b> is the first LSN of the
 *       next segment: the file stands for {@code [first, end)} although it holds fewer bytes.</li>
 *   <li><b>body</b>: {@code stored body} bytes; uncompressed it is {@code raw body} bytes of
 *       records in the {@link LogRecordFormat} layout, back to back, each with its original LSN and
 *       a CRC32C over its (possibly trimmed) payload and that LSN. LSNs strictly ascend and lie in
 *       {@code [first, end)}. With {@link #FLAG_LZ4} the body is one LZ4 block.</li>
 *   <li><b>header CRC32C</b> covers bytes 0..40; <b>body CRC32C</b> covers the stored body. The file
 *       is exactly {@code 44 + stored body} bytes.</li>
 * </ul>
 * A packed file is only ever created complete and synced under a temporary name and renamed over
 * the segment, so any damage in it is damage, never a torn write.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class PackedSegmentFormat {

    /** "BWPK" as a little-endian u32 ({@code 0xCB57504B} read as unsigned is above 2^31). */
    public static final int MAGIC = 0xCB57504B;
    public static final byte VERSION = 1;
    /** Records or operations were removed. */
    public static final int FLAG_TRIMMED = 1;
    /** The body is LZ4-compressed. */
    public static final int FLAG_LZ4 = 2;
    public static final int HEADER_LENGTH = 44;

    static final int VERSION_OFFSET = 4;
    static final int FLAGS_OFFSET = 5;
    static final int FIRST_LSN_OFFSET = 8;
    static final int END_LSN_OFFSET = 16;
    static final int RECORDS_OFFSET = 24;
    static final int RAW_LENGTH_OFFSET = 28;
    static final int STORED_LENGTH_OFFSET = 32;
    static final int BODY_CRC_OFFSET = 36;
    static final int HEADER_CRC_OFFSET = 40;

    private PackedSegmentFormat() {
    }

    /** The parsed header of a packed segment. */
    public record Header(int flags, long firstLsn, long endLsn, int records, int rawLength, int storedLength,
                         int bodyCrc) {

        public boolean trimmed() {
            return (flags & FLAG_TRIMMED) != 0;
        }

        public boolean compressed() {
            return (flags & FLAG_LZ4) != 0;
        }

        /** Bytes of the whole file. */
        public long fileLength() {
            return HEADER_LENGTH + (long) storedLength;
        }
    }

    /** True if the first four bytes of {@code start} (little endian) are the packed magic. */
    public static boolean isPacked(ByteBuffer start) {
        return start.remaining() >= 4 && start.order(ByteOrder.LITTLE_ENDIAN).getInt(start.position()) == MAGIC;
    }

    /** Writes a header into {@code out[0, HEADER_LENGTH)} (absolute puts; position unchanged). */
    static void writeHeader(ByteBuffer out, Header h) {
        ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, MAGIC);
        b.put(VERSION_OFFSET, VERSION);
        b.put(FLAGS_OFFSET, (byte) h.flags());
        b.putShort(6, (short) 0);
        b.putLong(FIRST_LSN_OFFSET, h.firstLsn());
        b.putLong(END_LSN_OFFSET, h.endLsn());
        b.putInt(RECORDS_OFFSET, h.records());
        b.putInt(RAW_LENGTH_OFFSET, h.rawLength());
        b.putInt(STORED_LENGTH_OFFSET, h.storedLength());
        b.putInt(BODY_CRC_OFFSET, h.bodyCrc());
        b.putInt(HEADER_CRC_OFFSET, headerCrc(b));
    }

    /**
     * Parses and checks a header read from {@code path}.
     *
     * @param header      the first {@link #HEADER_LENGTH} bytes of the file
     * @param fileLength  the file's size
     * @param nameLsn     the first LSN in the file's name
     * @throws LogCorruptedException naming the file and what is wrong
     */
    static Header readHeader(ByteBuffer header, Path path, long fileLength, long nameLsn) throws LogCorruptedException {
        ByteBuffer b = header.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (fileLength < HEADER_LENGTH || b.remaining() < HEADER_LENGTH) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment of " + fileLength
                    + " bytes is shorter than its " + HEADER_LENGTH + "-byte header");
        }
        int base = b.position();
        ByteBuffer h = b.slice(base, HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        if (h.getInt(0) != MAGIC) {
            throw new LogCorruptedException(path, 0, nameLsn, "not a packed segment: bad magic");
        }
        int storedCrc = h.getInt(HEADER_CRC_OFFSET);
        if (storedCrc != headerCrc(h)) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment header fails its CRC32C");
        }
        if (h.get(VERSION_OFFSET) != VERSION) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment format version " + h.get(VERSION_OFFSET)
                    + ", this build reads " + VERSION);
        }
        int flags = h.get(FLAGS_OFFSET) & 0xff;
        if ((flags & ~(FLAG_TRIMMED | FLAG_LZ4)) != 0) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment has unknown flags 0x" + Integer.toHexString(flags));
        }
        Header parsed = new Header(flags, h.getLong(FIRST_LSN_OFFSET), h.getLong(END_LSN_OFFSET), h.getInt(RECORDS_OFFSET),
                h.getInt(RAW_LENGTH_OFFSET), h.getInt(STORED_LENGTH_OFFSET), h.getInt(BODY_CRC_OFFSET));
        if (parsed.firstLsn() != nameLsn) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment says it starts at LSN " + parsed.firstLsn()
                    + " but is named for LSN " + nameLsn);
        }
        if (parsed.endLsn() <= parsed.firstLsn() || parsed.records() < 0 || parsed.rawLength() < 0
                || parsed.storedLength() < 0 || parsed.rawLength() > parsed.endLsn() - parsed.firstLsn()) {
            throw new LogCorruptedException(path, 0, nameLsn, "packed segment header is inconsistent: " + parsed);
        }
        if (parsed.fileLength() != fileLength) {
            throw new LogCorruptedException(path, Math.min(fileLength, parsed.fileLength()), nameLsn, "packed segment holds "
                    + fileLength + " bytes but its header says " + parsed.fileLength());
        }
        return parsed;
    }

    private static int headerCrc(ByteBuffer headerLe) {
        CRC32C crc = new CRC32C();
        ByteBuffer covered = headerLe.duplicate();
        covered.limit(headerLe.position() + HEADER_CRC_OFFSET).position(headerLe.position());
        crc.update(covered);
        return (int) crc.getValue();
    }

    /** CRC32C of {@code body[position, limit)}; position unchanged. */
    static int bodyCrc(ByteBuffer body) {
        CRC32C crc = new CRC32C();
        crc.update(body.duplicate());
        return (int) crc.getValue();
    }
}
